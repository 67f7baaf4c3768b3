// SPDX-License-Identifier: GPL-3.0-or-later
// Document completion for replicated softmax by Gibbs sampling of the unknown half.
#include "core/models/harmonium/rsm_completion.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>

#include "core/models/harmonium/replicated_softmax.hpp"

namespace latent::core::harmonium {

std::vector<double> rsmCompletionLogLikelihoods(const RbmParameters& p, const HeldoutDocuments& heldout,
                                                const RsmCompletionSettings& settings, std::uint64_t seed,
                                                std::stop_token stop) {
  const auto documents = heldout.size();
  std::vector<double> out(documents, 0.0);
  const Eigen::Index V = p.visible(), K = p.hidden();
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, documents, 1), [&](const auto& range) {
    Eigen::VectorXd observed(V), unknown(V), all(V), probabilities(V), predictive(V), hidden(K), activation(K);
    std::vector<double> cumulative;
    for (std::size_t i = range.begin(); i < range.end(); ++i) {
      if (stop.stop_requested()) return;
      const auto observedWords = heldout.observed.document(i);
      const auto scoredWords = heldout.scored.document(i);
      const auto unknownLength = static_cast<std::int64_t>(scoredWords.size());
      const auto length = static_cast<double>(observedWords.size() + scoredWords.size());
      Rng rng(seed, static_cast<std::uint64_t>(heldout.documents[i]));
      observed.setZero();
      for (const auto w : observedWords) observed[w] += 1.0;
      // The unknown positions start as draws from the visible biases alone.
      hidden.setZero();
      wordProbabilities(p, hidden, probabilities);
      sampleWordCounts(probabilities, unknownLength, rng, unknown, cumulative);
      predictive.setZero();
      for (int sweep = 0; sweep < settings.burnIn + settings.samples; ++sweep) {
        all = observed + unknown;
        activation.noalias() = p.weights.transpose() * all;
        activation += length * p.hiddenBias;
        for (Eigen::Index k = 0; k < K; ++k) hidden[k] = rng.uniform() < sigmoid(activation[k]) ? 1.0 : 0.0;
        wordProbabilities(p, hidden, probabilities);
        if (sweep >= settings.burnIn) predictive += probabilities;
        sampleWordCounts(probabilities, unknownLength, rng, unknown, cumulative);
      }
      predictive /= static_cast<double>(std::max(settings.samples, 1));
      double logLikelihood = 0.0;
      for (const auto w : scoredWords) logLikelihood += std::log(predictive[w]);
      out[i] = logLikelihood;
    }
  });
  if (stop.stop_requested()) return {};
  return out;
}

}  // namespace latent::core::harmonium
