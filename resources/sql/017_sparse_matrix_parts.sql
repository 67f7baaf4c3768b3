-- SPDX-License-Identifier: GPL-3.0-or-later
-- Schema version 17: a sparse matrix (element 'sparse', schema 16) too large for one blob is stored
-- in parts, as a dense one is (schema 13): its run_matrices row keeps its rows and cols with an
-- empty data blob, and its bytes, those one blob would hold, are its parts' data joined in part
-- order. Before, such a matrix was written out dense (2 GB of floats for topics of K = 5000 over
-- 100,000 words). Nothing in the tables changes; the version tells a build of schema 16, which
-- would take such a row for damage, that the file is newer than it.
SELECT 1;
