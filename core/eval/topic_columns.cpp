// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/eval/topic_columns.hpp"

#include <stdexcept>

namespace latent::core {

FilledSparseMatrix filledTopics(const TopicColumns& topicWord, Eigen::Index vocabulary) {
  const double* fill = topicWord.fill();
  if (fill == nullptr) throw std::logic_error("filledTopics: the topics are not held as a fill and overrides");
  FilledSparseMatrix phi;
  phi.rows = topicWord.topics();
  phi.cols = vocabulary;
  phi.rowFill.assign(fill, fill + phi.rows);
  phi.columnStarts.reserve(static_cast<std::size_t>(vocabulary) + 1);
  phi.columnStarts.push_back(0);
  std::vector<TopicValue> overrides;
  for (Eigen::Index w = 0; w < vocabulary; ++w) {
    topicWord.overrides(static_cast<std::int32_t>(w), overrides);
    for (const auto& [k, value] : overrides) {
      phi.rowIndices.push_back(k);
      phi.values.push_back(value);
    }
    phi.columnStarts.push_back(static_cast<std::int64_t>(phi.values.size()));
  }
  return phi;
}

double topicDot(const double* theta, const double* phi, Eigen::Index topics) noexcept {
  // Four running sums, so that a term does not wait for the one before it.
  double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
  Eigen::Index k = 0;
  for (; k + 3 < topics; k += 4) {
    s0 += theta[k] * phi[k];
    s1 += theta[k + 1] * phi[k + 1];
    s2 += theta[k + 2] * phi[k + 2];
    s3 += theta[k + 3] * phi[k + 3];
  }
  for (; k < topics; ++k) s0 += theta[k] * phi[k];
  return (s0 + s1) + (s2 + s3);
}

}  // namespace latent::core
