// SPDX-License-Identifier: GPL-3.0-or-later
// The left-to-right estimate of a held-out document's probability under LDA with fixed topics
// (Wallach, Murray, Salakhutdinov & Mimno 2009, "Evaluation methods for topic models", Alg. 3).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stop_token>

#include <Eigen/Core>

#include "core/eval/heldout.hpp"
#include "core/eval/topic_columns.hpp"
#include "core/util/random.hpp"

namespace latent::core {

// log p(w | Phi, alpha) of one document by Algorithm 3 with R particles: for each position n,
// every particle first resamples the topics of positions 1..n-1 given each other, then adds
// p(w_n | z_<n) = sum_t phi_{t,w_n} (N_t^{<n} + alpha_t) / (n - 1 + alpha_0) to the average,
// then samples z_n. One step is added to the published algorithm: after each position the
// particles are resampled in proportion to p(w_n | z_<n), which makes it a resample-move particle
// filter whose estimate converges to the exact value as R grows (without it, it does not: see
// left_to_right.cpp). Cost O(N^2 R K) for N tokens and K topics; topicWord is K x V (rows sum to
// one), alpha has K entries.
//
// The same pass estimates document completion: the sum of log p(w_n | w_<n) over the positions
// n >= conditionedOn is log p(w_{>=m} | w_{<m}) for m = conditionedOn (Wallach et al. 2009, §4.3),
// the quantity that fold-in estimators of held-out perplexity approximate with a point estimate
// of the document's topic mixture. Both are NaN when `stop` is requested midway.
struct LeftToRightEstimate {
  double logLikelihood = 0.0;            // log p(w)
  double completionLogLikelihood = 0.0;  // log p(w_{>=conditionedOn} | w_{<conditionedOn})
};
LeftToRightEstimate leftToRightLogLikelihood(std::span<const std::int32_t> words, const Eigen::MatrixXd& topicWord,
                                             const Eigen::VectorXd& alpha, int particles, Rng& rng,
                                             std::size_t conditionedOn = 0, std::stop_token stop = {});

struct LeftToRightScore {
  double logLikelihood = 0.0;  // sum over the documents scored
  double perplexity = 0.0;     // per token: exp(-logLikelihood / tokens)
  std::int64_t documents = 0;
  std::int64_t tokens = 0;
  // Document completion of the same documents: log p(scored half | observed half), summed, and
  // its perplexity per scored token, the quantity heldout_perplexity estimates by fold-in.
  double completionLogLikelihood = 0.0;
  double completionPerplexity = 0.0;
  std::int64_t completionTokens = 0;
  bool complete = true;  // false when stopped before every document was scored
};

// Scores the first `maxDocuments` held-out documents whole (observed and scored halves together:
// the estimator needs no document-completion split), and their scored halves given the observed
// ones (the observed half goes first in the sequence). Parallel over documents (oneTBB), each with
// its own stream Rng(seed, full-corpus index), so the result does not depend on the thread count.
LeftToRightScore leftToRightHeldout(const HeldoutDocuments& heldout, const Eigen::MatrixXd& topicWord,
                                    const Eigen::VectorXd& alpha, int particles, std::size_t maxDocuments,
                                    std::uint64_t seed, std::stop_token stop = {});
// The same over phi held as floats (NamedMatrix::floats): the estimate of phi widened to doubles.
LeftToRightScore leftToRightHeldout(const HeldoutDocuments& heldout, const Eigen::MatrixXf& topicWord,
                                    const Eigen::VectorXd& alpha, int particles, std::size_t maxDocuments,
                                    std::uint64_t seed, std::stop_token stop = {});
// The same over phi read a column at a time (eval/topic_columns.hpp), with no dense K x V: the
// estimate of the dense phi those columns make, to the bit.
LeftToRightScore leftToRightHeldout(const HeldoutDocuments& heldout, const TopicColumns& topicWord,
                                    const Eigen::VectorXd& alpha, int particles, std::size_t maxDocuments,
                                    std::uint64_t seed, std::stop_token stop = {});

}  // namespace latent::core
