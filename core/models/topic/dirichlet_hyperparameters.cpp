// SPDX-License-Identifier: GPL-3.0-or-later
// Fixed-point and Newton updates of Dirichlet hyperparameters (Minka 2000; Wallach 2008).
#include "core/models/topic/dirichlet_hyperparameters.hpp"

#include <algorithm>
#include <cmath>

#include "core/util/special_functions.hpp"

namespace latent::core {
namespace {

// The weak Gamma(shape, scale) prior on each alpha_k.
constexpr double kShape = 1.001;
constexpr double kScale = 1.0;
constexpr double kTolerance = 1e-6;

// sum_c histogram[c] * (psi(c + a) - psi(a)), with psi(c + a) - psi(a) = sum_{i<c} 1/(a + i).
double digammaDifferenceSum(const std::vector<std::int64_t>& histogram, double a) {
  double total = 0.0, running = 0.0;
  for (std::size_t c = 1; c < histogram.size(); ++c) {
    running += 1.0 / (a + static_cast<double>(c) - 1.0);
    if (histogram[c] != 0) total += static_cast<double>(histogram[c]) * running;
  }
  return total;
}

}  // namespace

int optimizeAsymmetricAlpha(Eigen::VectorXd& alpha, const DocumentTopicHistograms& histograms, int maxIterations) {
  const auto K = alpha.size();
  for (int iteration = 1; iteration <= maxIterations; ++iteration) {
    const double alpha0 = alpha.sum();
    const double denominator = digammaDifferenceSum(histograms.length, alpha0) + 1.0 / kScale;
    double largestChange = 0.0;
    for (Eigen::Index k = 0; k < K; ++k) {
      const double old = alpha[k];
      const auto& h = histograms.topic[static_cast<std::size_t>(k)];
      const double numerator = old * digammaDifferenceSum(h, old) + (kShape - 1.0);
      alpha[k] = std::max(numerator / denominator, 1e-10);
      largestChange = std::max(largestChange, std::abs(alpha[k] - old) / old);
    }
    if (largestChange < kTolerance) return iteration;
  }
  return maxIterations;
}

double optimizeSymmetricBeta(double beta, std::int64_t vocabularySize, const TopicWordHistograms& histograms,
                             int maxIterations) {
  const auto V = static_cast<double>(vocabularySize);
  for (int iteration = 0; iteration < maxIterations; ++iteration) {
    const double numerator = digammaDifferenceSum(histograms.count, beta);
    const double denominator = V * digammaDifferenceSum(histograms.topicSize, V * beta);
    if (!(denominator > 0.0) || !(numerator > 0.0)) break;
    const double updated = beta * numerator / denominator;
    const bool done = std::abs(updated - beta) / beta < kTolerance;
    beta = updated;
    if (done) break;
  }
  return beta;
}

int optimizeAlphaFromMeanLog(Eigen::VectorXd& alpha, const Eigen::VectorXd& meanLogTheta, int maxIterations) {
  for (int iteration = 1; iteration <= maxIterations; ++iteration) {
    const double psiSum = digamma(alpha.sum());
    double largestChange = 0.0;
    for (Eigen::Index k = 0; k < alpha.size(); ++k) {
      const double updated = std::max(inverseDigamma(psiSum + meanLogTheta[k]), 1e-10);
      largestChange = std::max(largestChange, std::abs(updated - alpha[k]) / alpha[k]);
      alpha[k] = updated;
    }
    if (largestChange < kTolerance) return iteration;
  }
  return maxIterations;
}

double optimizeSymmetricEtaFromLog(double eta, std::int64_t topics, std::int64_t vocabularySize, double sumLogBeta,
                                   int maxIterations) {
  const auto K = static_cast<double>(topics), V = static_cast<double>(vocabularySize);
  double logEta = std::log(eta);
  for (int iteration = 0; iteration < maxIterations; ++iteration) {
    const double e = std::exp(logEta);
    // d/d eta and d2/d eta2 of K lgamma(V e) - K V lgamma(e) + (e - 1) S.
    const double g = K * V * (digamma(V * e) - digamma(e)) + sumLogBeta;
    const double h = K * V * (V * trigamma(V * e) - trigamma(e));
    // Newton on log eta: d/dlog = e g, d2/dlog2 = e^2 h + e g.
    const double gradient = e * g;
    const double curvature = e * e * h + e * g;
    if (!(curvature < 0.0)) break;  // not concave here: keep the current value
    const double step = gradient / curvature;
    logEta -= std::clamp(step, -2.0, 2.0);
    if (std::abs(step) < kTolerance) break;
  }
  return std::exp(logEta);
}

}  // namespace latent::core
