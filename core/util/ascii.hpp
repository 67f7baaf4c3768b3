// SPDX-License-Identifier: GPL-3.0-or-later
// ASCII case folding, for matching column names, format names and keywords typed by users.
#pragma once

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

namespace latent::core {

inline char lowerAsciiChar(char c) noexcept { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

// `text` with A-Z lowered; other bytes (UTF-8 included) unchanged.
inline std::string lowerAscii(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), lowerAsciiChar);
  return out;
}

inline bool equalsIgnoreCase(std::string_view a, std::string_view b) noexcept {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(),
                                            [](char x, char y) { return lowerAsciiChar(x) == lowerAsciiChar(y); });
}

}  // namespace latent::core
