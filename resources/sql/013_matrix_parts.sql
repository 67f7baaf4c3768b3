-- SPDX-License-Identifier: GPL-3.0-or-later
-- Schema version 13: result matrices too large for one blob (SQLite refuses one near 1 GB, and a
-- topic-word matrix at k 10000 is 1.1 GB) are stored in parts. Such a matrix's run_matrices row
-- keeps its rows and cols with an empty data blob; its values, in data's order (column-major
-- doubles), are its parts' data joined in part order. Deleting the matrix deletes its parts.
CREATE TABLE run_matrix_parts (
  run_id    INTEGER NOT NULL,
  name      TEXT NOT NULL,
  iteration INTEGER NOT NULL,
  part      INTEGER NOT NULL,
  data      BLOB NOT NULL,
  PRIMARY KEY (run_id, name, iteration, part),
  FOREIGN KEY (run_id, name, iteration) REFERENCES run_matrices (run_id, name, iteration) ON DELETE CASCADE
) WITHOUT ROWID;
