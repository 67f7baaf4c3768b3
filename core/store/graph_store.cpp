// SPDX-License-Identifier: GPL-3.0-or-later
// Nodes with their attributes as a JSON object; edges as rows; `directed` in the dataset options.
#include "core/store/graph_store.hpp"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "core/store/damaged_project.hpp"

namespace latent::core {

namespace {

std::size_t graphEdgeRows(const Graph& graph) {
  std::size_t rows = 0;
  for (std::size_t r = 0; r < graph.relationCount(); ++r) rows += graph.relationEdges(r).size();
  return rows;
}

}  // namespace

std::size_t graphRowCount(const Graph& graph) { return graph.nodeCount() + graphEdgeRows(graph) + 1; }

void writeGraphRows(Project& project, std::int64_t datasetId, const Graph& graph, std::size_t first,
                    std::size_t count) {
  auto& db = project.db();
  const std::size_t end = std::min(first + count, graphRowCount(graph));
  const std::size_t nodeCount = graph.nodeCount();
  const std::size_t edgesEnd = nodeCount + graphEdgeRows(graph);
  if (first < nodeCount) {
    auto nodes = db.prepare(
        "INSERT INTO nodes (dataset_id, node_index, external_id, name, attributes) VALUES (?1, ?2, ?3, ?4, ?5)");
    for (std::size_t n = first; n < std::min(end, nodeCount); ++n) {
      nlohmann::ordered_json attributes = nlohmann::ordered_json::object();
      for (std::size_t a = 0; a < graph.attributeNames.size(); ++a)
        attributes[graph.attributeNames[a]] = graph.attributes[a][n];
      nodes.bind(1, datasetId).bind(2, static_cast<std::int64_t>(n)).bind(3, graph.nodeIds[n]);
      nodes.bind(4, graph.nodeNames[n]).bind(5, attributes.dump()).run();
    }
  }
  if (end > nodeCount && first < edgesEnd) {
    auto edges =
        db.prepare("INSERT INTO edges (dataset_id, relation, source, target, weight) VALUES (?1, ?2, ?3, ?4, ?5)");
    // Rows run through the relations in order: row i is edge i - offset of the relation it falls in.
    std::size_t offset = nodeCount;
    for (std::size_t r = 0; r < graph.relationCount(); ++r) {
      const auto& list = graph.relationEdges(r);
      const std::size_t from = std::max(first, offset), to = std::min(end, offset + list.size());
      for (std::size_t i = from; i < to; ++i) {
        const auto& e = list[i - offset];
        edges.bind(1, datasetId).bind(2, static_cast<std::int64_t>(r)).bind(3, e.source).bind(4, e.target);
        edges.bind(5, e.weight).run();
      }
      offset += list.size();
    }
  }
  if (end > edgesEnd) {
    // Graph-level facts the containers need back: direction and the attribute column order.
    auto facts = db.prepare(
        "UPDATE datasets SET options = json_set(options, '$.directed', json(?2), '$.attributes', json(?3), "
        "'$.relations', json(?4)) WHERE id = ?1");
    facts.bind(1, datasetId).bind(2, graph.directed ? "true" : "false");
    facts.bind(3, nlohmann::json(graph.attributeNames).dump());
    facts.bind(4, nlohmann::json(graph.relationNames).dump()).run();
  }
}

void writeGraph(Project& project, std::int64_t datasetId, const Graph& graph) {
  writeGraphRows(project, datasetId, graph, 0, graphRowCount(graph));
}

Graph loadGraph(Project& project, std::int64_t datasetId) {
  Graph graph;
  const auto info = project.dataset(datasetId);
  const StoredOptions options(project, info);
  graph.directed = options.flag("directed");
  graph.attributeNames = options.names("attributes");
  graph.attributes.assign(graph.attributeNames.size(), {});
  auto nodes = project.db().prepare(
      "SELECT external_id, name, attributes, node_index FROM nodes WHERE dataset_id = ?1 ORDER BY node_index");
  nodes.bind(1, datasetId);
  while (nodes.step()) {
    checkStoredPosition(project, "nodes", "dataset " + std::to_string(datasetId) + ", node " + nodes.text(0),
                        "node_index", nodes.integer(3), graph.nodeCount());
    graph.nodeIds.push_back(nodes.text(0));
    graph.nodeNames.push_back(nodes.text(1));
    const auto attributes = nlohmann::json::parse(nodes.text(2), nullptr, false);
    for (std::size_t a = 0; a < graph.attributeNames.size(); ++a) {
      const auto value = attributes.is_object() ? attributes.find(graph.attributeNames[a]) : attributes.end();
      graph.attributes[a].push_back(value != attributes.end() && value->is_string() ? value->get<std::string>() : "");
    }
  }
  graph.relationNames = options.names("relations");
  if (graph.relationNames.size() > 1) graph.furtherRelations.resize(graph.relationNames.size() - 1);
  auto edges = project.db().prepare(
      "SELECT source, target, weight, relation FROM edges WHERE dataset_id = ?1 ORDER BY relation, source, target");
  edges.bind(1, datasetId);
  while (edges.step()) {
    const auto source = edges.integer(0), target = edges.integer(1);
    const auto weight = edges.real(2);
    const auto relation = edges.integer(3);
    const auto row =
        "dataset " + std::to_string(datasetId) + ", edge " + std::to_string(source) + " -> " + std::to_string(target);
    checkStoredIndex(project, "edges", row, "relation", relation, graph.relationCount(), "relations");
    checkStoredIndex(project, "edges", row, "source", source, graph.nodeCount(), "nodes");
    checkStoredIndex(project, "edges", row, "target", target, graph.nodeCount(), "nodes");
    if (!std::isfinite(weight)) throw damagedProject(project, "edges", row, "the weight is not a finite number");
    auto& list = relation == 0 ? graph.edges : graph.furtherRelations[static_cast<std::size_t>(relation) - 1];
    list.push_back({static_cast<std::int32_t>(source), static_cast<std::int32_t>(target), weight});
  }
  return graph;
}

}  // namespace latent::core
