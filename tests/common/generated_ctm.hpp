// SPDX-License-Identifier: GPL-3.0-or-later
// Corpora drawn from the correlated topic model with known topics and covariance, for ctm's unit
// tests and its recovery check in the evidence suite.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include "categorical_draw.hpp"
#include "core/data/corpus.hpp"
#include "core/data/synthetic_lda.hpp"
#include "core/util/random.hpp"

namespace latent::test {

struct GeneratedCtm {
  core::Corpus corpus;
  Eigen::MatrixXd topicWord;
  Eigen::MatrixXd sigma;
};

// Documents drawn from a CTM (000 eq. 27.50-27.54): four topics, the first two positively
// correlated in z, the last two negatively, mu = 0.
inline GeneratedCtm generateCtm(int documents, int length, std::uint64_t seed) {
  const int K = 4, V = 300;
  core::Rng rng(seed);
  GeneratedCtm out;
  out.topicWord.resize(K, V);
  for (int k = 0; k < K; ++k) out.topicWord.row(k) = core::sampleSymmetricDirichlet(rng, V, 0.05).transpose();
  out.sigma.resize(K, K);
  out.sigma << 1.0, 0.5, 0.0, 0.0, 0.5, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, -0.5, 0.0, 0.0, -0.5, 1.0;
  const Eigen::MatrixXd root = out.sigma.llt().matrixL();
  for (int v = 0; v < V; ++v) out.corpus.words.push_back("w" + std::to_string(v));
  std::vector<std::int32_t> words;
  for (int d = 0; d < documents; ++d) {
    Eigen::VectorXd e(K);
    for (int k = 0; k < K; ++k) e[k] = rng.normal();
    Eigen::VectorXd theta = (root * e).array().exp();
    theta /= theta.sum();
    words.clear();
    for (int t = 0; t < length; ++t) {
      const int k = drawIndex(rng, theta);
      words.push_back(drawIndex(rng, out.topicWord.row(k)));
    }
    out.corpus.addDocument("d" + std::to_string(d), "", words);
  }
  return out;
}

// The covariance of z's first K - 1 coordinates less the last (the model's parameters) from z's.
inline Eigen::MatrixXd referenceCovariance(const Eigen::MatrixXd& sigma) {
  const auto K = sigma.rows();
  Eigen::MatrixXd a = Eigen::MatrixXd::Zero(K - 1, K);
  a.leftCols(K - 1).setIdentity();
  a.col(K - 1).setConstant(-1.0);
  return a * sigma * a.transpose();
}

}  // namespace latent::test
