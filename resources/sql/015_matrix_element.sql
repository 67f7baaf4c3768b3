-- SPDX-License-Identifier: GPL-3.0-or-later
-- Schema version 15: a result matrix's values are stored as 8-byte doubles ('f64', every matrix
-- before this version) or as 4-byte floats ('f32': large topic-word and document-topic matrices,
-- which then take half the file). Little-endian, column-major either way; a matrix in parts
-- (run_matrix_parts) has the element type of its run_matrices row in every part.
-- The table is rebuilt rather than given the column by ALTER TABLE, which would put it after
-- data: a matrix is inserted as a zero blob and written in place, and SQLite keeps a zero blob
-- unexpanded only as the last column of a row (else it builds the whole blob in memory, hundreds
-- of megabytes for a topic-word matrix at K = 1000).
CREATE TABLE run_matrices_v15 (
  run_id    INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  name      TEXT NOT NULL,
  iteration INTEGER NOT NULL,
  rows      INTEGER NOT NULL,
  cols      INTEGER NOT NULL,
  element   TEXT NOT NULL DEFAULT 'f64',
  data      BLOB NOT NULL,
  PRIMARY KEY (run_id, name, iteration)
);
INSERT INTO run_matrices_v15 (run_id, name, iteration, rows, cols, data)
  SELECT run_id, name, iteration, rows, cols, data FROM run_matrices;
DROP TABLE run_matrices;
ALTER TABLE run_matrices_v15 RENAME TO run_matrices;
