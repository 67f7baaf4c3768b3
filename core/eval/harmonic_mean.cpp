// SPDX-License-Identifier: GPL-3.0-or-later
// Harmonic-mean estimator with the log-sum-exp shift of 001 eq. 9.
#include "core/eval/harmonic_mean.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace latent::core {

double harmonicMeanLogEvidence(std::span<const double> logLikelihoods) noexcept {
  if (logLikelihoods.empty()) return std::numeric_limits<double>::quiet_NaN();
  const double t0 = *std::min_element(logLikelihoods.begin(), logLikelihoods.end());
  double sum = 0.0;
  for (const double t : logLikelihoods) sum += std::exp(t0 - t);  // every exponent <= 0
  return std::log(static_cast<double>(logLikelihoods.size())) - std::log(sum) + t0;
}

}  // namespace latent::core
