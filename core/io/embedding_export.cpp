// SPDX-License-Identifier: GPL-3.0-or-later
// Exporters of the embeddings family (lsa): words' and documents' coordinates and the singular
// values. Words by their text, documents by their source id, components 0-based.
#include <string>

#include "core/io/csv_writer.hpp"
#include "core/io/run_export_detail.hpp"
#include "core/results/embedding_results.hpp"
#include "core/store/corpus_store.hpp"
#include "core/util/errors.hpp"

namespace latent::core::detail {
namespace {

// The singular values of the run's result, which scale both sides' coordinates.
Eigen::VectorXd embeddingScales(Project& project, const RunRecord& run, std::optional<std::int64_t> iteration) {
  const auto values = chooseMatrix(project, run, embedding::kSingularValues, iteration);
  if (!values || values->values.cols() != 1)
    throw UsageError("run " + std::to_string(run.id) + " (" + run.model + ") has no singular values");
  return values->values.col(0);
}

}  // namespace

std::int64_t exportWordEmbeddings(Project& project, const RunRecord& run, std::ostream& out,
                                  std::optional<std::int64_t> iteration) {
  const auto chosen = chooseMatrix(project, run, embedding::kWordVectors, iteration);
  const auto vocabulary = loadVocabulary(project, run.datasetId);
  const Eigen::VectorXd scales = embeddingScales(project, run, iteration);
  if (!chosen || static_cast<std::size_t>(chosen->values.rows()) != vocabulary.size() ||
      chosen->values.cols() != scales.size())
    throw UsageError("run " + std::to_string(run.id) + " (" + run.model + ") has no word vectors");
  CsvWriter csv(out);
  csv.field("word").field("component").field("value").endRow();
  for (Eigen::Index v = 0; v < chosen->values.rows(); ++v)
    for (Eigen::Index k = 0; k < chosen->values.cols(); ++k)
      csv.field(vocabulary[static_cast<std::size_t>(v)].word)
          .field(static_cast<std::int64_t>(k))
          .field(chosen->values(v, k) * scales[k])
          .endRow();
  return chosen->iteration;
}

std::int64_t exportDocEmbeddings(Project& project, const RunRecord& run, std::ostream& out,
                                 std::optional<std::int64_t> iteration) {
  const auto chosen = chooseMatrix(project, run, embedding::kDocVectors, iteration);
  const auto documents = listDocuments(project, run.datasetId);
  const Eigen::VectorXd scales = embeddingScales(project, run, iteration);
  if (!chosen || static_cast<std::size_t>(chosen->values.rows()) != documents.size() ||
      chosen->values.cols() != scales.size())
    throw UsageError("run " + std::to_string(run.id) + " (" + run.model + ") has no document vectors");
  CsvWriter csv(out);
  csv.field("document").field("component").field("value").endRow();
  for (Eigen::Index d = 0; d < chosen->values.rows(); ++d)
    for (Eigen::Index k = 0; k < chosen->values.cols(); ++k)
      csv.field(documents[static_cast<std::size_t>(d)].id)
          .field(static_cast<std::int64_t>(k))
          .field(chosen->values(d, k) * scales[k])
          .endRow();
  return chosen->iteration;
}

std::int64_t exportSingularValues(Project& project, const RunRecord& run, std::ostream& out,
                                  std::optional<std::int64_t> iteration) {
  const Eigen::VectorXd values = embeddingScales(project, run, iteration);
  const auto norm = run.finalMetrics.find(embedding::kTrainSquaredNorm);
  const double total = norm != run.finalMetrics.end() && norm->is_number() ? norm->get<double>() : 0.0;
  CsvWriter csv(out);
  csv.field("component").field("singular_value").field("share").endRow();
  for (Eigen::Index k = 0; k < values.size(); ++k) {
    csv.field(static_cast<std::int64_t>(k)).field(values[k]);
    if (total > 0)
      csv.field(values[k] * values[k] / total);
    else
      csv.field("");
    csv.endRow();
  }
  return -1;
}

}  // namespace latent::core::detail
