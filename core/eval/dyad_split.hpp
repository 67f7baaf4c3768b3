// SPDX-License-Identifier: GPL-3.0-or-later
// Held-out node pairs for block models (DESIGN §6 `--heldout F` on graphs; 001 "Likelihood and perplexity").
#pragma once

#include <cstdint>
#include <vector>

#include "core/data/graph.hpp"

namespace latent::core {

struct HeldoutDyad {
  std::int32_t source = 0;
  std::int32_t target = 0;  // for undirected graphs source < target
  bool edge = false;        // whether the pair is linked in the full graph
};

// The graph a block model trains on, and the node pairs it must treat as missing (neither edge
// nor non-edge) and is scored on afterwards.
struct DyadSplit {
  Graph train;                       // the full graph without the held-out edges
  std::vector<HeldoutDyad> heldout;  // edges first, then non-edges; empty when fraction = 0
  std::int64_t heldoutEdges = 0;
  // True when the graph has so many pairs that only a capped sample of its non-edges was held
  // out (kMaxHeldoutNonEdges); the edges are still held out at the full fraction.
  bool nonEdgesCapped = false;

  // Whether (i, j) is held out; for undirected graphs the order of i and j does not matter.
  // O(log H) by binary search in a sorted key list.
  bool isHeldout(std::int32_t i, std::int32_t j) const noexcept;

  // Keys source * n + target of the held-out pairs, sorted (built by splitDyads).
  std::vector<std::uint64_t> sortedKeys;
  bool directed = false;
  std::uint64_t nodeCount = 0;
};

inline constexpr std::int64_t kMaxHeldoutNonEdges = 1'000'000;

// Holds out a seeded random fraction of the node pairs, edges and non-edges alike: round(f * E)
// of the E edges and round(f * (P - E)) of the P - E non-edges (at most kMaxHeldoutNonEdges), so
// the held-out set has the graph's own density. Same seed, same split. fraction = 0 keeps every
// pair for training. Throws UsageError for a fraction outside [0, 1) or a graph with no pair.
DyadSplit splitDyads(const Graph& graph, double fraction, std::uint64_t seed);

}  // namespace latent::core
