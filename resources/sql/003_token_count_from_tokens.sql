-- SPDX-License-Identifier: GPL-3.0-or-later
-- Schema version 3: a document's kept-token count is the length of its word_ids blob / 4, read
-- without loading the blob. Storing it in documents meant rewriting every document row (text
-- included) at the end of an import, which doubled the import's writes.
ALTER TABLE documents DROP COLUMN token_count;
