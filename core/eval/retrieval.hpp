// SPDX-License-Identifier: GPL-3.0-or-later
// Document retrieval by cosine similarity of document representations: the precision-recall curve
// and mean average precision of held-out queries against the training documents (000 §27.7.3.1,
// Fig. 27.33; Salakhutdinov & Hinton 2009 §5).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <Eigen/Core>

namespace latent::core {

// Recall levels of the curve: 1-2-5 steps from 0.0001 to 0.1, then every tenth up to 1.
std::vector<double> defaultRecallLevels();

struct RetrievalCurvePoint {
  double recall = 0.0;     // the level asked for
  double precision = 0.0;  // mean over the answered queries
};

struct RetrievalResult {
  std::vector<RetrievalCurvePoint> curve;  // one point per recall level, in the order given
  double meanAveragePrecision = 0.0;       // mean over the answered queries of their average precision
  std::int64_t queries = 0;                // answered queries (labelled, with a relevant training document)
  std::int64_t skippedQueries = 0;         // labelled queries whose label no training document has
  std::int64_t unlabelledQueries = 0;      // held-out documents without a label (excluded)
  std::int64_t unlabelledTraining = 0;     // training documents without a label (not ranked)
  std::int64_t rankedDocuments = 0;        // labelled training documents, ranked for every query
};

// `representation` holds one row per document (D x K); `queries` and `training` are row indices
// (the held-out and the training documents); `labels` has one entry per document, negative for a
// document without a label. Every labelled training document is ranked for every labelled query by
// the cosine similarity of their rows, most similar first (a zero row is similar to nothing: 0);
// equal similarities keep the order of `training`. A retrieved document is relevant when its label
// is the query's.
//
// For a query with R relevant documents, the precision at recall level r is taken where the query
// first reaches that recall: j / rank_j, with j = max(1, ceil(r R)) and rank_j the rank of the
// j-th relevant document (not interpolated). Its average precision is (1/R) sum_j j / rank_j. The
// curve and MAP average these over the answered queries, each query weighing the same.
// Parallel over queries (oneTBB), summed in query order: the same numbers for any thread count.
// Throws std::invalid_argument when an index is out of range or `labels` has the wrong size.
RetrievalResult evaluateRetrieval(const Eigen::MatrixXd& representation, std::span<const std::int64_t> queries,
                                  std::span<const std::int64_t> training, std::span<const int> labels,
                                  std::span<const double> recallLevels);

}  // namespace latent::core
