// SPDX-License-Identifier: GPL-3.0-or-later
// Held-out rows of a numeric table (DESIGN §6 `--heldout F` on tables).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace latent::core {

// A seeded random `fraction` of `rowCount` rows, as sorted row indices; the rest train. At least
// one row always trains; fraction 0 holds out none. Same seed, same rows. Throws UsageError for
// a fraction outside [0, 1).
std::vector<std::int64_t> splitRows(std::size_t rowCount, double fraction, std::uint64_t seed);

// The rows not in `heldout` (sorted), in order.
std::vector<std::int64_t> trainingRows(std::size_t rowCount, const std::vector<std::int64_t>& heldout);

}  // namespace latent::core
