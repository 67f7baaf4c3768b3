-- SPDX-License-Identifier: GPL-3.0-or-later
-- Schema version 7: numeric tables (rows x features, DESIGN §2), a fourth dataset kind 'table'.
-- The kind's CHECK cannot be altered in place, so `datasets` is rebuilt the way SQLite documents
-- (lang_altertable.html, "other kinds of table schema changes"): Project::migrate runs every
-- migration with foreign keys off and checks them (PRAGMA foreign_key_check) before committing,
-- so dropping the old table cascades nothing and the tables referencing `datasets` by name refer
-- to the new one.
CREATE TABLE datasets_v7 (
  id           INTEGER PRIMARY KEY,
  name         TEXT NOT NULL UNIQUE,
  kind         TEXT NOT NULL CHECK (kind IN ('corpus', 'graph', 'ratings', 'table')),
  source       TEXT NOT NULL,               -- the path imported from
  format       TEXT NOT NULL,               -- the importer used (lines, uci, gml, movielens ...)
  options      TEXT NOT NULL DEFAULT '{}',  -- JSON: the import options
  summary      TEXT NOT NULL DEFAULT '{}',  -- JSON: counts shown in the project tree
  created_at   TEXT NOT NULL,
  status       TEXT NOT NULL DEFAULT 'ready' CHECK (status IN ('ready', 'staging')),
  owner_pid    INTEGER,
  owner_host   TEXT NOT NULL DEFAULT '',
  owner_import INTEGER
);
INSERT INTO datasets_v7 (id, name, kind, source, format, options, summary, created_at, status, owner_pid, owner_host,
                         owner_import)
  SELECT id, name, kind, source, format, options, summary, created_at, status, owner_pid, owner_host, owner_import
  FROM datasets;
DROP TABLE datasets;
ALTER TABLE datasets_v7 RENAME TO datasets;

-- Numeric tables --------------------------------------------------------------------------
-- The feature (column) names in order.
CREATE TABLE table_features (
  dataset_id    INTEGER NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  feature_index INTEGER NOT NULL,
  name          TEXT NOT NULL,
  PRIMARY KEY (dataset_id, feature_index)
) WITHOUT ROWID;

-- One row per table row: its name, its label (NULL without a label column) and its values as a
-- little-endian float64 BLOB, one per feature in feature order.
CREATE TABLE table_rows (
  dataset_id INTEGER NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  row_index  INTEGER NOT NULL,              -- 0-based position in the imported file
  name       TEXT NOT NULL,
  label      TEXT,
  vals       BLOB NOT NULL,
  PRIMARY KEY (dataset_id, row_index)
);
