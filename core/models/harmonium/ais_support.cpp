// SPDX-License-Identifier: GPL-3.0-or-later
// AIS's schedule of temperatures and its estimate from the importance weights (Salakhutdinov &
// Murray 2008, §4).
#include "core/models/harmonium/ais_support.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace latent::core::harmonium {

std::vector<double> aisTemperatures(Eigen::Index temperatures) {
  const Eigen::Index T = std::max<Eigen::Index>(temperatures, 3);
  const auto first = std::max<Eigen::Index>(1, T * 500 / 14500);
  const auto second = std::max<Eigen::Index>(1, T * 4000 / 14500);
  const Eigen::Index third = T - first - second;
  std::vector<double> betas;
  betas.reserve(static_cast<std::size_t>(T + 1));
  auto stretch = [&](double from, double to, Eigen::Index steps) {
    for (Eigen::Index i = 0; i < steps; ++i)
      betas.push_back(from + (to - from) * static_cast<double>(i) / static_cast<double>(steps));
  };
  stretch(0.0, 0.5, first);
  stretch(0.5, 0.9, second);
  stretch(0.9, 1.0, third);
  betas.push_back(1.0);
  return betas;
}

AisEstimate aisEstimate(double logBasePartition, std::span<const double> logWeights, Eigen::Index temperatures) {
  const auto M = static_cast<Eigen::Index>(logWeights.size());
  // log mean w and the standard error of the mean, on a common scale.
  const double top = *std::max_element(logWeights.begin(), logWeights.end());
  double mean = 0.0;
  for (double lw : logWeights) mean += std::exp(lw - top);
  mean /= static_cast<double>(M);
  double variance = 0.0;
  for (double lw : logWeights) variance += (std::exp(lw - top) - mean) * (std::exp(lw - top) - mean);
  variance = M > 1 ? variance / static_cast<double>(M - 1) : 0.0;
  const double spread = 3.0 * std::sqrt(variance / static_cast<double>(M));

  AisEstimate estimate;
  estimate.logPartition = logBasePartition + top + std::log(mean);
  estimate.low =
      mean > spread ? logBasePartition + top + std::log(mean - spread) : -std::numeric_limits<double>::infinity();
  estimate.high = logBasePartition + top + std::log(mean + spread);
  estimate.particles = M;
  estimate.temperatures = temperatures;
  return estimate;
}

}  // namespace latent::core::harmonium
