// SPDX-License-Identifier: GPL-3.0-or-later
// A seeded low-rank rating generator with biases and Gaussian noise.
#include "core/models/ratings/pmf_synthetic.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/util/errors.hpp"
#include "core/util/random.hpp"

namespace latent::core::pmf {

SyntheticRatings generateLowRankRatings(const SyntheticRatingsSpec& spec, std::uint64_t seed) {
  const std::int64_t cells = std::int64_t{spec.users} * spec.items;
  if (spec.users <= 0 || spec.items <= 0 || spec.ratings < 0 || spec.ratings > cells)
    throw UsageError("cannot draw " + std::to_string(spec.ratings) + " distinct ratings from " +
                     std::to_string(spec.users) + " users and " + std::to_string(spec.items) + " items");
  Rng rng(seed);
  SyntheticRatings s;
  s.mean = spec.mean;
  const int K = std::max(spec.factors, 0);
  // Var(u . v) = K sd^4 for independent N(0, sd^2) entries.
  const double factorSd = K > 0 ? std::sqrt(spec.interactionSd / std::sqrt(double(K))) : 0.0;
  s.userFactors.resize(spec.users, K);
  s.itemFactors.resize(spec.items, K);
  s.userBias.resize(spec.users);
  s.itemBias.resize(spec.items);
  for (std::int32_t u = 0; u < spec.users; ++u) {
    for (int k = 0; k < K; ++k) s.userFactors(u, k) = factorSd * rng.normal();
    s.userBias(u) = spec.biasSd * rng.normal();
  }
  for (std::int32_t i = 0; i < spec.items; ++i) {
    for (int k = 0; k < K; ++k) s.itemFactors(i, k) = factorSd * rng.normal();
    s.itemBias(i) = spec.biasSd * rng.normal();
  }

  // Distinct cells: draw with replacement in rounds, keep the first occurrence of each cell.
  std::vector<std::int64_t> chosen;
  std::vector<char> taken(static_cast<std::size_t>(cells), 0);
  chosen.reserve(static_cast<std::size_t>(spec.ratings));
  while (static_cast<std::int64_t>(chosen.size()) < spec.ratings) {
    const auto cell = static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(cells)));
    if (taken[static_cast<std::size_t>(cell)]) continue;
    taken[static_cast<std::size_t>(cell)] = 1;
    chosen.push_back(cell);
  }
  auto& r = s.ratings;
  for (std::int32_t u = 0; u < spec.users; ++u) r.userIds.push_back("u" + std::to_string(u + 1));
  for (std::int32_t i = 0; i < spec.items; ++i) r.itemIds.push_back("i" + std::to_string(i + 1));
  r.itemNames = r.itemIds;
  r.ratings.reserve(chosen.size());
  for (const auto cell : chosen) {
    const auto u = static_cast<std::int32_t>(cell / spec.items);
    const auto i = static_cast<std::int32_t>(cell % spec.items);
    r.ratings.push_back({u, i, s.truth(u, i) + spec.noiseSd * rng.normal(), 0});
  }
  return s;
}

}  // namespace latent::core::pmf
