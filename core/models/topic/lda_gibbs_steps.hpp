// SPDX-License-Identifier: GPL-3.0-or-later
// What lda-gibbs does to a sampler kernel between sweeps, in the chain and in the restarts alike:
// make its table current, re-estimate alpha and beta, and compute the log joint.
#pragma once

#include <cstdint>
#include <vector>

#include <Eigen/Core>

#include "core/models/topic/dirichlet_hyperparameters.hpp"
#include "core/models/topic/lda_gibbs.hpp"
#include "core/models/topic/lda_gibbs_distribution.hpp"
#include "core/models/topic/lda_gibbs_state.hpp"

namespace latent::core::topic {

// Makes the whole table current on this process of a distributed chain (the sparse and wordwise
// kernels' synchronize), and with `assignments` the state's assignments: the wordwise kernel keeps
// the tokens' topics in its own order, and process 0 of a distributed chain gathers the others'.
template <typename Kernel>
void synchronizeState(Kernel& kernel, bool assignments) {
  if constexpr (requires { kernel.synchronize(assignments); }) kernel.synchronize(assignments);
}

// count[c]: how many (topic, word) pairs hold exactly c tokens.
template <typename Kernel>
std::vector<std::int64_t> countHistogram(const Kernel& kernel, const LdaGibbsState& state) {
  std::vector<std::int64_t> histogram(static_cast<std::size_t>(state.maxWordFrequency()) + 1, 0);
  for (int w = 0; w < state.vocabularySize(); ++w)
    kernel.forEachTopicOfWord(static_cast<std::size_t>(w),
                              [&](std::int32_t, std::int64_t c) { ++histogram[static_cast<std::size_t>(c)]; });
  while (histogram.size() > 1 && histogram.back() == 0) histogram.pop_back();
  return histogram;
}

// The hyperparameters (MALLET's --optimize-interval): an asymmetric alpha from the histograms of
// n_dk and of document lengths, then a symmetric beta from those of n_kw and n_k. `histogram` is
// countHistogram's, when the caller has it already (else empty).
template <typename Kernel>
void reestimateHyperparameters(const Kernel& kernel, LdaGibbsState& state, std::vector<std::int64_t> histogram) {
  Eigen::VectorXd alpha = state.alphaVector();
  // A distributed kernel sums them over its processes, the wordwise kernel writes the state's
  // assignments first; the others' states hold every document as it is.
  if constexpr (requires { kernel.documentTopicHistograms(); })
    optimizeAsymmetricAlpha(alpha, kernel.documentTopicHistograms());
  else
    optimizeAsymmetricAlpha(alpha, state.documentTopicHistograms());
  state.setAlpha(alpha);
  if (histogram.empty()) histogram = countHistogram(kernel, state);
  state.setBeta(optimizeSymmetricBeta(state.beta(), state.vocabularySize(),
                                      topic::topicWordHistograms(histogram, kernel.topicTotals())));
}

// True when the hyperparameters are re-estimated after sweep `sweep` (counted from the random
// start, warm-up included).
inline bool hyperparametersDue(const LdaGibbsOptions& options, std::int64_t sweep) {
  return options.optimizeEvery > 0 && sweep > options.optimizeBurnIn && sweep % options.optimizeEvery == 0;
}

// log P(W, Z | alpha, beta) (001 eq. 3) after a sweep that was asked for the prior's parts.
template <typename Kernel>
double logJoint(const Kernel& kernel, const LdaGibbsState& state, const std::vector<double>& logPriorParts) {
  const auto histogram = countHistogram(kernel, state);
  double value = topic::logLikelihoodOfWords(topic::topicWordHistograms(histogram, kernel.topicTotals()),
                                             kernel.topicTotals(), state.beta(), state.vocabularySize());
  for (const double part : logPriorParts) value += part;  // partition order
  return value;
}

}  // namespace latent::core::topic
