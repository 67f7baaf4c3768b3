// SPDX-License-Identifier: GPL-3.0-or-later
// Exports of the multi-relational irm's own matrices: every relation's block matrix, the feature
// clusters and the feature densities (DESIGN §6). Block and cluster numbers are 0-based.
#include <string>

#include "core/io/csv_writer.hpp"
#include "core/io/run_export_detail.hpp"
#include "core/results/block_results.hpp"
#include "core/util/errors.hpp"

namespace latent::core::detail {
namespace {

std::string mirmRunName(const RunRecord& run) { return "run " + std::to_string(run.id) + " (" + run.model + ")"; }

// The run's final metric `key` as a list of names, or none.
std::vector<std::string> mirmNames(const RunRecord& run, const char* key) {
  std::vector<std::string> names;
  if (const auto it = run.finalMetrics.find(key); it != run.finalMetrics.end() && it->is_array())
    for (const auto& name : *it) names.push_back(name.is_string() ? name.get<std::string>() : std::string());
  return names;
}

std::string mirmName(const std::vector<std::string>& names, Eigen::Index i) {
  return static_cast<std::size_t>(i) < names.size() ? names[static_cast<std::size_t>(i)] : std::to_string(i);
}

}  // namespace

std::int64_t exportRelationBlockMatrices(Project& project, const RunRecord& run, std::ostream& out,
                                         std::optional<std::int64_t> iteration) {
  const auto chosen = chooseMatrix(project, run, kRelationBlockMatrices, iteration);
  const Eigen::Index k = chosen ? chosen->values.cols() : 0;
  if (!chosen || k == 0 || chosen->values.rows() % k != 0)
    throw UsageError(mirmRunName(run) + " has no block matrices of several relations");
  const auto names = mirmNames(run, "relations");
  CsvWriter csv(out);
  csv.field("relation").field("from_block").field("to_block").field("probability").endRow();
  for (Eigen::Index r = 0; r < chosen->values.rows() / k; ++r)
    for (Eigen::Index a = 0; a < k; ++a)
      for (Eigen::Index b = 0; b < k; ++b)
        csv.field(mirmName(names, r))
            .field(static_cast<std::int64_t>(a))
            .field(static_cast<std::int64_t>(b))
            .field(chosen->values(r * k + a, b))
            .endRow();
  return chosen->iteration;
}

std::int64_t exportFeatureBlocks(Project& project, const RunRecord& run, std::ostream& out,
                                 std::optional<std::int64_t> iteration) {
  const auto chosen = chooseMatrix(project, run, kFeatureBlocks, iteration);
  if (!chosen) throw UsageError(mirmRunName(run) + " has no feature clusters");
  const auto names = mirmNames(run, "features");
  CsvWriter csv(out);
  csv.field("feature").field("cluster").endRow();
  for (Eigen::Index f = 0; f < chosen->values.rows(); ++f)
    csv.field(mirmName(names, f)).field(static_cast<std::int64_t>(chosen->values(f, 0))).endRow();
  return chosen->iteration;
}

std::int64_t exportFeatureBlockMatrix(Project& project, const RunRecord& run, std::ostream& out,
                                      std::optional<std::int64_t> iteration) {
  const auto chosen = chooseMatrix(project, run, kFeatureBlockMatrix, iteration);
  if (!chosen) throw UsageError(mirmRunName(run) + " has no feature densities");
  CsvWriter csv(out);
  csv.field("block").field("feature_cluster").field("probability").endRow();
  for (Eigen::Index k = 0; k < chosen->values.rows(); ++k)
    for (Eigen::Index c = 0; c < chosen->values.cols(); ++c)
      csv.field(static_cast<std::int64_t>(k)).field(static_cast<std::int64_t>(c)).field(chosen->values(k, c)).endRow();
  return chosen->iteration;
}

}  // namespace latent::core::detail
