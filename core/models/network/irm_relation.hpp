// SPDX-License-Identifier: GPL-3.0-or-later
// The relation an infinite relational model sees: one type (a graph) or two (a bipartite graph),
// the training links as neighbour lists, and the held-out pairs it must treat as missing.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/data/graph.hpp"
#include "core/eval/dyad_split.hpp"

namespace latent::core::network {

// The node attribute that names each node's type in a two-type (bipartite) relation.
inline constexpr const char* kIrmTypeAttribute = "type";

struct IrmTypes {
  bool twoTypes = false;
  std::vector<std::uint8_t> nodeType;  // 0 or 1 per node; all 0 for one type
  std::vector<std::string> names;      // the attribute's values, type 0 first (two types only)
};

// Decides between one type and two (000 §27.6: a relation T1 x T2 is a bipartite graph).
// "one": every node one type. "two": the node attribute "type" must have exactly two values, every
// node one of them, and every link must join nodes of different types; throws UsageError saying
// which condition fails. "auto": two types when all of that holds, one type otherwise. Type 0 is
// the value that comes first in node order.
IrmTypes detectIrmTypes(const Graph& graph, const std::string& choice);

// A relation in compressed neighbour lists. For an undirected graph `out` holds every neighbour
// and `in` is empty; held-out partners likewise in `missingOut` (and `missingIn` when directed).
// In two-type mode only pairs of nodes of different types are part of the relation: held-out
// pairs within a type are left out.
struct IrmRelation {
  std::int32_t nodes = 0;
  bool directed = false;
  IrmTypes types;
  std::vector<std::int64_t> outStart, inStart, missingOutStart, missingInStart;  // nodes + 1 each
  std::vector<std::int32_t> out, in, missingOut, missingIn;
  std::int64_t trainLinks = 0;
  std::int64_t missingPairs = 0;

  bool twoTypes() const noexcept { return types.twoTypes; }
  std::uint8_t type(std::int32_t v) const noexcept { return types.nodeType[static_cast<std::size_t>(v)]; }
  std::span<const std::int32_t> outOf(std::int32_t v) const noexcept { return slice(out, outStart, v); }
  std::span<const std::int32_t> inOf(std::int32_t v) const noexcept { return slice(in, inStart, v); }
  std::span<const std::int32_t> missingOutOf(std::int32_t v) const noexcept {
    return slice(missingOut, missingOutStart, v);
  }
  std::span<const std::int32_t> missingInOf(std::int32_t v) const noexcept {
    return slice(missingIn, missingInStart, v);
  }

 private:
  static std::span<const std::int32_t> slice(const std::vector<std::int32_t>& items,
                                             const std::vector<std::int64_t>& start, std::int32_t v) noexcept {
    if (start.empty()) return {};
    const auto b = static_cast<std::size_t>(start[static_cast<std::size_t>(v)]);
    const auto e = static_cast<std::size_t>(start[static_cast<std::size_t>(v) + 1]);
    return std::span<const std::int32_t>(items.data() + b, e - b);
  }
};

// `train` is the graph without its held-out links (DyadSplit::train); `heldout` the pairs to
// treat as missing. Throws UsageError when a training link joins two nodes of the same type in
// two-type mode.
IrmRelation buildIrmRelation(const Graph& train, std::span<const HeldoutDyad> heldout, IrmTypes types);

}  // namespace latent::core::network
