// SPDX-License-Identifier: GPL-3.0-or-later
// Corpora in the project file: writing them during an import, reading them for models and views.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/data/corpus.hpp"
#include "core/data/corpus_sink.hpp"
#include "core/store/dataset_staging.hpp"
#include "core/store/project.hpp"

namespace latent::core {

// Writes into an open transaction of `project` (the import owns the transaction).
class CorpusWriter final : public CorpusSink {
 public:
  CorpusWriter(Project& project, std::int64_t datasetId);
  void writeDocument(const DocumentRecord& document) override;
  void writeVocabulary(std::span<const VocabularyEntry> vocabulary) override;
  void writeTokens(std::int64_t document, std::span<const std::int32_t> wordIds, std::span<const std::uint32_t> begins,
                   std::span<const std::uint32_t> ends) override;
  // Part of the vocabulary: `words` get the ids firstId, firstId + 1, ...
  void writeWords(std::span<const VocabularyEntry> words, std::int64_t firstId);

 private:
  std::int64_t m_dataset;
  Statement m_insertDocument, m_insertWord, m_insertTokens;
};

// Writes a corpus being imported through a StagedDataset, in short transactions: rows wait in
// memory until a batch is full (kStagingBatchRows rows or kStagingBatchBytes bytes), so reading
// and tokenising go on while no transaction is open. What still waits when the builder has
// finished goes into the import's last commit (writePending inside StagedDataset::publish).
class StagedCorpusWriter final : public CorpusSink {
 public:
  StagedCorpusWriter(Project& project, StagedDataset& staging) : m_project(project), m_staging(staging) {}
  void writeDocument(const DocumentRecord& document) override;
  void writeVocabulary(std::span<const VocabularyEntry> vocabulary) override;
  void writeTokens(std::int64_t document, std::span<const std::int32_t> wordIds, std::span<const std::uint32_t> begins,
                   std::span<const std::uint32_t> ends) override;
  // Writes the waiting rows within the caller's transaction.
  void writePending(std::int64_t datasetId);

 private:
  struct PendingDocument {
    std::int64_t index = 0;
    std::string id, title, time, label, text, metadata;
    bool hasText = false;
  };
  struct PendingTokens {
    std::int64_t document = 0;
    std::vector<std::int32_t> wordIds;
    std::vector<std::uint32_t> begins, ends;
  };
  void flushWhenFull();

  Project& m_project;
  StagedDataset& m_staging;
  std::vector<PendingDocument> m_documents;
  std::vector<VocabularyEntry> m_words;
  std::int64_t m_firstWord = 0;  // the id of m_words[0]
  std::vector<PendingTokens> m_tokens;
  std::size_t m_rows = 0, m_bytes = 0;
};

struct DocumentHeader {
  std::int64_t index = 0;
  std::string id, title, time, label;
  std::string metadata;  // a JSON object of named values, "" when none
  std::int64_t tokenCount = 0;
  bool hasText = false;
};

struct StoredDocument {
  DocumentHeader header;
  std::string text;
  std::vector<std::int32_t> wordIds;
  std::vector<std::uint32_t> begins, ends;  // empty for bag-of-words documents
};

// Everything a model needs (no text, no spans).
Corpus loadCorpus(Project& project, std::int64_t datasetId);
// The corpus's documents with their ids, titles, times, labels and metadata but no words (every
// document empty, no links): what views that break results down by a field need.
Corpus loadDocumentFields(Project& project, std::int64_t datasetId);
std::vector<DocumentHeader> listDocuments(Project& project, std::int64_t datasetId);
StoredDocument loadDocument(Project& project, std::int64_t datasetId, std::int64_t index);
std::vector<VocabularyEntry> loadVocabulary(Project& project, std::int64_t datasetId);

}  // namespace latent::core
