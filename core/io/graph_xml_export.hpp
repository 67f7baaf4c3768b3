// SPDX-License-Identifier: GPL-3.0-or-later
// A graph with a run's blocks as node attributes, in the XML formats of network tools: GEXF 1.2
// (Gephi) and GraphML (Cytoscape, yEd, igraph, networkx). Written by the CLI's export and the
// drawing's context menu; the file holds the node ids and names, the dataset's own node attributes,
// each node's most probable block and its weight in every block, the places of a drawing when
// there are some, and the edges of the graph's first relation with their weights and direction.
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Core>

#include "core/data/graph.hpp"

namespace latent::core {

enum class GraphXmlFormat { Gexf, GraphMl };

struct GraphNodeResults {
  std::string description;      // a line for the file's metadata: "run 3 (sbm) of dataset karate"
  std::vector<int> blocks;      // N, each node's most probable block (0-based); empty: none
  Eigen::MatrixXd memberships;  // N x K, each node's weight in every block; 0 x 0: none
  Eigen::MatrixX2d positions;   // N x 2 within [-1, 1], y downwards as on screen; 0 x 2: none
};

// The attribute names of the results: "block" and "block_0" .. "block_{K-1}" (a dataset attribute
// of the same name is written as "NAME (dataset)").
inline constexpr std::string_view kBlockAttribute = "block";
std::string membershipAttribute(std::size_t block);

// Writes `graph` with `results`. Throws std::invalid_argument when a result does not have one row
// per node. Text is escaped for XML, and characters XML 1.0 cannot hold become U+FFFD.
void writeGraphXml(const Graph& graph, const GraphNodeResults& results, GraphXmlFormat format, std::ostream& out);

// Text escaped for an XML attribute value or element content.
std::string xmlEscape(std::string_view text);

}  // namespace latent::core
