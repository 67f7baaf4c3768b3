// SPDX-License-Identifier: GPL-3.0-or-later
// What an exact Gibbs kernel (sparse, wordwise) needs to sample one chain across several
// processes (latent-cli fit --distributed): the group, the stop request every process must agree
// on, and what the processes gather besides the word groups (lda_gibbs_process_ring.hpp moves
// those): the tokens' topics for process 0's result, the log prior's terms and the histograms
// alpha is re-estimated from. Process q of Q holds partitions [q P/Q, (q + 1) P/Q) of the state,
// so its documents are one range, in rank order; a process other than 0 holds only those
// documents' tokens (data/corpus_share.hpp).
#pragma once

#include <stop_token>

#include "core/models/topic/dirichlet_hyperparameters.hpp"
#include "core/models/topic/lda_gibbs_state.hpp"
#include "core/util/communicator.hpp"

namespace latent::core::topic {

// Each process samples the documents of its partitions; the stop request of one process (its
// own Ctrl-C, a signal from mpirun) must end the chain on all of them after the same round, or
// they would wait on each other's collectives. The kernel reads `localStop`, tells the others at
// the end of each round, and requests `agreed` on every process at once: the token the rest of
// the fit (the driver, the restarts, the results) is given.
struct GibbsDistribution {
  Communicator* group = nullptr;
  std::stop_token localStop;
  std::stop_source agreed;
};

// The documents of process q of `processes`: those of its partitions [q P/Q, (q + 1) P/Q).
DocumentRange documentsOf(const LdaGibbsState& state, std::size_t q, std::size_t processes);

// A process's histograms (of its own documents) as a message: per topic, then for the lengths,
// the number of nonzero entries and each one's (count, documents). Only the nonzero entries: at
// K = 1000 most topics hold few of the counts up to a document's length.
void appendHistograms(Bytes& out, const DocumentTopicHistograms& histograms);
// Adds such a message to `sum` (sum.topic has K rows): summed over the processes in any order,
// the histograms of the whole corpus, entry for entry and sized as one process computes them.
void addHistograms(ByteReader& in, DocumentTopicHistograms& sum);

// Collective. The histograms of every document of the chain: each process's for its own
// documents, summed, so that no process needs the others' assignments for them.
DocumentTopicHistograms gatheredHistograms(Communicator& group, const LdaGibbsState& state);

// Collective. log P(Z | alpha) from every process's terms for its documents, gathered in document
// order and added up as the one-process chain adds them: bit for bit its value, for 8 bytes a
// document rather than every token's topic.
double gatheredLogPrior(Communicator& group, const LdaGibbsState& state);

// Collective. Every token's topic into process 0's `state` (which holds every document) from the
// process whose documents it belongs to: what the results need, which process 0 alone builds.
void gatherAssignmentsOnProcessZero(Communicator& group, LdaGibbsState& state);

}  // namespace latent::core::topic
