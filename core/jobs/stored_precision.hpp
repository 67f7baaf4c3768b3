// SPDX-License-Identifier: GPL-3.0-or-later
// Which result matrices are stored as float32 (schema 15) rather than as doubles.
#pragma once

#include <cstdint>
#include <string_view>

#include "core/store/run_store.hpp"

namespace latent::core {

// Topic-word and document-topic matrices of more than this many bytes as doubles (4 Mi values:
// K = 1000 over a vocabulary of 4,200 words, or 4,200 documents) are stored as float32. Their
// values are probabilities estimated from samples or from a fit whose own error is far above a
// float's relative rounding of 6e-8, and at that size the file and the write are halved. The run's
// metrics are computed from the doubles before they are stored; what reads the matrices back (the
// GUI's pages, exports, readers of the project file) sees the values rounded to floats.
inline constexpr std::int64_t kFloat32MatrixBytes = std::int64_t{32} << 20;

MatrixElement storedElement(std::string_view name, std::int64_t rows, std::int64_t cols);

}  // namespace latent::core
