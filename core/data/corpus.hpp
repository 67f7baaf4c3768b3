// SPDX-License-Identifier: GPL-3.0-or-later
// The in-memory corpus that topic models fit: documents as runs of word ids.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

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
};

}  // namespace latent::core
