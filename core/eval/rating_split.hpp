// SPDX-License-Identifier: GPL-3.0-or-later
// Held-out ratings for matrix factorisation (DESIGN §6 `--heldout F` on ratings; 000 eq. 27.84).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/data/ratings.hpp"

namespace latent::core {

struct RatingSplit {
  std::vector<Rating> train;
  std::vector<Rating> test;
};

// A seeded random fraction of the ratings is held out. Ratings of users or items that would be
// left with no training rating stay in training (a cold-start user cannot be scored fairly; the
// fold-in of new users is a separate function). Same seed, same split.
RatingSplit splitRatings(const Ratings& ratings, double fraction, std::uint64_t seed);

// Root mean squared error of predictions against the ratings' values.
double rootMeanSquaredError(std::span<const Rating> ratings, std::span<const double> predictions);

}  // namespace latent::core
