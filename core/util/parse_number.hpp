// SPDX-License-Identifier: GPL-3.0-or-later
// Strict number parsing for importers: the whole field must be the number, nothing else.
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <string_view>

namespace latent::core {

// Leading and trailing spaces and tabs are allowed; anything else makes the parse fail.
std::string_view trimSpaces(std::string_view s) noexcept;

std::optional<std::int64_t> parseInteger(std::string_view s) noexcept;
// Finite decimal numbers only ("nan" and "inf" are refused).
std::optional<double> parseReal(std::string_view s) noexcept;

}  // namespace latent::core
