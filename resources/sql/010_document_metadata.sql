-- SPDX-License-Identifier: GPL-3.0-or-later
-- Schema version 10: named metadata of each document (a party, a rating, a president), kept as a
-- JSON object of strings, NULL when the document has none. Which columns a corpus has is in its
-- dataset's summary (metadata_columns); a label column with several labels per document names its
-- separator in the dataset's options (label_separator).
ALTER TABLE documents ADD COLUMN metadata TEXT;
