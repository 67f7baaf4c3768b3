// SPDX-License-Identifier: GPL-3.0-or-later
// Which result matrices are held and stored as float32 rather than as doubles: the one policy
// that the models forming them (NamedMatrix::floats) and the store writing them (schema 15's
// run_matrices.element) both follow.
#pragma once

#include <cstdint>
#include <string_view>

namespace latent::core {

// Topic-word and document-topic matrices of more than this many bytes as doubles (4 Mi values:
// K = 1000 over a vocabulary of 4,200 words, or 4,200 documents) are float32. Their values are
// probabilities estimated from samples or from a fit whose own error is far above a float's
// relative rounding of 6e-8, and at that size they dominate a fit's memory and the project file.
// Everything else stays double.
inline constexpr std::int64_t kFloat32MatrixBytes = std::int64_t{32} << 20;

// True when the matrix `name` of rows x cols is float32 under the threshold `thresholdBytes`
// (the default everywhere but in tests, which lower it to reach the float path with small data).
bool isFloat32Matrix(std::string_view name, std::int64_t rows, std::int64_t cols,
                     std::int64_t thresholdBytes = kFloat32MatrixBytes);

}  // namespace latent::core
