// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/data/adjacency_table.hpp"

#include <algorithm>
#include <set>
#include <string>

namespace latent::core {

NumericTable adjacencyTable(const Graph& graph) {
  const auto n = static_cast<Eigen::Index>(graph.nodeCount());
  NumericTable table;
  table.rowNames = graph.nodeNames;
  table.featureNames = graph.nodeNames;
  table.values = Eigen::MatrixXd::Zero(n, n);
  for (const Edge& e : graph.edges) {
    table.values(e.source, e.target) = 1.0;
    if (!graph.directed) table.values(e.target, e.source) = 1.0;
  }
  // The labels: the first attribute that groups the nodes (an attribute with a value per node,
  // such as Sampson's "ucinet_label", does not).
  for (std::size_t a = 0; a < graph.attributeNames.size(); ++a) {
    const auto& values = graph.attributes[a];
    const std::set<std::string> distinct(values.begin(), values.end());
    if (distinct.size() >= 2 && distinct.size() <= std::max<std::size_t>(2, graph.nodeCount() / 2)) {
      table.labelName = graph.attributeNames[a];
      table.rowLabels = values;
      break;
    }
  }
  return table;
}

}  // namespace latent::core
