// SPDX-License-Identifier: GPL-3.0-or-later
// Where to draw each node of a graph (a node-link drawing): a force-directed layout by igraph
// (Fruchterman & Reingold 1991), linked nodes pulled together, all nodes pushed apart. Computed
// off the GUI thread; the views only scale the coordinates to their size.
#pragma once

#include <cstdint>
#include <span>
#include <stop_token>

#include <Eigen/Core>

#include "core/data/graph.hpp"

namespace latent::core {

// Above this many nodes a drawing would be a blot at any window size; layoutGraph refuses.
inline constexpr std::int64_t kMaxLayoutNodes = 50'000;

// The seed of the app's drawings and of the positions in exported network files, so that a file
// opens in Gephi looking as it did in the app.
inline constexpr std::uint64_t kDrawingLayoutSeed = 1;

// Coordinates (N x 2) for `nodes` nodes joined by `edges` (direction ignored), within about
// [-1, 1] in both axes, the same for the same seed. A graph in pieces has its largest connected
// part in the middle and the nodes of the other pieces on a ring around it, piece after piece. Throws UsageError above
// kMaxLayoutNodes, std::bad_alloc when igraph runs out of memory.
Eigen::MatrixX2d layoutGraph(std::int64_t nodes, std::span<const Edge> edges, std::uint64_t seed);

}  // namespace latent::core
