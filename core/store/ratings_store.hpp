// SPDX-License-Identifier: GPL-3.0-or-later
// Ratings tables in the project file.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/data/ratings.hpp"
#include "core/store/project.hpp"

namespace latent::core {

// Within the caller's transaction.
void writeRatings(Project& project, std::int64_t datasetId, const Ratings& ratings);
// The same in parts, for imports that write in several short transactions: the rows are the
// users, then the items, then the ratings, then one for the facts kept in the dataset's options;
// writeRatingsRows writes rows [first, first + count) of them within the caller's transaction.
std::size_t ratingsRowCount(const Ratings& ratings);
void writeRatingsRows(Project& project, std::int64_t datasetId, const Ratings& ratings, std::size_t first,
                      std::size_t count);
Ratings loadRatings(Project& project, std::int64_t datasetId);

}  // namespace latent::core
