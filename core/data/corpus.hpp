// SPDX-License-Identifier: GPL-3.0-or-later
// The in-memory corpus that topic models fit: documents as runs of word ids.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/data/graph.hpp"

namespace latent::core {

// Only what fitting needs. Original text and character spans stay in the project file and are
// read per document by the views (store/corpus_store.hpp).
struct Corpus {
  std::vector<std::string> words;        // vocabulary; index = word id
  std::vector<std::string> documentIds;  // ids of the imported file (file name, line, docID)
  std::vector<std::string> titles;
  // Each document's time as imported (a year or a date, data/time_slices.hpp), "" where it has
  // none; empty when the corpus carries no times at all. Set after addDocument.
  std::vector<std::string> times;
  // Each document's label as imported, "" where it has none; empty when the corpus carries no
  // labels. With a label separator one text holds several labels (data/document_fields.hpp
  // splits it: "economy; health").
  std::vector<std::string> labels;
  std::string labelSeparator;
  // Named metadata columns (a party, a rating, a president), each with a value per document as
  // imported, "" where missing. Which are numbers is decided when a model asks for one.
  struct MetadataColumn {
    std::string name;
    std::vector<std::string> values;
  };
  std::vector<MetadataColumn> metadata;
  // Links between documents (citations, hyperlinks) by document index, as imported: source links
  // to target; sorted, no duplicates, no self-links. Empty for a corpus without links. Models of
  // linked documents see them through FitData::links (eval/link_split.hpp), never directly.
  std::vector<Edge> links;
  std::vector<std::int64_t> offsets{0};  // document d holds tokens[offsets[d], offsets[d+1])
  std::vector<std::int32_t> tokens;      // word id of every kept token, document after document

  std::size_t documentCount() const noexcept { return offsets.size() - 1; }
  std::size_t vocabularySize() const noexcept { return words.size(); }
  std::size_t tokenCount() const noexcept { return tokens.size(); }
  std::size_t documentLength(std::size_t d) const noexcept {
    return static_cast<std::size_t>(offsets[d + 1] - offsets[d]);
  }
  std::span<const std::int32_t> document(std::size_t d) const noexcept {
    return {tokens.data() + offsets[d], documentLength(d)};
  }

  void addDocument(std::string id, std::string title, std::span<const std::int32_t> wordIds) {
    documentIds.push_back(std::move(id));
    titles.push_back(std::move(title));
    tokens.insert(tokens.end(), wordIds.begin(), wordIds.end());
    offsets.push_back(static_cast<std::int64_t>(tokens.size()));
  }

  // Gives this (empty) corpus the same kinds of per-document fields as `source`: its label
  // separator and metadata column names, no values yet.
  void takeFieldLayoutOf(const Corpus& source) {
    labelSeparator = source.labelSeparator;
    metadata.clear();
    for (const auto& column : source.metadata) metadata.push_back({column.name, {}});
  }
  // Appends document d's time, label and metadata values from `source` (whose layout this corpus
  // took), for the document just added from it.
  void appendFieldsOf(const Corpus& source, std::size_t d) {
    if (source.times.size() == source.documentCount()) times.push_back(source.times[d]);
    if (source.labels.size() == source.documentCount()) labels.push_back(source.labels[d]);
    for (std::size_t c = 0; c < metadata.size(); ++c) metadata[c].values.push_back(source.metadata[c].values[d]);
  }
};

}  // namespace latent::core
