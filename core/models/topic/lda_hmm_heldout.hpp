// SPDX-License-Identifier: GPL-3.0-or-later
// Held-out perplexity of LDA-HMM by document completion (003; 000 eq. 27.29) with the class chain
// included: a held-out document's topic mixture is folded in from its observed half, in place in
// the word sequence, and its scored half is scored by the forward algorithm over the classes.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <Eigen/Core>

#include "core/eval/heldout.hpp"
#include "core/eval/topic_evaluation.hpp"

namespace latent::core::topic {

// The point estimates a held-out document is scored under (000 eq. 27.61-27.64).
struct LdaHmmParameters {
  Eigen::MatrixXd topicWord;    // K x V, B^LDA
  Eigen::MatrixXd classWord;    // C x V, B^HMM (row 0 is not read: class 0 emits from the topics)
  Eigen::MatrixXd transitions;  // C x C, A^HMM
  Eigen::VectorXd start;        // C, the first token's class
  double alpha = 0.1;           // symmetric prior on theta
};

// A held-out document put back in order: each position's word and whether the model may fit to
// it (`given`) and whether it is scored (`target`).
struct LdaHmmSequence {
  std::vector<std::int32_t> words;
  std::vector<char> given;
  std::vector<char> target;
};

// Held-out document i of `heldout` in document order (from its halves' positions; without them,
// the observed half then the scored half). Document completion gives the observed half and scores
// the scored half; full folding-in gives and scores every word.
void heldoutSequence(const HeldoutDocuments& heldout, std::size_t i, HeldoutProtocol protocol, LdaHmmSequence& out);

// theta of a document from its given words with the parameters fixed: collapsed Gibbs sweeps over
// every position's class (and the topic of each given word in class 0), theta_k = (m_k + alpha) /
// (m + K alpha) averaged over the sweeps after burn-in, m_k counting the given class-0 words of
// topic k. A position that is not given has no word: its class follows the transitions alone, and
// the topics of words outside class 0 (or not given) are integrated out, as they tell nothing of
// theta. `seed` is the document's own, so the result does not depend on the thread.
void foldInSequence(const LdaHmmParameters& parameters, const LdaHmmSequence& sequence, std::uint64_t seed,
                    Eigen::Ref<Eigen::VectorXd> theta, int sweeps = 50, int burnIn = 20);

// log p(target words | given words that are not targets, theta) under the HMM: log F(given and
// target) - log F(given but not target),
// each the likelihood by the forward algorithm (Rabiner 1989, "A tutorial on hidden Markov
// models") with emissions theta . phi_w for class 0
// and psi_cw for class c > 0, and 1 at positions whose word is not counted.
double logPredictiveSequence(const LdaHmmParameters& parameters, const LdaHmmSequence& sequence,
                             const Eigen::Ref<const Eigen::VectorXd>& theta);

// Scores every held-out document: the fold-in on the given words, then the predictive of the
// target words. Under full folding-in that is the probability of the whole word sequence, which can
// come out above document completion's: there each scored word is predicted from its observed
// neighbours as well, which in an HMM outweighs the optimism of fitting theta to the scored words
// (003's finding concerns theta alone). Parallel over documents; the result does not depend on the thread count.
TopicHeldoutScore scoreLdaHmmHeldout(const HeldoutDocuments& heldout, const LdaHmmParameters& parameters,
                                     HeldoutProtocol protocol, std::uint64_t seed);

// Each held-out document's theta folded in from all its words (its rows of doc_topic), in the
// order of `heldout`.
Eigen::MatrixXd foldInHeldoutDocuments(const HeldoutDocuments& heldout, const LdaHmmParameters& parameters,
                                       std::uint64_t seed);

}  // namespace latent::core::topic
