// SPDX-License-Identifier: GPL-3.0-or-later
// Ratings tables in the project file.
#pragma once

#include <cstdint>

#include "data/ratings.hpp"
#include "store/project.hpp"

namespace latent::core {

// Within the caller's transaction.
void writeRatings(Project& project, std::int64_t datasetId, const Ratings& ratings);
Ratings loadRatings(Project& project, std::int64_t datasetId);

}  // namespace latent::core
