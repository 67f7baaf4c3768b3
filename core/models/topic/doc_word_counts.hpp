// SPDX-License-Identifier: GPL-3.0-or-later
// The training corpus as sparse document-word counts with a word-major index, cut into fixed
// document blocks: what the EM-type topic models (mixture of categoricals, PLSA) sweep over.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <atomic>
#include <cstdint>
#include <span>
#include <stop_token>
#include <vector>

#include "core/data/corpus.hpp"

namespace latent::core::topic {

// Document d holds the distinct words words[docStart[d] .. docStart[d+1]) with their counts.
// The word-major index lists, for word w, the entries wordEntry[wordStart[w] .. wordStart[w+1])
// (positions in `words`/`counts`) of the documents wordDoc[...] that contain it, in document
// order. It lets a model sum a topic's expected word counts word by word, each word on its own,
// so that the sums never depend on how documents were spread over threads.
struct DocWordCounts {
  std::int64_t vocabulary = 0;
  std::vector<std::int64_t> docStart{0};
  std::vector<std::int32_t> words;
  std::vector<double> counts;
  std::vector<double> docLength;  // tokens per document
  std::vector<std::int64_t> wordStart;
  std::vector<std::int32_t> wordDoc;
  std::vector<std::int64_t> wordEntry;
  double tokens = 0.0;
  // Fixed blocks of consecutive documents, [blockStart[b], blockStart[b+1]): chosen from the data
  // alone (about the same number of entries each), never from the thread count.
  std::vector<std::int64_t> blockStart{0};

  std::size_t documents() const noexcept { return docStart.size() - 1; }
  std::size_t blocks() const noexcept { return blockStart.size() - 1; }
  std::size_t entries() const noexcept { return words.size(); }
};

DocWordCounts buildDocWordCounts(const Corpus& corpus, std::int64_t entriesPerBlock = 4096);

// Runs fn(b) for every block b in parallel and returns the sum of the results added in block
// order, so the total is the same for every thread count. A stop request skips the remaining
// blocks and sets `stopped` (the total is then meaningless).
template <typename Fn>
double sumOverBlocks(std::size_t blocks, std::stop_token stop, bool& stopped, Fn&& fn) {
  std::vector<double> partial(blocks, 0.0);
  std::atomic<bool> halted{false};
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, blocks, 1), [&](const tbb::blocked_range<std::size_t>& range) {
    for (std::size_t b = range.begin(); b != range.end(); ++b) {
      if (halted.load(std::memory_order_relaxed) || stop.stop_requested()) {
        halted.store(true, std::memory_order_relaxed);
        return;
      }
      partial[b] = fn(b);
    }
  });
  stopped = halted.load();
  double total = 0.0;
  for (const double p : partial) total += p;
  return total;
}

// Runs fn(begin, end) over consecutive word ranges in parallel; each word's result must depend
// on that word alone. Honours a stop request between ranges (sets `stopped`).
template <typename Fn>
void forEachWordRange(std::int64_t vocabulary, std::stop_token stop, bool& stopped, Fn&& fn) {
  std::atomic<bool> halted{false};
  tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, vocabulary, 256),
                    [&](const tbb::blocked_range<std::int64_t>& range) {
                      if (halted.load(std::memory_order_relaxed) || stop.stop_requested()) {
                        halted.store(true, std::memory_order_relaxed);
                        return;
                      }
                      fn(range.begin(), range.end());
                    });
  stopped = halted.load();
}

}  // namespace latent::core::topic
