-- SPDX-License-Identifier: GPL-3.0-or-later
-- Schema version 11: links between the documents of a corpus (citations, hyperlinks), attached
-- after the corpus's import (`latent-cli import links`). source links to target, as imported;
-- both are doc_index values of the same dataset. The dataset's summary counts them (links).
CREATE TABLE document_links (
  dataset_id INTEGER NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  source     INTEGER NOT NULL,
  target     INTEGER NOT NULL,
  PRIMARY KEY (dataset_id, source, target)
) WITHOUT ROWID;
-- The reader lists a document's links both ways: those to it by target.
CREATE INDEX document_links_by_target ON document_links (dataset_id, target);
