// SPDX-License-Identifier: GPL-3.0-or-later
// Exports of block models (blocks, memberships, block matrix) and factor models (factors), keyed
// by the ids of the imported files (DESIGN §6). Block and factor numbers are 0-based, like topics.
#include <string>

#include "core/io/csv_writer.hpp"
#include "core/io/run_export_detail.hpp"
#include "core/results/block_results.hpp"
#include "core/results/factor_results.hpp"
#include "core/store/graph_store.hpp"
#include "core/store/ratings_store.hpp"
#include "core/store/run_results.hpp"
#include "core/util/errors.hpp"

namespace latent::core::detail {
namespace {

std::string runName(const RunRecord& run) { return "run " + std::to_string(run.id) + " (" + run.model + ")"; }

// A per-node matrix of the run, checked against the graph it was fitted to.
ChosenMatrix nodeMatrix(Project& project, const RunRecord& run, const Graph& graph, const char* name, const char* what,
                        std::optional<std::int64_t> iteration) {
  auto chosen = chooseMatrix(project, run, name, iteration);
  if (!chosen) throw UsageError(runName(run) + " has no " + what);
  if (static_cast<std::size_t>(chosen->values.rows()) != graph.nodeCount())
    throw UsageError(runName(run) + ": its " + what + " cover " + std::to_string(chosen->values.rows()) +
                     " nodes but the dataset has " + std::to_string(graph.nodeCount()));
  return std::move(*chosen);
}

}  // namespace

std::int64_t exportBlocks(Project& project, const RunRecord& run, std::ostream& out,
                          std::optional<std::int64_t> iteration) {
  const auto graph = loadGraph(project, run.datasetId);
  const auto blocks = nodeMatrix(project, run, graph, kBlocks, "block assignments", iteration);
  CsvWriter csv(out);
  csv.field("node").field("name").field("block").endRow();
  for (std::size_t v = 0; v < graph.nodeCount(); ++v)
    csv.field(graph.nodeIds[v])
        .field(graph.nodeNames[v])
        .field(static_cast<std::int64_t>(blocks.values(static_cast<Eigen::Index>(v), 0)))
        .endRow();
  return blocks.iteration;
}

std::int64_t exportMemberships(Project& project, const RunRecord& run, std::ostream& out,
                               std::optional<std::int64_t> iteration) {
  const auto graph = loadGraph(project, run.datasetId);
  const auto m = nodeMatrix(project, run, graph, kMemberships, "memberships", iteration);
  CsvWriter csv(out);
  csv.field("node").field("name").field("block").field("weight").endRow();
  for (std::size_t v = 0; v < graph.nodeCount(); ++v)
    for (Eigen::Index k = 0; k < m.values.cols(); ++k)
      csv.field(graph.nodeIds[v])
          .field(graph.nodeNames[v])
          .field(static_cast<std::int64_t>(k))
          .field(m.values(static_cast<Eigen::Index>(v), k))
          .endRow();
  return m.iteration;
}

std::int64_t exportBlockMatrix(Project& project, const RunRecord& run, std::ostream& out,
                               std::optional<std::int64_t> iteration) {
  const auto chosen = chooseMatrix(project, run, kBlockMatrix, iteration);
  if (!chosen || chosen->values.rows() != chosen->values.cols())
    throw UsageError(runName(run) + " has no block matrix");
  CsvWriter csv(out);
  csv.field("from_block").field("to_block").field("probability").endRow();
  for (Eigen::Index k = 0; k < chosen->values.rows(); ++k)
    for (Eigen::Index l = 0; l < chosen->values.cols(); ++l)
      csv.field(static_cast<std::int64_t>(k)).field(static_cast<std::int64_t>(l)).field(chosen->values(k, l)).endRow();
  return chosen->iteration;
}

std::int64_t exportFactors(Project& project, const RunRecord& run, std::ostream& out,
                           std::optional<std::int64_t> iteration) {
  const auto ratings = loadRatings(project, run.datasetId);
  // One iteration for all of them: the final result, else the latest snapshot holding both factors.
  const auto result =
      loadResult(project, run.id, {kUserFactors, kItemFactors}, {kUserBias, kItemBias, kGlobalMean}, iteration);
  if (!result) throw UsageError(runName(run) + " has no " + std::string(kUserFactors));
  const Eigen::MatrixXd& users = *result->find(kUserFactors);
  const Eigen::MatrixXd& items = *result->find(kItemFactors);
  if (static_cast<std::size_t>(users.rows()) != ratings.userCount() ||
      static_cast<std::size_t>(items.rows()) != ratings.itemCount())
    throw UsageError(runName(run) + ": its factors do not match the dataset's users and items");
  const Eigen::MatrixXd* userBias = result->find(kUserBias);
  const Eigen::MatrixXd* itemBias = result->find(kItemBias);
  const Eigen::MatrixXd* mean = result->find(kGlobalMean);
  CsvWriter csv(out);
  csv.field("side").field("id").field("name").field("factor").field("value").endRow();
  if (mean && mean->size() == 1) csv.field("global").field("").field("").field("mean").field((*mean)(0, 0)).endRow();
  const auto side = [&](const char* label, const std::vector<std::string>& ids, const std::vector<std::string>& names,
                        const Eigen::MatrixXd& factors, const Eigen::MatrixXd* bias) {
    for (std::size_t r = 0; r < ids.size(); ++r) {
      const auto row = static_cast<Eigen::Index>(r);
      const std::string& name = r < names.size() && !names[r].empty() ? names[r] : ids[r];
      if (bias && bias->rows() == factors.rows())
        csv.field(label).field(ids[r]).field(name).field("bias").field((*bias)(row, 0)).endRow();
      for (Eigen::Index k = 0; k < factors.cols(); ++k)
        csv.field(label).field(ids[r]).field(name).field(static_cast<std::int64_t>(k)).field(factors(row, k)).endRow();
    }
  };
  side("user", ratings.userIds, ratings.userIds, users, userBias);
  side("item", ratings.itemIds, ratings.itemNames, items, itemBias);
  return result->iteration;
}

}  // namespace latent::core::detail
