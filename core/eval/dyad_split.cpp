// SPDX-License-Identifier: GPL-3.0-or-later
// Seeded held-out dyads: a stratified sample of edges and non-edges.
#include "core/eval/dyad_split.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <unordered_set>

#include "core/util/errors.hpp"
#include "core/util/random.hpp"

namespace latent::core {
namespace {

constexpr std::uint64_t kEdgeStream = 0x484F4C44'45444745ULL;     // "HOLDEDGE"
constexpr std::uint64_t kNonEdgeStream = 0x484F4C44'4E4F4E45ULL;  // "HOLDNONE"

std::uint64_t pairKey(std::uint64_t n, bool directed, std::int32_t i, std::int32_t j) noexcept {
  if (!directed && i > j) std::swap(i, j);
  return static_cast<std::uint64_t>(i) * n + static_cast<std::uint64_t>(j);
}

}  // namespace

bool DyadSplit::isHeldout(std::int32_t i, std::int32_t j) const noexcept {
  if (sortedKeys.empty()) return false;
  return std::binary_search(sortedKeys.begin(), sortedKeys.end(), pairKey(nodeCount, directed, i, j));
}

DyadSplit splitDyads(const Graph& graph, double fraction, std::uint64_t seed) {
  if (!(fraction >= 0.0 && fraction < 1.0))
    throw UsageError("the held-out fraction must be at least 0 and below 1 (got " + std::to_string(fraction) + ")");
  const auto n = static_cast<std::uint64_t>(graph.nodeCount());
  if (n < 2) throw UsageError("a block model needs a graph with at least two nodes");
  DyadSplit split;
  split.directed = graph.directed;
  split.nodeCount = n;
  split.train = graph;
  if (fraction == 0.0) return split;

  const double pairs = graph.directed ? double(n) * double(n - 1) : double(n) * double(n - 1) / 2.0;
  const auto edgeCount = static_cast<std::int64_t>(graph.edges.size());
  const auto edgesOut = std::llround(fraction * double(edgeCount));
  const auto nonEdgesWanted = std::llround(fraction * (pairs - double(edgeCount)));
  const auto nonEdgesOut = std::min<std::int64_t>(nonEdgesWanted, kMaxHeldoutNonEdges);
  split.nonEdgesCapped = nonEdgesOut < nonEdgesWanted;

  // Edges: a seeded shuffle of their indices; the first edgesOut leave the training graph.
  std::vector<std::int64_t> order(graph.edges.size());
  std::iota(order.begin(), order.end(), 0);
  Rng edgeRng(seed, kEdgeStream);
  edgeRng.shuffle(std::span<std::int64_t>(order));
  std::vector<char> out(graph.edges.size(), 0);
  for (std::int64_t e = 0; e < edgesOut; ++e) out[static_cast<std::size_t>(order[static_cast<std::size_t>(e)])] = 1;
  split.train.edges.clear();
  for (std::size_t e = 0; e < graph.edges.size(); ++e) {
    const auto& edge = graph.edges[e];
    if (out[e]) {
      split.heldout.push_back({edge.source, edge.target, true});
      split.sortedKeys.push_back(pairKey(n, graph.directed, edge.source, edge.target));
    } else {
      split.train.edges.push_back(edge);
    }
  }
  split.heldoutEdges = edgesOut;

  // Non-edges: uniform pairs by rejection. The held-out set holds at most a fraction < 1 of the
  // non-edges, so each draw is accepted with probability at least 1 - fraction on average.
  std::unordered_set<std::uint64_t> edgeKeys;
  edgeKeys.reserve(graph.edges.size() * 2);
  for (const auto& e : graph.edges) edgeKeys.insert(pairKey(n, graph.directed, e.source, e.target));
  std::unordered_set<std::uint64_t> chosen;
  chosen.reserve(static_cast<std::size_t>(nonEdgesOut) * 2);
  Rng rng(seed, kNonEdgeStream);
  while (static_cast<std::int64_t>(chosen.size()) < nonEdgesOut) {
    const auto i = static_cast<std::int32_t>(rng.below(n));
    const auto j = static_cast<std::int32_t>(rng.below(n));
    if (i == j) continue;
    const auto key = pairKey(n, graph.directed, i, j);
    if (edgeKeys.count(key) || !chosen.insert(key).second) continue;
    const auto a = graph.directed ? i : std::min(i, j), b = graph.directed ? j : std::max(i, j);
    split.heldout.push_back({a, b, false});
    split.sortedKeys.push_back(key);
  }
  std::sort(split.sortedKeys.begin(), split.sortedKeys.end());
  return split;
}

}  // namespace latent::core
