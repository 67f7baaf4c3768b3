// SPDX-License-Identifier: GPL-3.0-or-later
// Byte-to-UTF-16 span conversion in one pass over the text.
#include "ui/util/text_spans.hpp"

#include <algorithm>
#include <vector>

namespace latent::ui {

QVector<TextRange> utf16Ranges(std::string_view utf8, std::span<const std::uint32_t> begins,
                               std::span<const std::uint32_t> ends) {
  // position[b] = UTF-16 units before byte b. A lead byte of a 4-byte sequence (11110xxx)
  // becomes a surrogate pair, so it counts twice; continuation bytes (10xxxxxx) count nothing.
  std::vector<int> position(utf8.size() + 1, 0);
  int units = 0;
  for (std::size_t b = 0; b < utf8.size(); ++b) {
    const auto c = static_cast<unsigned char>(utf8[b]);
    position[b] = units;
    if ((c & 0xC0) != 0x80) units += (c >= 0xF0) ? 2 : 1;
  }
  position[utf8.size()] = units;
  // Within a character, a byte maps to the start of that character.
  auto at = [&](std::uint32_t byte) {
    std::size_t b = std::min<std::size_t>(byte, utf8.size());
    while (b > 0 && b < utf8.size() && (static_cast<unsigned char>(utf8[b]) & 0xC0) == 0x80) --b;
    return position[b];
  };
  QVector<TextRange> out;
  const std::size_t n = std::min(begins.size(), ends.size());
  out.reserve(static_cast<qsizetype>(n));
  for (std::size_t i = 0; i < n; ++i) {
    const int start = at(begins[i]);
    const int end = std::max(start, at(ends[i]));
    out.push_back({start, end - start});
  }
  return out;
}

}  // namespace latent::ui
