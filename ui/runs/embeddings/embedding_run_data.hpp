// SPDX-License-Identifier: GPL-3.0-or-later
// What the pages of an embedding run (lsa) read from the project, loaded off the GUI thread and
// shared read-only: the singular values, the words' and documents' coordinates (singular vectors
// times singular values), their names, and what the pages compute from them (each component's
// words at either end, nearest neighbours by cosine).
#pragma once

#include <QString>

#include <Eigen/Core>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/store/corpus_store.hpp"
#include "core/store/run_store.hpp"

namespace latent::ui {

// Words listed at each end of a component in the Components table.
inline constexpr int kComponentWords = 8;

struct EmbeddingRunData {
  core::RunRecord run;
  Eigen::VectorXd singularValues;  // K, largest first
  Eigen::MatrixXd words;           // V x K coordinates, W diag(s)
  Eigen::MatrixXd documents;       // D x K coordinates, U diag(s), corpus order; 0 x 0 when not stored
  std::vector<std::string> wordNames;
  std::vector<core::DocumentHeader> documentHeaders;
  double squaredNorm = 0.0;  // the weighted training matrix's; 0 when not recorded

  int componentCount() const noexcept { return static_cast<int>(singularValues.size()); }
  bool hasDocuments() const noexcept { return documents.rows() > 0; }
  // The share of the weighted training matrix's squared norm component k captures; NaN when unknown.
  double share(int k) const;
  QString documentName(int d) const;  // its title, else its id
};

struct EmbeddingRunLoad {
  std::shared_ptr<const EmbeddingRunData> data;  // null when the run holds no embeddings
  QString error;
};

// Reads the final result (an lsa run writes nothing before it).
EmbeddingRunLoad loadEmbeddingRun(const std::filesystem::path& projectFile, std::int64_t runId);

// The `count` rows with the largest (positive) or smallest (negative) value in column `component`.
std::vector<int> componentExtremes(const Eigen::MatrixXd& coordinates, int component, int count, bool positive);

struct Neighbour {
  int row = 0;
  double similarity = 0.0;  // cosine
};
// The `count` rows of `rows` most similar to `query` by cosine, most similar first, `exclude` left
// out (the query's own row); rows of zero length are never neighbours.
std::vector<Neighbour> nearestByCosine(const Eigen::MatrixXd& rows, const Eigen::RowVectorXd& query, int count,
                                       int exclude = -1);

}  // namespace latent::ui
