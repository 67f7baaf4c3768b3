-- SPDX-License-Identifier: GPL-3.0-or-later
-- Schema version 6: an import writes its dataset in short transactions as a 'staging' dataset,
-- which no reader lists or finds, and makes it 'ready' in its last commit; so an import never
-- holds the write lock for its whole read and tokenise, and a failed one leaves nothing visible.
-- The owner columns say which import of which process on which machine writes a staging
-- dataset, so that one left by a killed import can be told from one still being written.
ALTER TABLE datasets ADD COLUMN status TEXT NOT NULL DEFAULT 'ready' CHECK (status IN ('ready', 'staging'));
ALTER TABLE datasets ADD COLUMN owner_pid INTEGER;
ALTER TABLE datasets ADD COLUMN owner_host TEXT NOT NULL DEFAULT '';
ALTER TABLE datasets ADD COLUMN owner_import INTEGER;
