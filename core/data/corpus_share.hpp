// SPDX-License-Identifier: GPL-3.0-or-later
// A corpus held in shares by the processes of a distributed fit (latent-cli fit --distributed):
// process 0 loads the whole corpus and the model plans on it how its processes sample it
// (ModelInfo::planCorpus); every other process receives only its own documents' tokens, with the
// plan and what it needs to know of the whole corpus to sample them as one process would
// (jobs/distributed_dataset.hpp). So a process other than 0 holds about 1/Q of the tokens.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "core/data/corpus.hpp"

namespace latent::core {

// What a model decides from the whole corpus before its processes sample it.
struct CorpusPlan {
  // Its partitions, contiguous and in document order: partition p holds documents
  // [partitionEnds[p - 1], partitionEnds[p]) (from 0 for p = 0). Process q of Q samples
  // partitions [q P/Q, (q + 1) P/Q), so P is a multiple of Q.
  std::vector<std::int64_t> partitionEnds;
  // Each word's group, for a model that samples the words in groups rotated between the
  // partitions; empty when it makes none.
  std::vector<std::uint32_t> wordGroups;
};

// What every process of a distributed corpus fit knows of the whole (training) corpus besides its
// own documents: the plan, and the figures a model reads of all documents.
struct CorpusShare {
  CorpusPlan plan;
  std::int64_t tokens = 0;
  std::vector<std::int64_t> wordFrequencies;  // over every document
  std::int64_t longestDocument = 0;           // tokens
  double squaredLengths = 0.0;                // the sum over documents of their length squared
  // The held-out documents each process scores at the evaluations: process q those in
  // [heldoutEnds[q - 1], heldoutEnds[q]) (eval/heldout.hpp, heldoutEndsOfProcesses); empty when
  // nothing is held out or the model scores them on process 0 alone.
  std::vector<std::int64_t> heldoutEnds;
};

// How often each word occurs in `corpus`.
std::vector<std::int64_t> wordFrequencies(const Corpus& corpus);

// The sum over `corpus`'s documents of their length squared, added in document order.
double squaredDocumentLengths(const Corpus& corpus);

// `plan` with the figures of the whole `corpus` it was made on.
CorpusShare describeCorpus(const Corpus& corpus, CorpusPlan plan);

// The documents [first, end) of process q of `processes`: those of its partitions.
std::pair<std::int64_t, std::int64_t> documentsOfProcess(const CorpusPlan& plan, int q, int processes);

// The held-out documents [first, end) process q scores ({0, 0} when none are held out).
std::pair<std::int64_t, std::int64_t> heldoutOfProcess(const CorpusShare& share, int q);

}  // namespace latent::core
