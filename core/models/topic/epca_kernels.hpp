// SPDX-License-Identifier: GPL-3.0-or-later
// Exponential-family PCA of documents (000 §27.2.2; Collins, Dasgupta & Schapire 2002) with K-
// dimensional z_d, word loadings W (V x K) and word biases b: each document's words drawn from
// softmax(W z_d + b) (multinomial, eq. 27.8), or each count x_dv from Poisson(exp(W z_d + b)_v)
// (eq. 27.9's Poisson case), which given the document's length is the same multinomial. The point
// estimates of 003 §3.5 (EPCA as point-posterior EM) with Gaussian priors on z_d and on W's
// entries, fitted by Adam on the log posterior; a held-out document's z by Newton's method with W
// and b fixed, conditioned on its length under either likelihood.
#pragma once

#include <cstdint>
#include <span>
#include <stop_token>
#include <vector>

#include <Eigen/Core>

#include "core/data/response_groups.hpp"
#include "core/models/topic/doc_word_counts.hpp"

namespace latent::core::topic {

struct EpcaState {
  Eigen::MatrixXd w;  // V x K
  Eigen::MatrixXd z;  // D x K
  Eigen::VectorXd b;  // V
};

enum class EpcaLikelihood { Multinomial, Poisson };

struct EpcaPriors {
  double zPrecision = 1.0;  // z_d ~ N(0, I / zPrecision)
  double wPrecision = 1.0;  // W's entries ~ N(0, 1 / wPrecision)
  EpcaLikelihood likelihood = EpcaLikelihood::Multinomial;
  // Categorical PCA (000 eq. 27.7): with the multinomial likelihood, a softmax within each
  // question's answers (W_r z + b_r) instead of one over the vocabulary; null: one softmax.
  const ResponseGroups* questions = nullptr;
};

// b the corpus's smoothed log word frequencies (per document, for the Poisson rates), W and z
// small seeded draws (so the start is the unigram model, its symmetry broken).
EpcaState initEpca(const DocWordCounts& counts, std::int64_t K, std::uint64_t seed,
                   EpcaLikelihood likelihood = EpcaLikelihood::Multinomial);

// The log posterior up to constants and its gradient (same shapes as the state): the data term
// sum_d sum_v x_dv log softmax(W z_d + b)_v (multinomial) or sum_d sum_v x_dv l_dv - exp(l_dv)
// with l = W z_d + b (Poisson, without its log x! constant), minus zPrecision/2 ||Z||^2 and
// wPrecision/2 ||W||^2. Each document's term is computed once, and the sums are added in an order
// fixed by the data. NaN when stopped.
double epcaObjective(const DocWordCounts& counts, const EpcaState& state, const EpcaPriors& priors, EpcaState* gradient,
                     std::stop_token stop);

// Adam's steps (Kingma & Ba 2015) over W, Z and b, for an ascent direction.
class EpcaAdam {
 public:
  explicit EpcaAdam(const EpcaState& shape);
  void apply(EpcaState& state, const EpcaState& gradient, double rate);

 private:
  EpcaState m_first, m_second;
  std::int64_t m_steps = 0;
};

// A document's z maximising sum_v n_v log softmax(W z + b)_v - zPrecision/2 ||z||^2 (concave: Newton
// steps with a backtracking line search), from z = 0; with `questions`, the softmax within each
// question's answers. `words` repeat as often as they occur.
Eigen::VectorXd epcaFoldIn(std::span<const std::int32_t> words, const Eigen::MatrixXd& w, const Eigen::VectorXd& b,
                           double zPrecision, const ResponseGroups* questions = nullptr, int maxIterations = 50);

// log softmax(W z + b) over the vocabulary, or within each question's answers.
Eigen::VectorXd epcaLogProbabilities(const Eigen::MatrixXd& w, const Eigen::VectorXd& b, const Eigen::VectorXd& z,
                                     const ResponseGroups* questions = nullptr);

// The low-rank part Z W^T in canonical form U diag(s) V^T (U D x K, V V x K orthonormal columns,
// s descending; each column of V's largest entry positive), which identifies the factors up to
// the rotation that leaves Z W^T unchanged.
struct EpcaCanonical {
  Eigen::VectorXd singularValues;
  Eigen::MatrixXd docVectors;   // U
  Eigen::MatrixXd wordVectors;  // V
};
EpcaCanonical epcaCanonical(const Eigen::MatrixXd& z, const Eigen::MatrixXd& w);

}  // namespace latent::core::topic
