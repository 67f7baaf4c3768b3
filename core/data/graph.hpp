// SPDX-License-Identifier: GPL-3.0-or-later
// A graph as block models see it: named nodes with attributes, and a set of weighted edges.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace latent::core {

struct Edge {
  std::int32_t source = 0;
  std::int32_t target = 0;
  double weight = 1.0;
  friend bool operator==(const Edge&, const Edge&) = default;
};

struct Graph {
  bool directed = false;
  std::vector<std::string> nodeIds;    // ids of the imported file, unique
  std::vector<std::string> nodeNames;  // display names; the id when the file gives none
  // Further node columns (for example Sampson's "group"): attributes[a][node] is the value of
  // attributeNames[a] for that node, "" when missing.
  std::vector<std::string> attributeNames;
  std::vector<std::vector<std::string>> attributes;
  // Sorted by (source, target), no duplicates, no self-loops; for an undirected graph
  // source < target. Block models binarise: an edge is present when it is listed.
  std::vector<Edge> edges;
  // Several relations over the same nodes (Sampson's like, esteem, praise, ...): relationNames[0]
  // names `edges`, and furtherRelations[r - 1] holds relation r with the invariants of `edges`.
  // Models of one relation fit `edges` (the first relation) unchanged; a held-out split removes
  // links of the first relation only. Both empty for a graph of one unnamed relation.
  std::vector<std::string> relationNames;
  std::vector<std::vector<Edge>> furtherRelations;

  std::size_t nodeCount() const noexcept { return nodeIds.size(); }
  std::size_t edgeCount() const noexcept { return edges.size(); }
  std::size_t relationCount() const noexcept { return relationNames.empty() ? 1 : relationNames.size(); }
  // The edges of relation r (0: `edges`).
  const std::vector<Edge>& relationEdges(std::size_t r) const noexcept {
    return r == 0 ? edges : furtherRelations[r - 1];
  }
  std::optional<std::size_t> relationIndex(std::string_view name) const {
    for (std::size_t r = 0; r < relationNames.size(); ++r)
      if (relationNames[r] == name) return r;
    return std::nullopt;
  }

  // Index of an attribute column, if the graph has it.
  std::optional<std::size_t> attributeIndex(std::string_view name) const {
    for (std::size_t a = 0; a < attributeNames.size(); ++a)
      if (attributeNames[a] == name) return a;
    return std::nullopt;
  }
};

}  // namespace latent::core
