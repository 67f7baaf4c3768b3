-- SPDX-License-Identifier: GPL-3.0-or-later
-- Schema version 2: which process on which machine owns a running run, so that a run whose
-- process was killed can be shown as interrupted instead of running for ever.
ALTER TABLE runs ADD COLUMN owner_pid INTEGER;
ALTER TABLE runs ADD COLUMN owner_host TEXT NOT NULL DEFAULT '';
