// SPDX-License-Identifier: GPL-3.0-or-later
// Graphs in the project file.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/data/graph.hpp"
#include "core/store/project.hpp"

namespace latent::core {

// Within the caller's transaction.
void writeGraph(Project& project, std::int64_t datasetId, const Graph& graph);
// The same in parts, for imports that write in several short transactions: the graph's rows
// are its nodes, then its edges, then one for the facts kept in the dataset's options;
// writeGraphRows writes rows [first, first + count) of them within the caller's transaction.
std::size_t graphRowCount(const Graph& graph);
void writeGraphRows(Project& project, std::int64_t datasetId, const Graph& graph, std::size_t first, std::size_t count);
Graph loadGraph(Project& project, std::int64_t datasetId);

}  // namespace latent::core
