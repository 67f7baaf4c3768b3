-- SPDX-License-Identifier: GPL-3.0-or-later
-- Schema version 4: sweeps, a series of runs that differ in one option (the number of topics or
-- blocks), for the held-out-metric-against-K curve (000 §27.3.8).
CREATE TABLE sweeps (
  id         INTEGER PRIMARY KEY,
  dataset_id INTEGER NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  model      TEXT NOT NULL,
  parameter  TEXT NOT NULL,               -- the option that varies, e.g. "k"
  created_at TEXT NOT NULL
);
ALTER TABLE runs ADD COLUMN sweep_id INTEGER REFERENCES sweeps(id) ON DELETE SET NULL;
