// SPDX-License-Identifier: GPL-3.0-or-later
// Held-out documents for the document-completion protocol (003; DESIGN §3 "Evaluation").
#pragma once

#include <cstdint>
#include <vector>

#include "core/data/corpus.hpp"

namespace latent::core {

// Each held-out document's tokens are split in two halves at random (seeded): a model may fit
// the document's own parameters (its topic mixture) to `observed`, and is scored on `scored`
// only. Scoring the same words it was fitted on ("full folding-in") is optimistic, as 003 shows.
struct HeldoutDocuments {
  std::vector<std::int64_t> documents;  // indices in the full corpus
  Corpus observed;                      // document i: the first half
  Corpus scored;                        // document i: the second half
  // Where each token of `observed` and of `scored` stood in its whole document (0-based, aligned
  // with observed.tokens and scored.tokens): a model of word order (lda-hmm) puts the halves back
  // in sequence from them. Empty when the halves were made without them (hand-made test data);
  // such a model then takes the observed half's tokens, then the scored half's, as the sequence.
  std::vector<std::int32_t> observedPositions;
  std::vector<std::int32_t> scoredPositions;

  bool empty() const noexcept { return documents.empty(); }
  std::size_t size() const noexcept { return documents.size(); }
};

struct CorpusSplit {
  Corpus train;
  std::vector<std::int64_t> trainDocuments;  // index in the full corpus of each training document
  HeldoutDocuments heldout;
};

// Each held-out document whole again (its observed half, then its scored half; time, label and
// metadata kept): the text from which a model predicts a document's response or labels (slda,
// labeled-lda) and from which the baselines beside it predict the same.
Corpus wholeHeldoutDocuments(const HeldoutDocuments& heldout);

// Holds out round(fraction * D) documents chosen at random among those with at least two tokens
// (a document needs a word to condition on and a word to score). Same seed, same split.
// fraction = 0 gives everything to training.
CorpusSplit splitForDocumentCompletion(const Corpus& corpus, double fraction, std::uint64_t seed);

// The held-out documents each of `processes` processes of a distributed fit scores at its
// evaluations: process q those in [ends[q - 1], ends[q]) (from 0 for q = 0), contiguous, each cut
// where the running count of tokens (both halves) reaches q/Q of the total. A process may get
// none when there are fewer documents than processes.
std::vector<std::int64_t> heldoutEndsOfProcesses(const HeldoutDocuments& heldout, int processes);

}  // namespace latent::core
