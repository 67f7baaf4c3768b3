// SPDX-License-Identifier: GPL-3.0-or-later
// Graphs in the project file.
#pragma once

#include <cstdint>

#include "data/graph.hpp"
#include "store/project.hpp"

namespace latent::core {

// Within the caller's transaction.
void writeGraph(Project& project, std::int64_t datasetId, const Graph& graph);
Graph loadGraph(Project& project, std::int64_t datasetId);

}  // namespace latent::core
