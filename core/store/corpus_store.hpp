// SPDX-License-Identifier: GPL-3.0-or-later
// Corpora in the project file: writing them during an import, reading them for models and views.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "data/corpus.hpp"
#include "data/corpus_sink.hpp"
#include "store/project.hpp"

namespace latent::core {

// Writes into an open transaction of `project` (the import owns the transaction).
class CorpusWriter final : public CorpusSink {
 public:
  CorpusWriter(Project& project, std::int64_t datasetId);
  void writeDocument(const DocumentRecord& document) override;
  void writeVocabulary(std::span<const VocabularyEntry> vocabulary) override;
  void writeTokens(std::int64_t document, std::span<const std::int32_t> wordIds,
                   std::span<const std::uint32_t> begins, std::span<const std::uint32_t> ends) override;

 private:
  std::int64_t m_dataset;
  Statement m_insertDocument, m_insertWord, m_insertTokens;
};

struct DocumentHeader {
  std::int64_t index = 0;
  std::string id, title, time, label;
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
std::vector<DocumentHeader> listDocuments(Project& project, std::int64_t datasetId);
StoredDocument loadDocument(Project& project, std::int64_t datasetId, std::int64_t index);
std::vector<VocabularyEntry> loadVocabulary(Project& project, std::int64_t datasetId);

}  // namespace latent::core
