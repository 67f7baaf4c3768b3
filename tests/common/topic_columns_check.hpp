// SPDX-License-Identifier: GPL-3.0-or-later
// Checks of a form of phi (core/eval/topic_columns.hpp) that tests of several suites share.
#pragma once

#include <cstdint>
#include <vector>

#include "core/eval/topic_columns.hpp"

namespace latent::test {

// True when `topics` says it is held as a fill and overrides and, for each of the first
// `vocabulary` words, the fill with the word's overrides written over it is its column to the bit.
inline bool fillAndOverridesAreTheColumns(const core::TopicColumns& topics, std::int32_t vocabulary) {
  const double* fill = topics.fill();
  if (fill == nullptr) return false;
  const auto K = static_cast<std::size_t>(topics.topics());
  std::vector<double> column(K), made(K);
  std::vector<core::TopicValue> overrides;
  for (std::int32_t w = 0; w < vocabulary; ++w) {
    topics.column(w, column.data());
    made.assign(fill, fill + K);
    topics.overrides(w, overrides);
    for (const auto& [k, value] : overrides) made[static_cast<std::size_t>(k)] = value;
    if (made != column) return false;
  }
  return true;
}

}  // namespace latent::test
