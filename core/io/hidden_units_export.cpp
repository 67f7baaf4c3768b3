// SPDX-License-Identifier: GPL-3.0-or-later
// The exports of harmoniums (the hidden-units family): their weights with the biases, and each
// document's (a ratings run's: each user's, a table's: each row's, a graph's: each node's) hidden
// activations. Units are numbered from 0; words are named by their text, a table's columns by their
// header, a graph's nodes by their display name.
#include "core/io/csv_writer.hpp"
#include "core/io/run_export_detail.hpp"
#include "core/results/hidden_results.hpp"
#include "core/store/corpus_store.hpp"
#include "core/store/graph_store.hpp"
#include "core/store/ratings_store.hpp"
#include "core/store/table_store.hpp"
#include "core/util/errors.hpp"

namespace latent::core::detail {
namespace {

// The names of a run's visible units: a corpus's words, a table's columns, a graph's nodes (an
// rbm fits its adjacency rows: core/data/adjacency_table.hpp).
std::vector<std::string> visibleUnitNames(Project& project, const RunRecord& run) {
  std::vector<std::string> names;
  const DataKind kind = project.dataset(run.datasetId).kind;
  if (kind == DataKind::Table) return loadTable(project, run.datasetId).featureNames;
  if (kind == DataKind::Graph) return loadGraph(project, run.datasetId).nodeNames;
  for (const auto& entry : loadVocabulary(project, run.datasetId)) names.push_back(entry.word);
  return names;
}

}  // namespace

std::int64_t exportHiddenWeights(Project& project, const RunRecord& run, std::ostream& out,
                                 std::optional<std::int64_t> iteration) {
  const auto weights = chooseMatrix(project, run, hidden::kWeights, iteration);
  const auto names = visibleUnitNames(project, run);
  if (!weights || static_cast<std::size_t>(weights->values.rows()) != names.size())
    throw UsageError("run " + std::to_string(run.id) + " (" + run.model + ") has no hidden-unit weights");
  // The biases of the same result or snapshot as the weights.
  const auto sameAsWeights = weights->iteration < 0 ? std::nullopt : std::optional(weights->iteration);
  const auto visibleBias = chooseMatrix(project, run, hidden::kVisibleBias, sameAsWeights);
  const auto hiddenBias = chooseMatrix(project, run, hidden::kHiddenBias, sameAsWeights);
  const auto& W = weights->values;
  CsvWriter csv(out);
  const DataKind kind = project.dataset(run.datasetId).kind;
  csv.field("unit")
      .field(kind == DataKind::Table   ? "feature"
             : kind == DataKind::Graph ? "node"
                                       : "word")
      .field("weight")
      .endRow();
  if (hiddenBias && hiddenBias->values.rows() == W.cols())
    for (Eigen::Index k = 0; k < W.cols(); ++k)
      csv.field(static_cast<std::int64_t>(k)).field("").field(hiddenBias->values(k, 0)).endRow();
  if (visibleBias && visibleBias->values.rows() == W.rows())
    for (Eigen::Index w = 0; w < W.rows(); ++w)
      csv.field("bias").field(names[static_cast<std::size_t>(w)]).field(visibleBias->values(w, 0)).endRow();
  for (Eigen::Index k = 0; k < W.cols(); ++k)
    for (Eigen::Index w = 0; w < W.rows(); ++w)
      csv.field(static_cast<std::int64_t>(k)).field(names[static_cast<std::size_t>(w)]).field(W(w, k)).endRow();
  return weights->iteration;
}

std::int64_t exportHiddenActivations(Project& project, const RunRecord& run, std::ostream& out,
                                     std::optional<std::int64_t> iteration) {
  const auto chosen = chooseMatrix(project, run, hidden::kHiddenActivations, iteration);
  // A categorical RBM on ratings (rbm-ratings) has a row per user, named by the imported user id;
  // a harmonium of a table a row per row, named by the table's row names.
  const DataKind kind = project.dataset(run.datasetId).kind;
  const bool ratings = kind == DataKind::Ratings;
  std::vector<std::string> ids;
  if (ratings) {
    ids = loadRatings(project, run.datasetId).userIds;
  } else if (kind == DataKind::Table) {
    ids = loadTable(project, run.datasetId).rowNames;
  } else if (kind == DataKind::Graph) {
    ids = loadGraph(project, run.datasetId).nodeNames;
  } else {
    for (const auto& document : listDocuments(project, run.datasetId)) ids.push_back(document.id);
  }
  if (!chosen || static_cast<std::size_t>(chosen->values.rows()) != ids.size())
    throw UsageError("run " + std::to_string(run.id) + " (" + run.model + ") has no hidden activations");
  const auto& values = chosen->values;
  CsvWriter csv(out);
  csv.field(ratings                   ? "user"
            : kind == DataKind::Table ? "row"
            : kind == DataKind::Graph ? "node"
                                      : "document")
      .field("unit")
      .field("activation")
      .endRow();
  for (Eigen::Index d = 0; d < values.rows(); ++d)
    for (Eigen::Index k = 0; k < values.cols(); ++k)
      csv.field(ids[static_cast<std::size_t>(d)]).field(static_cast<std::int64_t>(k)).field(values(d, k)).endRow();
  return chosen->iteration;
}

}  // namespace latent::core::detail
