// SPDX-License-Identifier: GPL-3.0-or-later
// Walker's alias method (Vose's construction): O(n) to build, O(1) to draw from a discrete distribution.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/util/random.hpp"

namespace latent::core::topic {

// One slot of an alias table over topics: with probability `keep` the draw is `topic`, otherwise
// `alias`. Topics are stored in the slot itself so that a draw reads one slot and nothing else.
struct AliasSlot {
  double keep = 1.0;
  std::int32_t topic = 0;
  std::int32_t alias = 0;
};

// Builds the table for weights[j] >= 0 (not all zero) of outcomes topics[j] into slots[0, n)
// (Vose 1991). `small` and `large` are scratch of at least n entries, passed in so that building
// thousands of per-word tables allocates nothing. The table is exact up to rounding: outcome
// topics[j] comes out with probability weights[j] / sum(weights). Returns sum(weights).
inline double buildAliasSlots(std::span<const double> weights, std::span<const std::int32_t> topics, AliasSlot* slots,
                              std::int32_t* small, std::int32_t* large) {
  const auto n = static_cast<std::int32_t>(weights.size());
  double total = 0.0;
  for (const double w : weights) total += w;
  if (n == 0) return 0.0;
  const double scale = static_cast<double>(n) / total;
  std::int32_t nSmall = 0, nLarge = 0;
  for (std::int32_t j = 0; j < n; ++j) {
    slots[j].keep = weights[static_cast<std::size_t>(j)] * scale;
    slots[j].topic = topics[static_cast<std::size_t>(j)];
    slots[j].alias = topics[static_cast<std::size_t>(j)];
    (slots[j].keep < 1.0 ? small[nSmall++] : large[nLarge++]) = j;
  }
  while (nSmall > 0 && nLarge > 0) {
    const std::int32_t s = small[--nSmall];
    const std::int32_t l = large[nLarge - 1];
    slots[s].alias = slots[l].topic;
    slots[l].keep -= 1.0 - slots[s].keep;
    if (slots[l].keep < 1.0) {
      --nLarge;
      small[nSmall++] = l;
    }
  }
  // What is left is 1 up to rounding: keep it whole.
  while (nLarge > 0) slots[large[--nLarge]].keep = 1.0;
  while (nSmall > 0) slots[small[--nSmall]].keep = 1.0;
  return total;
}

inline std::int32_t drawAlias(const AliasSlot* slots, std::uint64_t n, Rng& rng) noexcept {
  const AliasSlot& slot = slots[rng.below(n)];
  return rng.uniform() < slot.keep ? slot.topic : slot.alias;
}

// An alias table that owns its slots, over outcomes 0..n-1.
class AliasTable {
 public:
  AliasTable() = default;
  explicit AliasTable(std::span<const double> weights) { build(weights); }

  double build(std::span<const double> weights) {
    const auto n = weights.size();
    m_slots.resize(n);
    m_topics.resize(n);
    m_small.resize(n);
    m_large.resize(n);
    for (std::size_t j = 0; j < n; ++j) m_topics[j] = static_cast<std::int32_t>(j);
    m_total = buildAliasSlots(weights, m_topics, m_slots.data(), m_small.data(), m_large.data());
    return m_total;
  }
  std::int32_t draw(Rng& rng) const noexcept { return drawAlias(m_slots.data(), m_slots.size(), rng); }
  double total() const noexcept { return m_total; }
  std::size_t size() const noexcept { return m_slots.size(); }

 private:
  std::vector<AliasSlot> m_slots;
  std::vector<std::int32_t> m_topics, m_small, m_large;
  double m_total = 0.0;
};

}  // namespace latent::core::topic
