// SPDX-License-Identifier: GPL-3.0-or-later
// Ratings drawn from a known pmf (000 eq. 27.93 with Gaussian noise), for the evidence tests and
// the speed benchmark.
#pragma once

#include <cstdint>

#include <Eigen/Core>

#include "core/data/ratings.hpp"

namespace latent::core::pmf {

struct SyntheticRatingsSpec {
  std::int32_t users = 2000;
  std::int32_t items = 1000;
  std::int64_t ratings = 100000;  // distinct (user, item) cells, uniformly at random
  int factors = 5;
  double mean = 3.5;
  double biasSd = 0.3;         // b_u, b_i ~ N(0, biasSd^2)
  double interactionSd = 1.0;  // u_u . v_i has this standard deviation: u, v ~ N(0, interactionSd / sqrt(K))
  double noiseSd = 0.5;        // r = mu + b_u + b_i + u . v + N(0, noiseSd^2), not rounded or clipped
};

struct SyntheticRatings {
  Ratings ratings;              // ids "u1".., "i1"..
  Eigen::MatrixXd userFactors;  // users x K
  Eigen::MatrixXd itemFactors;  // items x K
  Eigen::VectorXd userBias, itemBias;
  double mean = 0.0;
  double truth(std::int32_t u, std::int32_t i) const {  // the noiseless rating
    return mean + userBias(u) + itemBias(i) + userFactors.row(u).dot(itemFactors.row(i));
  }
};

// Same spec and seed, same ratings. Throws UsageError when more cells are asked than exist.
SyntheticRatings generateLowRankRatings(const SyntheticRatingsSpec& spec, std::uint64_t seed);

}  // namespace latent::core::pmf
