// SPDX-License-Identifier: GPL-3.0-or-later
// Retrieval precision-recall by cosine similarity (000 §27.7.3.1; Salakhutdinov & Hinton 2009 §5).
#include "core/eval/retrieval.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <unordered_map>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

namespace latent::core {
namespace {

// Rows scaled to unit length; a zero row stays zero, so its cosine with anything is 0.
Eigen::MatrixXd unitRows(const Eigen::MatrixXd& representation, std::span<const std::int64_t> rows) {
  Eigen::MatrixXd out(static_cast<Eigen::Index>(rows.size()), representation.cols());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto r = static_cast<Eigen::Index>(i);
    out.row(r) = representation.row(rows[i]);
    const double norm = out.row(r).norm();
    if (norm > 0.0) out.row(r) /= norm;
  }
  return out;
}

// The rank of the j-th relevant document at which a query of R relevant documents first reaches
// recall `level`: j = max(1, ceil(level R)), with a little slack for levels such as 0.3 x 10.
std::size_t relevantIndexForRecall(double level, std::size_t relevant) {
  const double wanted = std::ceil(level * static_cast<double>(relevant) - 1e-9);
  return std::clamp<std::size_t>(static_cast<std::size_t>(std::max(wanted, 1.0)), 1, relevant);
}

}  // namespace

std::vector<double> defaultRecallLevels() {
  return {0.0001, 0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1,
          0.2,    0.3,    0.4,    0.5,   0.6,   0.7,   0.8,  0.9,  1.0};
}

RetrievalResult evaluateRetrieval(const Eigen::MatrixXd& representation, std::span<const std::int64_t> queries,
                                  std::span<const std::int64_t> training, std::span<const int> labels,
                                  std::span<const double> recallLevels) {
  const auto D = representation.rows();
  if (static_cast<Eigen::Index>(labels.size()) != D)
    throw std::invalid_argument("retrieval: " + std::to_string(labels.size()) + " labels for " + std::to_string(D) +
                                " documents");
  const auto inRange = [D](std::int64_t d) { return d >= 0 && d < D; };
  if (!std::all_of(queries.begin(), queries.end(), inRange) || !std::all_of(training.begin(), training.end(), inRange))
    throw std::invalid_argument("retrieval: a document index is outside the representation's rows");

  RetrievalResult result;
  // The ranked set: the labelled training documents, in the order given.
  std::vector<std::int64_t> ranked;
  std::vector<int> rankedLabels;
  std::unordered_map<int, std::size_t> relevantCount;
  for (const auto d : training) {
    const int label = labels[static_cast<std::size_t>(d)];
    if (label < 0) {
      ++result.unlabelledTraining;
      continue;
    }
    ranked.push_back(d);
    rankedLabels.push_back(label);
    ++relevantCount[label];
  }
  result.rankedDocuments = static_cast<std::int64_t>(ranked.size());

  // The answered queries: labelled, with at least one relevant training document.
  std::vector<std::int64_t> answered;
  std::vector<std::size_t> answeredRelevant;
  for (const auto q : queries) {
    const int label = labels[static_cast<std::size_t>(q)];
    if (label < 0) {
      ++result.unlabelledQueries;
      continue;
    }
    const auto found = relevantCount.find(label);
    if (found == relevantCount.end()) {
      ++result.skippedQueries;
      continue;
    }
    answered.push_back(q);
    answeredRelevant.push_back(found->second);
  }
  result.queries = static_cast<std::int64_t>(answered.size());

  const std::size_t L = recallLevels.size();
  result.curve.resize(L);
  for (std::size_t l = 0; l < L; ++l) result.curve[l].recall = recallLevels[l];
  if (answered.empty()) return result;

  const Eigen::MatrixXd rankedUnit = unitRows(representation, ranked);
  const Eigen::MatrixXd queryUnit = unitRows(representation, answered);
  // Per query: its precision at each level, then its average precision (row L).
  Eigen::MatrixXd perQuery(static_cast<Eigen::Index>(L + 1), static_cast<Eigen::Index>(answered.size()));
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, answered.size(), 4), [&](const auto& range) {
    Eigen::VectorXd similarity;
    std::vector<std::size_t> order(ranked.size());
    std::vector<double> precisionAt;  // precisionAt[j - 1] = j / rank of the j-th relevant document
    for (std::size_t i = range.begin(); i != range.end(); ++i) {
      const auto column = static_cast<Eigen::Index>(i);
      similarity.noalias() = rankedUnit * queryUnit.row(column).transpose();
      std::iota(order.begin(), order.end(), std::size_t{0});
      std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return similarity(static_cast<Eigen::Index>(a)) > similarity(static_cast<Eigen::Index>(b));
      });
      const int label = labels[static_cast<std::size_t>(answered[i])];
      precisionAt.clear();
      for (std::size_t rank = 0; rank < order.size(); ++rank)
        if (rankedLabels[order[rank]] == label)
          precisionAt.push_back(static_cast<double>(precisionAt.size() + 1) / static_cast<double>(rank + 1));
      const std::size_t R = answeredRelevant[i];
      for (std::size_t l = 0; l < L; ++l)
        perQuery(static_cast<Eigen::Index>(l), column) = precisionAt[relevantIndexForRecall(recallLevels[l], R) - 1];
      perQuery(static_cast<Eigen::Index>(L), column) =
          std::accumulate(precisionAt.begin(), precisionAt.end(), 0.0) / static_cast<double>(R);
    }
  });

  // Summed in query order, so the thread count cannot change the last digits.
  const double n = static_cast<double>(answered.size());
  for (std::size_t l = 0; l < L; ++l) {
    double sum = 0.0;
    for (Eigen::Index i = 0; i < perQuery.cols(); ++i) sum += perQuery(static_cast<Eigen::Index>(l), i);
    result.curve[l].precision = sum / n;
  }
  double sum = 0.0;
  for (Eigen::Index i = 0; i < perQuery.cols(); ++i) sum += perQuery(static_cast<Eigen::Index>(L), i);
  result.meanAveragePrecision = sum / n;
  return result;
}

}  // namespace latent::core
