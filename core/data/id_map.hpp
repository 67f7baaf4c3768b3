// SPDX-License-Identifier: GPL-3.0-or-later
// Dense indices for the string ids found in input files, in order of first appearance.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace latent::core {

class IdMap {
 public:
  // Index of `id`, adding it when new. `added` tells which happened.
  std::int32_t intern(std::string_view id, bool* added = nullptr) {
    auto it = m_index.find(id);
    if (it != m_index.end()) {
      if (added) *added = false;
      return it->second;
    }
    const auto index = static_cast<std::int32_t>(m_ids.size());
    m_ids.emplace_back(id);
    m_index.emplace(m_ids.back(), index);
    if (added) *added = true;
    return index;
  }

  // Index of `id`, or -1.
  std::int32_t find(std::string_view id) const {
    auto it = m_index.find(id);
    return it == m_index.end() ? -1 : it->second;
  }

  std::size_t size() const noexcept { return m_ids.size(); }
  const std::vector<std::string>& ids() const noexcept { return m_ids; }
  std::vector<std::string> release() {
    m_index.clear();
    return std::move(m_ids);
  }

 private:
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
  };
  std::vector<std::string> m_ids;
  std::unordered_map<std::string, std::int32_t, Hash, std::equal_to<>> m_index;
};

}  // namespace latent::core
