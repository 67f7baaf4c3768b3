// SPDX-License-Identifier: GPL-3.0-or-later
// Building the sparse document-word counts, their word-major index and the document blocks.
#include "core/models/topic/doc_word_counts.hpp"

#include <algorithm>

namespace latent::core::topic {
namespace {

// Sorts the document's tokens into `sorted` and returns how many distinct words it has.
std::size_t sortTokens(std::span<const std::int32_t> tokens, std::vector<std::int32_t>& sorted) {
  sorted.assign(tokens.begin(), tokens.end());
  std::sort(sorted.begin(), sorted.end());
  return static_cast<std::size_t>(std::unique(sorted.begin(), sorted.end()) - sorted.begin());
}

}  // namespace

DocWordCounts buildDocWordCounts(const Corpus& corpus, std::int64_t entriesPerBlock) {
  DocWordCounts out;
  const std::size_t D = corpus.documentCount();
  out.vocabulary = static_cast<std::int64_t>(corpus.vocabularySize());
  out.docLength.assign(D, 0.0);

  // Pass 1: distinct words per document; then offsets; pass 2: fill. Each document is written
  // by one task only, at offsets fixed before the pass.
  std::vector<std::int64_t> distinct(D, 0);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, D, 64), [&](const auto& range) {
    std::vector<std::int32_t> sorted;
    for (std::size_t d = range.begin(); d != range.end(); ++d)
      distinct[d] = static_cast<std::int64_t>(sortTokens(corpus.document(d), sorted));
  });
  out.docStart.assign(D + 1, 0);
  for (std::size_t d = 0; d < D; ++d) out.docStart[d + 1] = out.docStart[d] + distinct[d];
  const auto nnz = static_cast<std::size_t>(out.docStart[D]);
  out.words.resize(nnz);
  out.counts.resize(nnz);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, D, 64), [&](const auto& range) {
    std::vector<std::int32_t> sorted;
    for (std::size_t d = range.begin(); d != range.end(); ++d) {
      const auto tokens = corpus.document(d);
      sorted.assign(tokens.begin(), tokens.end());
      std::sort(sorted.begin(), sorted.end());
      auto at = static_cast<std::size_t>(out.docStart[d]);
      for (std::size_t i = 0; i < sorted.size();) {
        std::size_t j = i;
        while (j < sorted.size() && sorted[j] == sorted[i]) ++j;
        out.words[at] = sorted[i];
        out.counts[at] = static_cast<double>(j - i);
        ++at;
        i = j;
      }
      out.docLength[d] = static_cast<double>(tokens.size());
    }
  });
  out.tokens = static_cast<double>(corpus.tokenCount());

  // Word-major index by counting sort: entries of each word in document order.
  out.wordStart.assign(static_cast<std::size_t>(out.vocabulary) + 1, 0);
  for (const auto w : out.words) ++out.wordStart[static_cast<std::size_t>(w) + 1];
  for (std::size_t w = 0; w < static_cast<std::size_t>(out.vocabulary); ++w) out.wordStart[w + 1] += out.wordStart[w];
  out.wordDoc.resize(nnz);
  out.wordEntry.resize(nnz);
  std::vector<std::int64_t> next(out.wordStart.begin(), out.wordStart.end() - 1);
  for (std::size_t d = 0; d < D; ++d) {
    for (auto e = out.docStart[d]; e < out.docStart[d + 1]; ++e) {
      const auto slot =
          static_cast<std::size_t>(next[static_cast<std::size_t>(out.words[static_cast<std::size_t>(e)])]++);
      out.wordDoc[slot] = static_cast<std::int32_t>(d);
      out.wordEntry[slot] = e;
    }
  }

  // Blocks of consecutive documents holding about entriesPerBlock entries each.
  out.blockStart.assign(1, 0);
  std::int64_t inBlock = 0;
  for (std::size_t d = 0; d < D; ++d) {
    inBlock += distinct[d];
    if (inBlock >= entriesPerBlock || d + 1 == D) {
      out.blockStart.push_back(static_cast<std::int64_t>(d + 1));
      inBlock = 0;
    }
  }
  return out;
}

}  // namespace latent::core::topic
