// SPDX-License-Identifier: GPL-3.0-or-later
// Token spans are byte offsets into UTF-8 text; Qt positions count UTF-16 code units. This maps
// the first onto the second so a highlighted word covers exactly its characters.
#pragma once

#include <QString>
#include <QVector>

#include <cstdint>
#include <span>
#include <string_view>

namespace latent::ui {

struct TextRange {
  int start = 0;   // UTF-16 position in the QString made from the whole text
  int length = 0;  // UTF-16 code units
  friend bool operator==(const TextRange&, const TextRange&) = default;
};

// Converts byte spans [begins[i], ends[i]) of `utf8` to ranges of QString::fromUtf8(utf8).
// Spans past the end are clamped; a span that starts inside a multi-byte character starts at
// that character. The spans may come in any order; the result keeps their order.
QVector<TextRange> utf16Ranges(std::string_view utf8, std::span<const std::uint32_t> begins,
                               std::span<const std::uint32_t> ends);

}  // namespace latent::ui
