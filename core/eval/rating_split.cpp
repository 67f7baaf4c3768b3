// SPDX-License-Identifier: GPL-3.0-or-later
// Seeded held-out ratings that never leave a user or item without training data.
#include "core/eval/rating_split.hpp"

#include <cmath>
#include <numeric>
#include <string>

#include "core/util/errors.hpp"
#include "core/util/random.hpp"

namespace latent::core {
namespace {
constexpr std::uint64_t kRatingStream = 0x484F4C44'52415445ULL;  // "HOLDRATE"
}

RatingSplit splitRatings(const Ratings& ratings, double fraction, std::uint64_t seed) {
  if (!(fraction >= 0.0 && fraction < 1.0))
    throw UsageError("the held-out fraction must be at least 0 and below 1 (got " + std::to_string(fraction) + ")");
  const auto& all = ratings.ratings;
  std::vector<std::size_t> order(all.size());
  std::iota(order.begin(), order.end(), 0);
  Rng rng(seed, kRatingStream);
  rng.shuffle(std::span<std::size_t>(order));
  const auto wanted = static_cast<std::size_t>(std::llround(fraction * double(all.size())));

  // Count what each user and item keeps; a rating is held out only if both keep at least one.
  std::vector<std::int64_t> userLeft(ratings.userCount(), 0), itemLeft(ratings.itemCount(), 0);
  for (const auto& r : all) {
    ++userLeft[static_cast<std::size_t>(r.user)];
    ++itemLeft[static_cast<std::size_t>(r.item)];
  }
  std::vector<char> test(all.size(), 0);
  std::size_t taken = 0;
  for (std::size_t k = 0; k < order.size() && taken < wanted; ++k) {
    const auto& r = all[order[k]];
    auto& u = userLeft[static_cast<std::size_t>(r.user)];
    auto& i = itemLeft[static_cast<std::size_t>(r.item)];
    if (u <= 1 || i <= 1) continue;
    --u;
    --i;
    test[order[k]] = 1;
    ++taken;
  }
  RatingSplit split;
  split.train.reserve(all.size() - taken);
  split.test.reserve(taken);
  for (std::size_t k = 0; k < all.size(); ++k) (test[k] ? split.test : split.train).push_back(all[k]);
  return split;
}

double rootMeanSquaredError(std::span<const Rating> ratings, std::span<const double> predictions) {
  if (ratings.empty()) return 0.0;
  double sum = 0.0;
  for (std::size_t k = 0; k < ratings.size(); ++k) {
    const double e = ratings[k].value - predictions[k];
    sum += e * e;
  }
  return std::sqrt(sum / double(ratings.size()));
}

}  // namespace latent::core
