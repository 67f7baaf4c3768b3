// SPDX-License-Identifier: GPL-3.0-or-later
// A block model's run as a GEXF or GraphML file (DESIGN §6 `export --what gexf|graphml`): the graph
// it was fitted to with each node's block and memberships, placed by the same seeded layout as the
// app's drawing.
#include <string>

#include "core/data/graph_layout.hpp"
#include "core/io/graph_xml_export.hpp"
#include "core/io/run_export_detail.hpp"
#include "core/results/block_results.hpp"
#include "core/store/graph_store.hpp"
#include "core/store/run_results.hpp"
#include "core/util/errors.hpp"

namespace latent::core::detail {
namespace {

// Above this many nodes the file has no positions: a layout would take long, and Gephi lays out a
// large graph better with its own tools.
constexpr std::int64_t kExportLayoutNodes = 5'000;

std::int64_t exportGraphXml(Project& project, const RunRecord& run, std::ostream& out,
                            std::optional<std::int64_t> iteration, GraphXmlFormat format) {
  const std::string name = "run " + std::to_string(run.id) + " (" + run.model + ")";
  const auto graph = loadGraph(project, run.datasetId);
  const auto result = loadResult(project, run.id, {kMemberships}, {kBlocks}, iteration);
  if (!result) throw UsageError(name + " has no memberships");
  GraphNodeResults nodes;
  nodes.memberships = *result->find(kMemberships);
  const auto n = static_cast<Eigen::Index>(graph.nodeCount());
  if (nodes.memberships.rows() != n)
    throw UsageError(name + ": its memberships cover " + std::to_string(nodes.memberships.rows()) +
                     " nodes but the dataset has " + std::to_string(n));
  // The stored block (the posterior mode), else the largest membership.
  const Eigen::MatrixXd* blocks = result->find(kBlocks);
  nodes.blocks.resize(static_cast<std::size_t>(n));
  for (Eigen::Index v = 0; v < n; ++v) {
    Eigen::Index largest = 0;
    nodes.memberships.row(v).maxCoeff(&largest);
    const bool stored = blocks && blocks->rows() == n && (*blocks)(v, 0) >= 0 &&
                        (*blocks)(v, 0) < static_cast<double>(nodes.memberships.cols());
    nodes.blocks[static_cast<std::size_t>(v)] = static_cast<int>(stored ? (*blocks)(v, 0) : double(largest));
  }
  nodes.description = name + " of dataset " + project.dataset(run.datasetId).name +
                      (result->iteration >= 0 ? ", snapshot at iteration " + std::to_string(result->iteration) : "");
  if (n > 0 && n <= kExportLayoutNodes) nodes.positions = layoutGraph(n, graph.edges, kDrawingLayoutSeed);
  writeGraphXml(graph, nodes, format, out);
  return result->iteration;
}

}  // namespace

bool holdsGraphBlocks(Project& project, const RunRecord& run) {
  return project.dataset(run.datasetId).kind == DataKind::Graph && hasResultMatrix(project, run.id, kMemberships);
}

std::int64_t exportGexf(Project& project, const RunRecord& run, std::ostream& out,
                        std::optional<std::int64_t> iteration) {
  return exportGraphXml(project, run, out, iteration, GraphXmlFormat::Gexf);
}

std::int64_t exportGraphMl(Project& project, const RunRecord& run, std::ostream& out,
                           std::optional<std::int64_t> iteration) {
  return exportGraphXml(project, run, out, iteration, GraphXmlFormat::GraphMl);
}

}  // namespace latent::core::detail
