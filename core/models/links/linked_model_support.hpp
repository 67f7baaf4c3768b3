// SPDX-License-Identifier: GPL-3.0-or-later
// What the models of linked documents (link-lda, lda-mmsb) share around their samplers: the
// options every one of them has, posterior means averaged over the last sweeps, and the link part
// of their results (DESIGN §6): held-out link scores, the most likely new links and the baselines.
#pragma once

#include <cstdint>
#include <stop_token>

#include <Eigen/Core>

#include "core/eval/link_prediction.hpp"
#include "core/models/model.hpp"
#include "core/models/option_specs.hpp"

namespace latent::core::links {

OptionSpec baselinesOption();  // "baselines"

// The running mean of a matrix over the sweeps of the last part of a chain.
class RunningMean {
 public:
  void add(const Eigen::MatrixXd& sample) {
    if (m_samples == 0)
      m_sum = sample;
    else
      m_sum += sample;
    ++m_samples;
  }
  bool empty() const noexcept { return m_samples == 0; }
  std::int64_t samples() const noexcept { return m_samples; }
  Eigen::MatrixXd mean() const { return m_sum / static_cast<double>(m_samples); }

 private:
  Eigen::MatrixXd m_sum;
  std::int64_t m_samples = 0;
};

// The first iteration whose sample is averaged into the results: the last fifth of the chain (as
// lda-gibbs and labeled-lda do for topic_word).
inline std::int64_t averagingStart(std::int64_t iterations) {
  return iterations - std::max<std::int64_t>(1, iterations / 5) + 1;
}

// The held-out documents' rows of a doc_topic in full-corpus order (FitData::heldout order);
// empty when nothing is held out.
Eigen::MatrixXd heldoutRows(const Eigen::MatrixXd& fullDocTopic, const FitData& data);

// Scores the hidden pairs with `trainPair` and, when there are held-out documents, their pairs
// with `newPair` (held-out index, training index), writes the final-line keys (addLinkMetrics),
// and stores "predicted_links" (every training document's 10 most likely new links).
void addLinkResults(FitResult& result, const FitData& data, const PairScore& trainPair, const PairScore& newPair);

// The LDA-cosine and MMSB baselines on the same pairs (link_baselines.hpp), K as the model's,
// min(iterations, 200) sweeps, and their time as baseline_seconds. Sets the result Cancelled when
// a stop came during them.
void addLinkBaselines(FitResult& result, const FitData& data, std::int64_t topics, std::int64_t iterations,
                      const FitSettings& settings, std::stop_token stop);

}  // namespace latent::core::links
