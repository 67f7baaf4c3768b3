-- SPDX-License-Identifier: GPL-3.0-or-later
-- Schema version 12: a graph may hold several relations over the same nodes (Sampson's like,
-- esteem, praise, ...). Each edge names its relation by number, 0 for a graph of one relation (and
-- for the first relation, the one models of a single relation fit); the relations' names are in
-- the dataset's options (relations). The key now includes the relation.
CREATE TABLE edges_by_relation (
  dataset_id INTEGER NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  relation   INTEGER NOT NULL DEFAULT 0,
  source     INTEGER NOT NULL,             -- node_index
  target     INTEGER NOT NULL,
  weight     REAL NOT NULL DEFAULT 1.0,
  PRIMARY KEY (dataset_id, relation, source, target)
) WITHOUT ROWID;
INSERT INTO edges_by_relation (dataset_id, relation, source, target, weight)
  SELECT dataset_id, 0, source, target, weight FROM edges;
DROP TABLE edges;
ALTER TABLE edges_by_relation RENAME TO edges;
