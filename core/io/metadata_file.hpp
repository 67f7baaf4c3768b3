// SPDX-License-Identifier: GPL-3.0-or-later
// A metadata table joined to a corpus being imported: a CSV/TSV file with a row per document (a
// year, a party, an author), matched to documents by a key column holding the document's id, its
// file name or a path to it ("texts/001_1790_washington.txt" matches the folder corpus's document
// "001_1790_washington.txt"). What it gives a document goes in as the document's time, label or
// metadata, as if the corpus file had carried those columns.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/data/corpus_sink.hpp"
#include "core/io/corpus_import.hpp"

namespace latent::core {

class MetadataFile {
 public:
  // Reads the whole file. `keyColumn` empty: "id" when there is one, else "file", else the first
  // column. Throws InputError (FILE:LINE: reason) for a malformed file, a missing key column, an
  // empty or repeated key.
  MetadataFile(const std::filesystem::path& path, std::string keyColumn);

  const std::string& displayName() const noexcept { return m_name; }
  const std::string& keyColumn() const noexcept { return m_header[static_cast<std::size_t>(m_key)]; }
  const std::string& columnName(int c) const { return m_header.at(static_cast<std::size_t>(c)); }
  // Every column but the key, in the file's order.
  std::vector<std::string> valueColumns() const;
  // The index of a column (names match ignoring case), or -1.
  int column(std::string_view name) const;
  // The row matching a document id: its key equal to the id, else to the id's file name (the
  // key's last path part), else to the file name without its extension; null when none matches.
  const std::vector<std::string>* row(std::string_view documentId) const;
  std::int64_t rowCount() const noexcept { return static_cast<std::int64_t>(m_rows.size()); }

 private:
  std::string m_name;
  std::vector<std::string> m_header;
  int m_key = 0;
  std::vector<std::vector<std::string>> m_rows;
  std::unordered_map<std::string, std::size_t> m_byKey, m_byFileName, m_byStem;
};

// What the metadata file gives each document.
struct MetadataJoin {
  int timeColumn = -1;            // the document's time from this column, or -1
  int labelColumn = -1;           // its label
  std::vector<int> valueColumns;  // kept as named metadata
};

// What the file gives an import that asks for `read`'s time, label and metadata columns: the
// columns the file has are taken from it and removed from `read`, which keeps those the corpus file
// (CSV, JSON Lines) must give. No metadata columns named, or "all": every other column of the file.
MetadataJoin planMetadataJoin(const MetadataFile& file, CorpusReadOptions& read);

// Passes documents on to `inner` with their time, label and metadata from the file joined in
// (metadata the corpus file gave is kept, the file's values added), and records the metadata
// column names in the order they first appear (for the dataset's summary). Without a file it only
// records the names.
class DocumentMetadataSink final : public CorpusSink {
 public:
  DocumentMetadataSink(CorpusSink& inner, const MetadataFile* file, MetadataJoin join);
  void writeDocument(const DocumentRecord& document) override;
  void writeVocabulary(std::span<const VocabularyEntry> vocabulary) override { m_inner.writeVocabulary(vocabulary); }
  void writeTokens(std::int64_t document, std::span<const std::int32_t> wordIds, std::span<const std::uint32_t> begins,
                   std::span<const std::uint32_t> ends) override {
    m_inner.writeTokens(document, wordIds, begins, ends);
  }

  const std::vector<std::string>& metadataColumns() const noexcept { return m_columns; }
  std::int64_t unmatchedDocuments() const noexcept { return m_unmatched; }
  std::int64_t matchedDocuments() const noexcept { return m_matched; }
  std::int64_t labelledDocuments() const noexcept { return m_labelled; }

 private:
  void noteColumn(const std::string& name);

  CorpusSink& m_inner;
  const MetadataFile* m_file;
  MetadataJoin m_join;
  std::vector<std::string> m_columns;
  std::int64_t m_unmatched = 0, m_matched = 0, m_labelled = 0;
  std::string m_metadata;
};

}  // namespace latent::core
