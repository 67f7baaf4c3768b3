// SPDX-License-Identifier: GPL-3.0-or-later
// A replicated softmax with random parameters, for the tests that check its sums and samplers
// against enumeration.
#pragma once

#include <cstdint>

#include "core/models/harmonium/binary_rbm.hpp"
#include "core/util/random.hpp"

namespace latent::test {

// W ~ N(0, scale^2), b ~ N(0, 0.25), c ~ N(0, 0.09), drawn in that order from stream 0 of `seed`.
inline core::harmonium::RbmParameters randomRsm(Eigen::Index words, Eigen::Index hidden, double scale,
                                                std::uint64_t seed) {
  core::Rng rng(seed);
  core::harmonium::RbmParameters p(words, hidden);
  for (Eigen::Index w = 0; w < words; ++w)
    for (Eigen::Index k = 0; k < hidden; ++k) p.weights(w, k) = scale * rng.normal();
  for (Eigen::Index w = 0; w < words; ++w) p.visibleBias[w] = 0.5 * rng.normal();
  for (Eigen::Index k = 0; k < hidden; ++k) p.hiddenBias[k] = 0.3 * rng.normal();
  return p;
}

}  // namespace latent::test
