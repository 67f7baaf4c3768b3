// SPDX-License-Identifier: GPL-3.0-or-later
// Where a corpus being built goes: the project file when importing, memory for previews and tests.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/data/corpus.hpp"
#include "core/data/metadata_columns.hpp"

namespace latent::core {

struct DocumentRecord {
  std::int64_t index = 0;  // 0-based position in the corpus
  std::string_view id;     // id in the imported file
  std::string_view title;
  std::string_view time;      // as written in the file ("1790", "2020-02-04"); may be empty
  std::string_view label;     // one label, or several joined by the import's label separator
  std::string_view metadata;  // a JSON object of named values ({"party": "Whig"}); empty when none
  std::string_view text;      // original text; empty for bag-of-words formats
  bool hasText = false;
};

struct VocabularyEntry {
  std::string word;
  std::int64_t documentFrequency = 0;
  std::int64_t count = 0;
};

// The builder calls writeDocument for every document as it is read, then, once pruning is
// decided, writeVocabulary once and writeTokens for every document in order.
class CorpusSink {
 public:
  virtual ~CorpusSink() = default;
  virtual void writeDocument(const DocumentRecord& document) = 0;
  virtual void writeVocabulary(std::span<const VocabularyEntry> vocabulary) = 0;
  // `begins`/`ends` are byte spans in the document's text; both empty for bag-of-words documents.
  virtual void writeTokens(std::int64_t document, std::span<const std::int32_t> wordIds,
                           std::span<const std::uint32_t> begins, std::span<const std::uint32_t> ends) = 0;
};

// Keeps everything in memory: for previews, tests and small generated corpora.
class MemoryCorpusSink final : public CorpusSink {
 public:
  struct Document {
    std::string id, title, time, label, text;
    bool hasText = false;
    std::vector<std::int32_t> wordIds;
    std::vector<std::uint32_t> begins, ends;
    std::string metadata;
  };

  void writeDocument(const DocumentRecord& d) override {
    documents.push_back({std::string(d.id),
                         std::string(d.title),
                         std::string(d.time),
                         std::string(d.label),
                         std::string(d.text),
                         d.hasText,
                         {},
                         {},
                         {},
                         std::string(d.metadata)});
  }
  void writeVocabulary(std::span<const VocabularyEntry> v) override { vocabulary.assign(v.begin(), v.end()); }
  void writeTokens(std::int64_t d, std::span<const std::int32_t> ids, std::span<const std::uint32_t> b,
                   std::span<const std::uint32_t> e) override {
    auto& doc = documents.at(static_cast<std::size_t>(d));
    doc.wordIds.assign(ids.begin(), ids.end());
    doc.begins.assign(b.begin(), b.end());
    doc.ends.assign(e.begin(), e.end());
  }

  // The model-facing corpus.
  Corpus corpus() const {
    Corpus c;
    for (const auto& v : vocabulary) c.words.push_back(v.word);
    MetadataColumnsCollector metadata;
    bool timed = false, labelled = false;
    for (const auto& d : documents) {
      c.addDocument(d.id, d.title, d.wordIds);
      c.times.push_back(d.time);
      c.labels.push_back(d.label);
      timed |= !d.time.empty();
      labelled |= !d.label.empty();
      metadata.addText(d.metadata);
    }
    if (!timed) c.times.clear();
    if (!labelled) c.labels.clear();
    c.metadata = metadata.finish();
    return c;
  }

  std::vector<Document> documents;
  std::vector<VocabularyEntry> vocabulary;
};

}  // namespace latent::core
