// SPDX-License-Identifier: GPL-3.0-or-later
// UTF-8 validation and Latin-1 conversion for importers.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace latent::core::utf8 {

inline constexpr std::size_t npos = std::string_view::npos;

// Byte offset of the first byte that is not part of well-formed UTF-8 (RFC 3629: no overlong
// forms, no surrogates, nothing above U+10FFFF), or npos when the whole text is valid.
std::size_t firstInvalid(std::string_view text) noexcept;

inline bool isValid(std::string_view text) noexcept { return firstInvalid(text) == npos; }

// ISO-8859-1 bytes to UTF-8 (MovieLens 100K and 1M item files are Latin-1).
std::string fromLatin1(std::string_view text);

// The message importers give for invalid UTF-8 at `offset` of a line.
std::string invalidMessage(std::string_view text, std::size_t offset);

// Number of code points (assumes valid UTF-8).
std::size_t codePointCount(std::string_view text) noexcept;

}  // namespace latent::core::utf8
