// SPDX-License-Identifier: GPL-3.0-or-later
// Seeded held-out rows: shuffle the row indices with the split's own stream, take the first ones.
#include "core/eval/row_split.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <span>
#include <string>

#include "core/util/errors.hpp"
#include "core/util/random.hpp"

namespace latent::core {
namespace {
// A fixed stream number keeps the split independent of the model's own random streams.
constexpr std::uint64_t kRowStream = 0x484F4C44'524F5753ULL;  // "HOLDROWS"
}  // namespace

std::vector<std::int64_t> splitRows(std::size_t rowCount, double fraction, std::uint64_t seed) {
  if (!(fraction >= 0.0 && fraction < 1.0))
    throw UsageError("the held-out fraction must be at least 0 and below 1 (got " + std::to_string(fraction) + ")");
  if (fraction == 0.0 || rowCount < 2) return {};
  const auto wanted = std::min<std::size_t>(
      static_cast<std::size_t>(std::llround(fraction * static_cast<double>(rowCount))), rowCount - 1);
  std::vector<std::int64_t> order(rowCount);
  std::iota(order.begin(), order.end(), std::int64_t{0});
  Rng rng(seed, kRowStream);
  rng.shuffle(std::span<std::int64_t>(order));
  order.resize(wanted);
  std::sort(order.begin(), order.end());
  return order;
}

std::vector<std::int64_t> trainingRows(std::size_t rowCount, const std::vector<std::int64_t>& heldout) {
  std::vector<std::int64_t> train;
  train.reserve(rowCount - std::min(rowCount, heldout.size()));
  auto next = heldout.begin();
  for (std::size_t r = 0; r < rowCount; ++r) {
    const auto row = static_cast<std::int64_t>(r);
    if (next != heldout.end() && *next == row) {
      ++next;
      continue;
    }
    train.push_back(row);
  }
  return train;
}

}  // namespace latent::core
