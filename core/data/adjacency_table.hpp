// SPDX-License-Identifier: GPL-3.0-or-later
// A graph as a 0/1 table of its adjacency rows, for the models that fit a graph case by case (a
// binary RBM's hidden units then turn on groups of nodes that link alike).
#pragma once

#include "core/data/graph.hpp"
#include "core/data/numeric_table.hpp"

namespace latent::core {

// One row and one column per node, both named by the node's display name: cell (i, j) is 1 when
// the graph has an edge from i to j (either way for an undirected graph), else 0; the diagonal is
// 0. The graph's first node attribute that groups the nodes (at least 2 and at most half as many
// distinct values as nodes: Sampson's "group", the karate club's "faction") labels the rows.
NumericTable adjacencyTable(const Graph& graph);

}  // namespace latent::core
