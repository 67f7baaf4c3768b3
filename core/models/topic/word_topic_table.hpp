// SPDX-License-Identifier: GPL-3.0-or-later
// Word-topic counts n_wk with O(1) lookup by topic: a dense row for frequent words and a small
// open-addressing hash table for the rest (the hybrid layout of LightLDA, Yuan et al. 2015 §4).
#pragma once

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

namespace latent::core::topic {

// Where each word's cells live and how they are organised. Copies of a table share it.
struct WordTopicLayout {
  int topics = 0;
  std::vector<std::int64_t> offset;        // word w: cells [offset[w], offset[w + 1])
  std::vector<std::uint8_t> log2Capacity;  // 0: a dense row of K counts; else hash slots = 2^this

  // A word with f tokens holds at most m = min(f, K) nonzero counts. It gets a hash table of
  // 2^b >= 2m slots (load at most one half, so probes stay short and it can never fill), or a
  // dense row when K is no more than the hash table's two cells per slot would take anyway.
  static std::shared_ptr<const WordTopicLayout> make(int topics, const std::vector<std::int64_t>& frequency) {
    auto layout = std::make_shared<WordTopicLayout>();
    layout->topics = topics;
    const std::size_t V = frequency.size();
    layout->offset.assign(V + 1, 0);
    layout->log2Capacity.assign(V, 0);
    for (std::size_t w = 0; w < V; ++w) {
      const std::int64_t m = std::min<std::int64_t>(frequency[w], topics);
      std::uint8_t b = 1;
      while ((std::int64_t{1} << b) < 2 * m) ++b;
      const std::int64_t hashCells = 2 * (std::int64_t{1} << b);
      std::int64_t cells = hashCells;
      if (topics <= hashCells) {
        b = 0;
        cells = topics;
      }
      layout->log2Capacity[w] = b;
      layout->offset[w + 1] = layout->offset[w] + cells;
    }
    return layout;
  }
};

class WordTopicTable {
 public:
  explicit WordTopicTable(std::shared_ptr<const WordTopicLayout> layout)
      : m_layout(std::move(layout)), m_cells(static_cast<std::size_t>(m_layout->offset.back()), 0) {
    clear();
  }

  void clear() {
    const std::size_t V = m_layout->log2Capacity.size();
    for (std::size_t w = 0; w < V; ++w) clearWord(w);
  }

  void clearWord(std::size_t w) {
    std::int32_t* cells = row(w);
    const auto n = static_cast<std::size_t>(m_layout->offset[w + 1] - m_layout->offset[w]);
    if (m_layout->log2Capacity[w] == 0) {
      std::memset(cells, 0, n * sizeof(std::int32_t));
    } else {
      for (std::size_t j = 0; j < n; j += 2) {
        cells[j] = kEmpty;
        cells[j + 1] = 0;
      }
    }
  }

  void copyFrom(const WordTopicTable& other) {
    assert(other.m_layout == m_layout);
    std::memcpy(m_cells.data(), other.m_cells.data(), m_cells.size() * sizeof(std::int32_t));
  }

  std::int32_t get(std::size_t w, std::int32_t k) const noexcept {
    const std::int32_t* cells = row(w);
    const unsigned b = m_layout->log2Capacity[w];
    if (b == 0) return cells[k];
    const std::uint32_t mask = (1u << b) - 1;
    for (std::uint32_t slot = hash(k, b);; slot = (slot + 1) & mask) {
      const std::int32_t key = cells[2 * slot];
      if (key == k) return cells[2 * slot + 1];
      if (key == kEmpty) return 0;
    }
  }

  // n_wk += delta; the count must stay >= 0.
  void add(std::size_t w, std::int32_t k, std::int32_t delta) noexcept {
    std::int32_t* cells = row(w);
    const unsigned b = m_layout->log2Capacity[w];
    if (b == 0) {
      cells[k] += delta;
      return;
    }
    const std::uint32_t mask = (1u << b) - 1;
    std::uint32_t slot = hash(k, b);
    while (cells[2 * slot] != k && cells[2 * slot] != kEmpty) slot = (slot + 1) & mask;
    if (cells[2 * slot] == kEmpty) {
      assert(delta > 0);
      cells[2 * slot] = k;
      cells[2 * slot + 1] = delta;
      return;
    }
    cells[2 * slot + 1] += delta;
    assert(cells[2 * slot + 1] >= 0);
    if (cells[2 * slot + 1] == 0) erase(cells, slot, b);
  }

  // f(topic, count) for every nonzero count of word w: in topic order for dense rows, in slot
  // order for hashed ones (deterministic for a given history).
  template <typename F>
  void forEach(std::size_t w, F&& f) const {
    const std::int32_t* cells = row(w);
    const unsigned b = m_layout->log2Capacity[w];
    if (b == 0) {
      for (std::int32_t k = 0; k < m_layout->topics; ++k)
        if (cells[k] != 0) f(k, cells[k]);
      return;
    }
    for (std::uint32_t slot = 0; slot < (1u << b); ++slot)
      if (cells[2 * slot] != kEmpty) f(cells[2 * slot], cells[2 * slot + 1]);
  }

  bool isDense(std::size_t w) const noexcept { return m_layout->log2Capacity[w] == 0; }
  std::int32_t* row(std::size_t w) noexcept { return m_cells.data() + m_layout->offset[w]; }
  const std::int32_t* row(std::size_t w) const noexcept { return m_cells.data() + m_layout->offset[w]; }
  const WordTopicLayout& layout() const noexcept { return *m_layout; }
  std::size_t memoryBytes() const noexcept { return m_cells.size() * sizeof(std::int32_t); }

 private:
  static constexpr std::int32_t kEmpty = -1;

  // Fibonacci hashing: topics that differ in their low bits still spread over the table.
  static std::uint32_t hash(std::int32_t k, unsigned b) noexcept {
    return (static_cast<std::uint32_t>(k) * 0x9E3779B1u) >> (32 - b);
  }

  // Backward-shift deletion for linear probing (Knuth, TAOCP vol. 3, Algorithm 6.4R): later
  // entries of the probe run move up so that no lookup stops early at the hole.
  static void erase(std::int32_t* cells, std::uint32_t hole, unsigned b) noexcept {
    const std::uint32_t mask = (1u << b) - 1;
    std::uint32_t next = hole;
    for (;;) {
      next = (next + 1) & mask;
      const std::int32_t key = cells[2 * next];
      if (key == kEmpty) break;
      const std::uint32_t home = hash(key, b);
      // Entry `next` may fill the hole unless its home lies cyclically in (hole, next].
      const bool homeBetween = hole <= next ? (hole < home && home <= next) : (hole < home || home <= next);
      if (homeBetween) continue;
      cells[2 * hole] = key;
      cells[2 * hole + 1] = cells[2 * next + 1];
      hole = next;
    }
    cells[2 * hole] = kEmpty;
    cells[2 * hole + 1] = 0;
  }

  std::shared_ptr<const WordTopicLayout> m_layout;
  std::vector<std::int32_t> m_cells;
};

}  // namespace latent::core::topic
