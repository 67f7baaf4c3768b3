-- SPDX-License-Identifier: GPL-3.0-or-later
-- Schema version 9: per-token results of a run beside its topics (token_topics), one row per named
-- layer and document, float32 per kept token in document order: lda-hmm's class of each token
-- (token_class) and its probability of being a content word (token_content_probability); the
-- names are declared in core/results/topic_results.hpp. Deleting the run deletes them.
CREATE TABLE token_values (
  run_id    INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  name      TEXT NOT NULL,
  doc_index INTEGER NOT NULL,
  vals      BLOB NOT NULL,
  PRIMARY KEY (run_id, name, doc_index)
) WITHOUT ROWID;
