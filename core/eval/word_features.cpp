// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/eval/word_features.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/util/symmetric_eigen.hpp"

namespace latent::core {

WordFeatureRows wordFeatures(const Corpus& corpus, std::size_t vocabulary, std::span<const std::int64_t> documents) {
  const std::size_t rows = documents.empty() ? corpus.documentCount() : documents.size();
  std::vector<Eigen::Triplet<double>> entries;
  std::vector<std::int32_t> words;
  std::vector<std::pair<std::int32_t, double>> row;
  for (std::size_t r = 0; r < rows; ++r) {
    const auto d = documents.empty() ? r : static_cast<std::size_t>(documents[r]);
    const auto tokens = corpus.document(d);
    words.assign(tokens.begin(), tokens.end());
    std::sort(words.begin(), words.end());
    row.clear();
    double squares = 0.0;
    for (std::size_t i = 0; i < words.size();) {
      std::size_t j = i;
      while (j < words.size() && words[j] == words[i]) ++j;
      if (words[i] >= 0 && static_cast<std::size_t>(words[i]) < vocabulary) {
        const double value = std::log1p(static_cast<double>(j - i));
        row.emplace_back(words[i], value);
        squares += value * value;
      }
      i = j;
    }
    const double scale = squares > 0.0 ? 1.0 / std::sqrt(squares) : 0.0;
    for (const auto& [word, value] : row)
      entries.emplace_back(static_cast<int>(r), static_cast<int>(word), value * scale);
  }
  WordFeatureRows features(static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(vocabulary));
  features.setFromTriplets(entries.begin(), entries.end());
  return features;
}

bool reducingWordFeaturesPays(const WordFeatureRows& training) {
  const auto documents = static_cast<double>(training.rows());
  return training.rows() <= 3000 && training.rows() <= training.cols() &&
         documents * documents < static_cast<double>(training.nonZeros());
}

ReducedWordFeatures reduceWordFeatures(const WordFeatureRows& training) {
  const Eigen::MatrixXd kernel = Eigen::MatrixXd(training * training.transpose());
  const SymmetricEigen eigen = symmetricEigen(kernel);
  const Eigen::VectorXd& values = eigen.values;  // ascending
  const double largest = values.size() > 0 ? std::max(values[values.size() - 1], 0.0) : 0.0;
  // Directions with a negligible eigenvalue are rounding error of a rank-deficient kernel
  // (repeated documents, empty ones).
  Eigen::Index first = 0;
  while (first < values.size() && values[first] <= 1e-10 * largest) ++first;
  const Eigen::Index rank = values.size() - first;
  ReducedWordFeatures reduced;
  const auto vectors = eigen.vectors.rightCols(rank);
  const Eigen::ArrayXd roots = values.tail(rank).array().sqrt();
  reduced.train = vectors * roots.matrix().asDiagonal();
  reduced.mapper = vectors * roots.inverse().matrix().asDiagonal();
  return reduced;
}

Eigen::MatrixXd ReducedWordFeatures::map(const WordFeatureRows& training, const WordFeatureRows& other) const {
  const Eigen::MatrixXd cross = Eigen::MatrixXd(other * training.transpose());  // other x training
  return cross * mapper;
}

}  // namespace latent::core
