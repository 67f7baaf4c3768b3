-- SPDX-License-Identifier: GPL-3.0-or-later
-- Schema version 16: a run_matrices row may hold its matrix sparse (element 'sparse'): one blob,
-- little-endian, of the rows' fill values (rows doubles: the value of every entry not listed), the
-- columns' starts (cols + 1 64-bit integers, from 0 to the number of entries), the listed entries'
-- rows (32-bit integers) and their values (doubles), column by column. lda-gibbs stores its
-- snapshots of topic_word so (the topics' smoothing and the (topic, word) pairs that hold tokens).
-- Nothing in the tables changes; the version tells a build of schema 15, which would take such a
-- row for damage, that the file is newer than it.
SELECT 1;
