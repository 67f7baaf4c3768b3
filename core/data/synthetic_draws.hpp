// SPDX-License-Identifier: GPL-3.0-or-later
// The two draws every corpus generator makes (synthetic_*.cpp): an index from an unnormalised
// discrete distribution, and a document length from a Poisson.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include <Eigen/Core>

#include "core/util/random.hpp"

namespace latent::core {

// Inverse-CDF draw from an unnormalised discrete distribution.
inline std::int32_t drawDiscrete(Rng& rng, const Eigen::Ref<const Eigen::VectorXd>& p) {
  double u = rng.uniform() * p.sum();
  for (Eigen::Index i = 0; i + 1 < p.size(); ++i) {
    u -= p[i];
    if (u <= 0.0) return static_cast<std::int32_t>(i);
  }
  return static_cast<std::int32_t>(p.size() - 1);
}

// Poisson(mean) by Knuth's method for small means and a rounded normal beyond 500.
inline int drawPoisson(Rng& rng, double mean) {
  if (mean > 500) return std::max(0, static_cast<int>(std::lround(mean + std::sqrt(mean) * rng.normal())));
  const double limit = std::exp(-mean);
  int k = 0;
  for (double p = rng.uniform(); p > limit; p *= rng.uniform()) ++k;
  return k;
}

}  // namespace latent::core
