// SPDX-License-Identifier: GPL-3.0-or-later
// Dense indices for the string ids and words found in input files, in order of first appearance.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace latent::core {

// An open-addressing hash table (linear probing, at most half full) holding each string's hash
// and index; the strings themselves live once, in index order. Import looks up every token here,
// and std::unordered_map, which re-hashes chain neighbours and chases a node per probe, made the
// lookup a large share of the import time (tests/benchmarks/README.md, import throughput).
class IdMap {
 public:
  // Index of `id`, adding it when new. `added` tells which happened.
  std::int32_t intern(std::string_view id, bool* added = nullptr) {
    if (2 * (m_ids.size() + 1) > m_slots.size()) grow();
    const std::uint64_t h = hash(id);
    std::size_t i = h & (m_slots.size() - 1);
    for (;; i = (i + 1) & (m_slots.size() - 1)) {
      Slot& slot = m_slots[i];
      if (slot.index < 0) {
        slot = {h, static_cast<std::int32_t>(m_ids.size())};
        m_ids.emplace_back(id);
        if (added) *added = true;
        return slot.index;
      }
      if (slot.hash == h && m_ids[static_cast<std::size_t>(slot.index)] == id) {
        if (added) *added = false;
        return slot.index;
      }
    }
  }

  // Index of `id`, or -1.
  std::int32_t find(std::string_view id) const {
    if (m_slots.empty()) return -1;
    const std::uint64_t h = hash(id);
    for (std::size_t i = h & (m_slots.size() - 1);; i = (i + 1) & (m_slots.size() - 1)) {
      const Slot& slot = m_slots[i];
      if (slot.index < 0) return -1;
      if (slot.hash == h && m_ids[static_cast<std::size_t>(slot.index)] == id) return slot.index;
    }
  }

  bool contains(std::string_view id) const { return find(id) >= 0; }
  std::size_t size() const noexcept { return m_ids.size(); }
  const std::vector<std::string>& ids() const noexcept { return m_ids; }
  std::vector<std::string> release() {
    m_slots.clear();
    return std::move(m_ids);
  }

 private:
  struct Slot {
    std::uint64_t hash = 0;
    std::int32_t index = -1;
  };

  static std::uint64_t hash(std::string_view s) noexcept { return std::hash<std::string_view>{}(s); }

  void grow() {
    std::vector<Slot> slots(m_slots.empty() ? 64 : m_slots.size() * 2);
    for (const Slot& s : m_slots) {
      if (s.index < 0) continue;
      std::size_t i = s.hash & (slots.size() - 1);
      while (slots[i].index >= 0) i = (i + 1) & (slots.size() - 1);
      slots[i] = s;
    }
    m_slots.swap(slots);
  }

  std::vector<Slot> m_slots;
  std::vector<std::string> m_ids;
};

}  // namespace latent::core
