// SPDX-License-Identifier: GPL-3.0-or-later
// An index drawn from a probability vector by walking its cumulative sum: how the tests' corpus
// generators draw a token's topic from its document's mixture and then its word from the topic.
#pragma once

#include "core/util/random.hpp"

namespace latent::test {

// Index k with probability p[k]; p sums to 1, and the last index takes what rounding leaves.
// `p` is any Eigen vector expression (a vector, or one row of a topic-word matrix).
template <typename Probabilities>
int drawIndex(core::Rng& rng, const Probabilities& p) {
  double u = rng.uniform();
  int k = 0;
  const auto n = static_cast<int>(p.size());
  while (k + 1 < n && (u -= p[k]) >= 0.0) ++k;
  return k;
}

}  // namespace latent::test
