-- SPDX-License-Identifier: GPL-3.0-or-later
-- Schema version 5: the names a user gives to the topics of a run (the topic-word table's
-- editable labels). A topic without a row has no name; deleting the run deletes its names.
CREATE TABLE topic_labels (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  topic  INTEGER NOT NULL,                 -- 0-based row of the run's topic_word matrix
  label  TEXT NOT NULL,
  PRIMARY KEY (run_id, topic)
) WITHOUT ROWID;
