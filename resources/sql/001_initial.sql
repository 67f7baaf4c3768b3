-- SPDX-License-Identifier: GPL-3.0-or-later
-- Latent Studio project file, schema version 1: datasets, their contents, runs and results.
-- Numeric arrays are little-endian BLOBs: int32 for ids and topics, uint32 for byte spans,
-- float64 in column-major order (Eigen's) for matrices.

CREATE TABLE project_info (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

CREATE TABLE datasets (
  id         INTEGER PRIMARY KEY,
  name       TEXT NOT NULL UNIQUE,
  kind       TEXT NOT NULL CHECK (kind IN ('corpus', 'graph', 'ratings')),
  source     TEXT NOT NULL,               -- the path imported from
  format     TEXT NOT NULL,               -- the importer used (lines, uci, gml, movielens ...)
  options    TEXT NOT NULL DEFAULT '{}',  -- JSON: the import options
  summary    TEXT NOT NULL DEFAULT '{}',  -- JSON: counts shown in the project tree
  created_at TEXT NOT NULL
);

-- Corpora ---------------------------------------------------------------------------------
CREATE TABLE documents (
  dataset_id  INTEGER NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  doc_index   INTEGER NOT NULL,           -- 0-based position
  external_id TEXT NOT NULL,              -- id in the imported file
  title       TEXT NOT NULL,
  time        TEXT,
  label       TEXT,
  text        TEXT,                       -- original text; NULL for bag-of-words formats
  token_count INTEGER NOT NULL DEFAULT 0, -- kept tokens
  PRIMARY KEY (dataset_id, doc_index)
);

CREATE TABLE vocabulary (
  dataset_id INTEGER NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  word_id    INTEGER NOT NULL,
  word       TEXT NOT NULL,
  doc_freq   INTEGER NOT NULL,
  count      INTEGER NOT NULL,
  PRIMARY KEY (dataset_id, word_id)
) WITHOUT ROWID;

-- One row per document: its kept tokens in order. span_begins/span_ends are byte offsets into
-- documents.text (NULL for bag-of-words documents).
CREATE TABLE tokens (
  dataset_id  INTEGER NOT NULL,
  doc_index   INTEGER NOT NULL,
  word_ids    BLOB NOT NULL,
  span_begins BLOB,
  span_ends   BLOB,
  PRIMARY KEY (dataset_id, doc_index),
  FOREIGN KEY (dataset_id, doc_index) REFERENCES documents(dataset_id, doc_index) ON DELETE CASCADE
);

-- Graphs ----------------------------------------------------------------------------------
CREATE TABLE nodes (
  dataset_id  INTEGER NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  node_index  INTEGER NOT NULL,
  external_id TEXT NOT NULL,
  name        TEXT NOT NULL,
  attributes  TEXT NOT NULL DEFAULT '{}', -- JSON object: attribute name -> value
  PRIMARY KEY (dataset_id, node_index)
) WITHOUT ROWID;

CREATE TABLE edges (
  dataset_id INTEGER NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  source     INTEGER NOT NULL,             -- node_index
  target     INTEGER NOT NULL,
  weight     REAL NOT NULL DEFAULT 1.0,
  PRIMARY KEY (dataset_id, source, target)
) WITHOUT ROWID;

-- Ratings ---------------------------------------------------------------------------------
CREATE TABLE users (
  dataset_id  INTEGER NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  user_index  INTEGER NOT NULL,
  external_id TEXT NOT NULL,
  PRIMARY KEY (dataset_id, user_index)
) WITHOUT ROWID;

CREATE TABLE items (
  dataset_id  INTEGER NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  item_index  INTEGER NOT NULL,
  external_id TEXT NOT NULL,
  name        TEXT NOT NULL,
  attributes  TEXT NOT NULL DEFAULT '{}',
  PRIMARY KEY (dataset_id, item_index)
) WITHOUT ROWID;

CREATE TABLE ratings (
  dataset_id INTEGER NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  seq        INTEGER NOT NULL,              -- order in the imported file
  user_index INTEGER NOT NULL,
  item_index INTEGER NOT NULL,
  value      REAL NOT NULL,
  time       INTEGER,                       -- NULL when the file has no time stamps
  PRIMARY KEY (dataset_id, seq)
) WITHOUT ROWID;

-- Runs ------------------------------------------------------------------------------------
CREATE TABLE runs (
  id             INTEGER PRIMARY KEY,
  dataset_id     INTEGER NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  model          TEXT NOT NULL,
  options        TEXT NOT NULL,             -- JSON: every option with the value used
  seed           INTEGER NOT NULL,
  threads        INTEGER NOT NULL,
  heldout        REAL NOT NULL DEFAULT 0,   -- held-out fraction
  status         TEXT NOT NULL CHECK (status IN ('running', 'finished', 'stopped', 'failed')),
  message        TEXT NOT NULL DEFAULT '',
  objective_name TEXT NOT NULL DEFAULT '',  -- what train_objective measures
  heldout_name   TEXT NOT NULL DEFAULT '',  -- what heldout_metric measures, with its protocol
  app_version    TEXT NOT NULL,
  created_at     TEXT NOT NULL,
  updated_at     TEXT NOT NULL,
  finished_at    TEXT,
  seconds        REAL,
  iterations     INTEGER,
  final_metrics  TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX runs_by_dataset ON runs(dataset_id);

CREATE TABLE run_metrics (
  run_id          INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  iteration       INTEGER NOT NULL,
  seconds         REAL NOT NULL,
  train_objective REAL,
  heldout_metric  REAL,
  extras          TEXT NOT NULL DEFAULT '{}', -- JSON: model-specific values (alpha, K ...)
  PRIMARY KEY (run_id, iteration)
) WITHOUT ROWID;

-- iteration -1 holds the final result; other rows are snapshots taken during the run.
CREATE TABLE run_matrices (
  run_id    INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  name      TEXT NOT NULL,
  iteration INTEGER NOT NULL,
  rows      INTEGER NOT NULL,
  cols      INTEGER NOT NULL,
  data      BLOB NOT NULL,
  PRIMARY KEY (run_id, name, iteration)
);

-- Per-token topic assignments of a run, one row per document, int32 per kept token.
CREATE TABLE token_topics (
  run_id    INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  doc_index INTEGER NOT NULL,
  topics    BLOB NOT NULL,
  PRIMARY KEY (run_id, doc_index)
);
