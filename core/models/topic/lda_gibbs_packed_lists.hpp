// SPDX-License-Identifier: GPL-3.0-or-later
// The packed count lists of the exact LDA Gibbs samplers (lda_gibbs_sparse_kernel.hpp,
// lda_gibbs_wordwise_kernel.hpp): the topic counts of one word or one document as entries
// count << bits | topic, in min(K, its tokens) places, nonzero first and ended by a zero entry
// when not full. One entry holds a topic and its count in one load; kept in descending order, the
// largest counts come first, so that a draw's walk over them stops early.
#pragma once

#include <cassert>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "core/util/sparse_counts.hpp"

namespace latent::core::topic {

// The bits a topic index of `topics` topics takes.
inline int topicBits(int topics) {
  int bits = 1;
  while ((1LL << bits) < topics) ++bits;
  return bits;
}

// Whether counts up to `maxCount` fit in Packed beside the topic bits of `topics` topics.
template <typename Packed>
bool packedCountsFit(int topics, std::int64_t maxCount) {
  const int bits = topicBits(topics);
  return bits < static_cast<int>(sizeof(Packed) * 8) - 1 &&
         static_cast<double>(maxCount) < std::ldexp(1.0, static_cast<int>(sizeof(Packed) * 8) - bits);
}

// Adds one (`one` = 1 << bits) to entry j and lets it rise to keep the order; returns where it ends.
template <typename Packed>
std::size_t incrementAt(Packed* list, std::size_t j, Packed one) {
  list[j] += one;
  while (j > 0 && list[j - 1] < list[j]) {
    std::swap(list[j - 1], list[j]);
    --j;
  }
  return j;
}

// Takes one from entry j and lets it sink to keep the order; returns where it ends.
template <typename Packed>
std::size_t removeAt(Packed* list, std::size_t capacity, std::size_t j, Packed one) {
  list[j] -= one;
  if (list[j] < one) list[j] = 0;
  while (j + 1 < capacity && list[j + 1] > list[j]) {
    std::swap(list[j], list[j + 1]);
    ++j;
  }
  return j;
}

// Adds one token of `topic` to a list that has just lost one, so that a free place is left if the
// topic is new to it; returns where its entry ends.
template <typename Packed>
std::size_t addToList(Packed* list, std::size_t capacity, Packed topic, Packed mask, Packed one) {
  std::size_t j = 0;
  while (j < capacity && list[j] != 0 && (list[j] & mask) != topic) ++j;
  assert(j < capacity);
  if (list[j] == 0) list[j] = topic;
  return incrementAt(list, j, one);
}

// Writes `counts` into the list [first, end) in the order of its list of topics, ended by a zero
// entry when it does not fill it; returns one past the last entry written.
template <typename Packed>
Packed* packCounts(const SparseCounts& counts, Packed* first, Packed* end, int bits) {
  Packed* entry = first;
  for (const auto topic : counts.nonzero())
    *entry++ = (static_cast<Packed>(counts[static_cast<std::size_t>(topic)]) << bits) | static_cast<Packed>(topic);
  if (entry != end) *entry = 0;
  return entry;
}

// f(topic, count) for every nonzero entry of list[0, capacity).
template <typename Packed, typename F>
void forEachPackedCount(const Packed* list, std::size_t capacity, Packed mask, int bits, F&& f) {
  for (std::size_t j = 0; j < capacity && list[j] != 0; ++j)
    f(static_cast<std::int32_t>(list[j] & mask), static_cast<std::int64_t>(list[j] >> bits));
}

}  // namespace latent::core::topic
