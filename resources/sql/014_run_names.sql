-- SPDX-License-Identifier: GPL-3.0-or-later
-- Schema version 14: a run can be given a name of its own and notes (the project tree, the run's
-- header and the comparison of runs show them). Empty means none: such a run is known by its number.
ALTER TABLE runs ADD COLUMN name TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN notes TEXT NOT NULL DEFAULT '';
