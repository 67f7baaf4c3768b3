// SPDX-License-Identifier: GPL-3.0-or-later
// Collects the nodes and edges any graph reader finds and turns them into a valid Graph.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/data/graph.hpp"
#include "core/data/id_map.hpp"
#include "core/io/graph_reading.hpp"

namespace latent::core::graph_detail {

// Readers hand over edges as they meet them; the Graph invariants (no self-loops, no repeated
// pairs, source < target when undirected, sorted) are established once in finish(), with a hash
// map for ids and one sort for edges, so millions of edges cost O(m log m).
class GraphBuilder {
 public:
  // Without a nodes table nodes are created in order of first appearance. With one, its nodes
  // come first and in its order (isolates included) and node() knows no other id.
  explicit GraphBuilder(const NodeTable* nodes = nullptr);

  // Index of node `id`, creating it when there is no nodes table; -1 when the nodes table lacks
  // it. `added` tells whether the id was new (without a table) or first met (with one).
  std::int32_t node(std::string_view id, bool* added = nullptr);
  std::size_t nodeCount() const noexcept;
  bool hasNodesTable() const noexcept { return m_table != nullptr; }
  const NodeTable* nodesTable() const noexcept { return m_table; }

  // A self-loop is counted and dropped; anything else is kept for finish().
  void addEdge(std::int32_t source, std::int32_t target, double weight);
  // An edge of a named relation (several relations over the same nodes); relations are numbered in
  // order of first appearance, and a graph gets them all named once any edge names one.
  void addEdge(std::int32_t source, std::int32_t target, double weight, std::string_view relation);
  std::int64_t selfLoops() const noexcept { return m_selfLoops; }
  std::size_t edgesAdded() const noexcept { return m_edges.size(); }

  // The name the graph file gives a node (GML label, Pajek label); the nodes file's name wins.
  void setName(std::int32_t node, std::string name);
  // Column of an attribute the graph file gives (GML, GraphML), created on first use.
  std::size_t attribute(const std::string& name);
  void setAttribute(std::size_t column, std::int32_t node, std::string value);

  // Names: the nodes file's, else the graph file's, else the id. Attributes: the graph file's in
  // its order, then the nodes file's columns (which replace graph-file attributes of the same name).
  // Undirected edges get source < target; repeated pairs become one edge whose weight is the sum,
  // counted in `merged`.
  Graph finish(bool directed, std::int64_t& merged);
  std::size_t relationCount() const noexcept { return m_relationNames.size(); }

 private:
  const NodeTable* m_table = nullptr;
  IdMap m_ids;               // without a table
  std::vector<char> m_seen;  // with a table: ids already met
  std::vector<Edge> m_edges;
  std::vector<std::string> m_relationNames;
  std::vector<std::vector<Edge>> m_furtherEdges;  // relations 1.. (relation 0 is m_edges)
  std::int64_t m_selfLoops = 0;
  std::vector<std::string> m_names;  // graph-file names, "" when none
  std::vector<std::string> m_attributeNames;
  std::vector<std::vector<std::string>> m_attributes;
};

}  // namespace latent::core::graph_detail
