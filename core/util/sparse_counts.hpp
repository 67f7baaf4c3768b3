// SPDX-License-Identifier: GPL-3.0-or-later
// Counts over outcomes 0..K-1 that also keep the list of the outcomes whose count is nonzero,
// so that a loop over them costs what is there rather than K (a document's topics in the Gibbs
// samplers and fold-ins).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace latent::core {

class SparseCounts {
 public:
  SparseCounts() = default;
  explicit SparseCounts(std::size_t outcomes) { reset(outcomes); }

  // All counts zero over `outcomes` outcomes.
  void reset(std::size_t outcomes) {
    m_counts.assign(outcomes, 0);
    m_position.resize(outcomes);
    m_nonzero.resize(outcomes);  // room for every outcome: add never allocates
    m_size = 0;
  }

  std::int32_t operator[](std::size_t k) const noexcept { return m_counts[k]; }

  // count[k] += delta (the count stays >= 0). An outcome that becomes nonzero is appended to the
  // list; one that becomes zero takes the last entry's place.
  [[gnu::always_inline]] void add(std::size_t k, std::int32_t delta) noexcept {
    const std::int32_t before = m_counts[k];
    m_counts[k] = before + delta;
    if (before == 0) {
      m_position[k] = static_cast<std::int32_t>(m_size);
      m_nonzero[m_size++] = static_cast<std::int32_t>(k);
    } else if (m_counts[k] == 0) {
      const auto at = static_cast<std::size_t>(m_position[k]);
      m_nonzero[at] = m_nonzero[--m_size];
      m_position[static_cast<std::size_t>(m_nonzero[at])] = static_cast<std::int32_t>(at);
    }
  }

  // The outcomes with a nonzero count, in the order the list keeps them.
  std::span<const std::int32_t> nonzero() const noexcept { return {m_nonzero.data(), m_size}; }

  // All counts back to zero, in time proportional to the nonzero ones.
  void clear() noexcept {
    for (const auto k : nonzero()) m_counts[static_cast<std::size_t>(k)] = 0;
    m_size = 0;
  }

 private:
  std::vector<std::int32_t> m_counts, m_position, m_nonzero;  // m_nonzero[0, m_size): the list
  std::size_t m_size = 0;
};

}  // namespace latent::core
