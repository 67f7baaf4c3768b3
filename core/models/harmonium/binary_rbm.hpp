// SPDX-License-Identifier: GPL-3.0-or-later
// The binary restricted Boltzmann machine (000 §27.7.1.1): its parameters, the two conditionals,
// the free energy, and what can be computed exactly when one layer is small enough to enumerate
// (the partition function, 000 Exercise 27.1, and the likelihood's gradient, 000 eq. 27.112).
#pragma once

#include <cstdint>

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include "core/util/random.hpp"

namespace latent::core::harmonium {

// Cases are rows: a data set of N cases over R visible units is N x R, with entries 0 or 1.
// Word occurrences and adjacency rows are sparse, hence the sparse type.
using BinaryData = Eigen::SparseMatrix<double, Eigen::RowMajor>;

// theta = (W, b, c) of 000 eq. 27.98: E(v, h) = -(v^T W h + v^T b + h^T c).
struct RbmParameters {
  Eigen::MatrixXd weights;      // W, R x K
  Eigen::VectorXd visibleBias;  // b, R
  Eigen::VectorXd hiddenBias;   // c, K

  RbmParameters() = default;
  RbmParameters(Eigen::Index visible, Eigen::Index hidden);  // all zero
  Eigen::Index visible() const { return weights.rows(); }
  Eigen::Index hidden() const { return weights.cols(); }
};

// log(1 + e^x) without overflow.
double softplus(double x) noexcept;
// 1 / (1 + e^-x).
double sigmoid(double x) noexcept;

// E[h | v] = sigm(c + W^T v) for each row of `visible` (000 eq. 27.103): `out` is N x K.
void hiddenProbabilities(const RbmParameters& p, const Eigen::MatrixXd& visible, Eigen::MatrixXd& out);
void hiddenProbabilities(const RbmParameters& p, const BinaryData& visible, Eigen::MatrixXd& out);
// E[v | h] = sigm(b + W h) for each row of `hidden` (000 eq. 27.104): `out` is N x R.
void visibleProbabilities(const RbmParameters& p, const Eigen::MatrixXd& hidden, Eigen::MatrixXd& out);
using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using RowMatrixF = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Replaces each probability by a draw of Ber(probability); row i draws from rngs[i].
void sampleBernoulliRows(Eigen::MatrixXd& probabilities, Rng* rngs);
// Draws Ber(probability) for each entry, row i from rngs[i] in column order (the draws of
// sampleBernoulliRows), into `out` as a sparse 0/1 matrix: words drawn for a document are few, so
// the products that follow read only them. `probabilities` is overwritten by the draws; single
// precision, as the probabilities that only steer draws are computed (rbm_training.cpp).
void sampleBernoulliRows(RowMatrixF& probabilities, Rng* rngs, BinaryData& out);

// F(v) = -b^T v - sum_k softplus(c_k + W_:k^T v), so that p(v) = exp(-F(v)) / Z (000 eq. 27.114-
// 27.117, which leave the biases out).
double freeEnergy(const RbmParameters& p, const Eigen::Ref<const Eigen::VectorXd>& v);

// log Z (000 eq. 27.100), summing over the smaller layer: O(R 2^K) or O(K 2^R) (000 Exercise 27.1).
// Throws UsageError when the smaller layer has more than kMaxEnumeratedUnits units.
inline constexpr Eigen::Index kMaxEnumeratedUnits = 24;
double exactLogPartition(const RbmParameters& p);
bool canEnumerate(const RbmParameters& p) noexcept;

// The mean log-likelihood of the cases, -mean F(v_i) - log Z (000 eq. 27.118), given log Z.
double meanLogLikelihood(const RbmParameters& p, const BinaryData& data, double logPartition);

// The gradient of the mean log-likelihood (000 eq. 27.112): data expectations minus model
// expectations, the latter summed exactly over the hidden layer (small K only). For tests and for
// checking contrastive divergence against the truth.
RbmParameters exactGradient(const RbmParameters& p, const BinaryData& data);

// The mean over cases of sum_r log p(v_r | v_-r) (Besag's pseudo-log-likelihood), exactly: each
// unit's conditional is sigm(F(v with r flipped) - F(v)), O(R K) per case.
double meanPseudoLogLikelihood(const RbmParameters& p, const BinaryData& data);

// The log-odds of each unit's rate in the data, smoothed by half a case either way: the biases of
// independent units fitted to the data (the start of training, and AIS's base model).
Eigen::VectorXd baseRateBiases(const BinaryData& data);

// A dense copy of row i of `data`.
Eigen::VectorXd denseRow(const BinaryData& data, Eigen::Index i);

}  // namespace latent::core::harmonium
