// SPDX-License-Identifier: GPL-3.0-or-later
// GraphBuilder: node interning, self-loop dropping and the final sort-and-merge of edges.
#include "core/io/graph_builder.hpp"

#include <algorithm>
#include <utility>

namespace latent::core::graph_detail {
namespace {

// The Graph invariants of one relation's edges: source < target when undirected, sorted, repeated
// pairs merged into one edge whose weight is the sum (counted in `merged`).
std::vector<Edge> sortAndMerge(std::vector<Edge>& edges, bool directed, std::int64_t& merged) {
  if (!directed)
    for (auto& e : edges)
      if (e.source > e.target) std::swap(e.source, e.target);
  std::sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) {
    return a.source != b.source ? a.source < b.source : a.target < b.target;
  });
  std::size_t kept = 0;
  for (std::size_t i = 0; i < edges.size(); ++i) {
    if (kept > 0 && edges[kept - 1].source == edges[i].source && edges[kept - 1].target == edges[i].target) {
      edges[kept - 1].weight += edges[i].weight;
      ++merged;
    } else {
      edges[kept++] = edges[i];
    }
  }
  edges.resize(kept);
  edges.shrink_to_fit();
  return std::move(edges);
}

}  // namespace

GraphBuilder::GraphBuilder(const NodeTable* nodes) : m_table(nodes) {
  if (m_table) m_seen.assign(m_table->ids.size(), 0);
}

std::int32_t GraphBuilder::node(std::string_view id, bool* added) {
  if (!m_table) return m_ids.intern(id, added);
  const std::int32_t index = m_table->ids.find(id);
  if (index >= 0 && added) *added = !m_seen[static_cast<std::size_t>(index)];
  if (index >= 0) m_seen[static_cast<std::size_t>(index)] = 1;
  return index;
}

std::size_t GraphBuilder::nodeCount() const noexcept { return m_table ? m_table->ids.size() : m_ids.size(); }

void GraphBuilder::addEdge(std::int32_t source, std::int32_t target, double weight) {
  if (source == target) {
    ++m_selfLoops;
    return;
  }
  m_edges.push_back({source, target, weight});
}

void GraphBuilder::addEdge(std::int32_t source, std::int32_t target, double weight, std::string_view relation) {
  std::size_t r = 0;
  while (r < m_relationNames.size() && m_relationNames[r] != relation) ++r;
  if (r == m_relationNames.size()) {
    m_relationNames.emplace_back(relation);
    if (r > 0) m_furtherEdges.emplace_back();
  }
  if (source == target) {
    ++m_selfLoops;
    return;
  }
  (r == 0 ? m_edges : m_furtherEdges[r - 1]).push_back({source, target, weight});
}

void GraphBuilder::setName(std::int32_t node, std::string name) {
  const auto i = static_cast<std::size_t>(node);
  if (m_names.size() <= i) m_names.resize(std::max(i + 1, nodeCount()));
  m_names[i] = std::move(name);
}

std::size_t GraphBuilder::attribute(const std::string& name) {
  for (std::size_t a = 0; a < m_attributeNames.size(); ++a)
    if (m_attributeNames[a] == name) return a;
  m_attributeNames.push_back(name);
  m_attributes.emplace_back();
  return m_attributeNames.size() - 1;
}

void GraphBuilder::setAttribute(std::size_t column, std::int32_t node, std::string value) {
  auto& values = m_attributes[column];
  const auto i = static_cast<std::size_t>(node);
  if (values.size() <= i) values.resize(std::max(i + 1, nodeCount()));
  values[i] = std::move(value);
}

Graph GraphBuilder::finish(bool directed, std::int64_t& merged) {
  Graph graph;
  graph.directed = directed;
  const std::size_t n = nodeCount();
  graph.nodeIds = m_table ? m_table->ids.ids() : m_ids.release();

  graph.nodeNames.resize(n);
  m_names.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (m_table && m_table->hasNames)
      graph.nodeNames[i] = m_table->names[i];
    else if (!m_names[i].empty())
      graph.nodeNames[i] = std::move(m_names[i]);
    else
      graph.nodeNames[i] = graph.nodeIds[i];
  }

  for (std::size_t a = 0; a < m_attributeNames.size(); ++a) {
    if (m_table && std::find(m_table->attributeNames.begin(), m_table->attributeNames.end(), m_attributeNames[a]) !=
                       m_table->attributeNames.end())
      continue;
    graph.attributeNames.push_back(m_attributeNames[a]);
    m_attributes[a].resize(n);
    graph.attributes.push_back(std::move(m_attributes[a]));
  }
  if (m_table) {
    graph.attributeNames.insert(graph.attributeNames.end(), m_table->attributeNames.begin(),
                                m_table->attributeNames.end());
    graph.attributes.insert(graph.attributes.end(), m_table->attributes.begin(), m_table->attributes.end());
  }

  merged = 0;
  graph.edges = sortAndMerge(m_edges, directed, merged);
  m_edges = {};
  graph.relationNames = std::move(m_relationNames);
  for (auto& edges : m_furtherEdges) graph.furtherRelations.push_back(sortAndMerge(edges, directed, merged));
  m_furtherEdges = {};
  return graph;
}

}  // namespace latent::core::graph_detail
