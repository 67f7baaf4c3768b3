-- SPDX-License-Identifier: GPL-3.0-or-later
-- Schema version 15: a result matrix's values are stored as 8-byte doubles ('f64', every matrix
-- before this version) or as 4-byte floats ('f32': large topic-word and document-topic matrices,
-- which then take half the file). Little-endian, column-major either way; a matrix in parts
-- (run_matrix_parts) has the element type of its run_matrices row in every part.
ALTER TABLE run_matrices ADD COLUMN element TEXT NOT NULL DEFAULT 'f64';
