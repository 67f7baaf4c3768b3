// SPDX-License-Identifier: GPL-3.0-or-later
// The figures of a whole corpus that the processes holding shares of it read.
#include "core/data/corpus_share.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace latent::core {

std::vector<std::int64_t> wordFrequencies(const Corpus& corpus) {
  std::vector<std::int64_t> frequency(corpus.vocabularySize(), 0);
  for (const auto w : corpus.tokens) ++frequency[static_cast<std::size_t>(w)];
  return frequency;
}

double squaredDocumentLengths(const Corpus& corpus) {
  double squares = 0.0;
  for (std::size_t d = 0; d < corpus.documentCount(); ++d) {
    const auto length = static_cast<double>(corpus.documentLength(d));
    squares += length * length;
  }
  return squares;
}

CorpusShare describeCorpus(const Corpus& corpus, CorpusPlan plan) {
  CorpusShare share;
  share.plan = std::move(plan);
  share.tokens = static_cast<std::int64_t>(corpus.tokenCount());
  share.wordFrequencies = wordFrequencies(corpus);
  for (std::size_t d = 0; d < corpus.documentCount(); ++d)
    share.longestDocument = std::max(share.longestDocument, static_cast<std::int64_t>(corpus.documentLength(d)));
  share.squaredLengths = squaredDocumentLengths(corpus);
  return share;
}

std::pair<std::int64_t, std::int64_t> documentsOfProcess(const CorpusPlan& plan, int q, int processes) {
  const auto P = plan.partitionEnds.size();
  const auto Q = static_cast<std::size_t>(processes);
  if (Q == 0 || P % Q != 0 || q < 0 || q >= processes)
    throw std::invalid_argument("a plan of " + std::to_string(P) + " partitions has no process " + std::to_string(q) +
                                " of " + std::to_string(processes));
  const auto perProcess = P / Q, first = static_cast<std::size_t>(q) * perProcess;
  return {first == 0 ? 0 : plan.partitionEnds[first - 1], plan.partitionEnds[first + perProcess - 1]};
}

std::pair<std::int64_t, std::int64_t> heldoutOfProcess(const CorpusShare& share, int q) {
  const auto& ends = share.heldoutEnds;
  if (ends.empty()) return {0, 0};
  if (q < 0 || static_cast<std::size_t>(q) >= ends.size())
    throw std::invalid_argument("held-out documents planned for " + std::to_string(ends.size()) +
                                " processes have none for process " + std::to_string(q));
  return {q == 0 ? 0 : ends[static_cast<std::size_t>(q) - 1], ends[static_cast<std::size_t>(q)]};
}

}  // namespace latent::core
