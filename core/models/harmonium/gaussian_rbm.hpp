// SPDX-License-Identifier: GPL-3.0-or-later
// The Gaussian RBM (000 §27.7.1.3) for real-valued data: Gaussian visible units, binary hidden
// units. 000 eq. 27.108 fixes every visible variance to 1; here each column r has its own
// variance s_r, in the parameterisation of Cho, Ilin & Raiko (2011, "Improved learning of
// Gaussian-Bernoulli restricted Boltzmann machines"):
//   E(v, h) = sum_r (v_r - b_r)^2 / (2 s_r) - sum_rk v_r W_rk h_k / s_r - c^T h,
// so that p(v | h) = N(b + W h, diag(s)) (eq. 27.110 with s = 1) and p(h_k = 1 | v) =
// sigm(c_k + sum_r W_rk v_r / s_r) (eq. 27.111). With s fixed to 1 on standardised data the hidden
// units can only add variance to columns that already have variance 1, so clusters tighter than
// the data's spread cannot be described: learning s is what lets the model fit them.
#pragma once

#include <cstdint>
#include <span>
#include <stop_token>
#include <vector>

#include <Eigen/Core>

#include "core/models/harmonium/binary_rbm.hpp"
#include "core/models/harmonium/rbm_training.hpp"
#include "core/util/random.hpp"

namespace latent::core::harmonium {

struct GaussianRbmParameters {
  RbmParameters rbm;         // W (R x K), b (R), c (K)
  Eigen::VectorXd variance;  // s (R), every entry positive

  GaussianRbmParameters() = default;
  GaussianRbmParameters(Eigen::Index visible, Eigen::Index hidden);  // zero W, b, c; s = 1
  Eigen::Index visible() const { return rbm.visible(); }
  Eigen::Index hidden() const { return rbm.hidden(); }
};

// E[h | v] of each row of `cases` (N x R) into `out` (N x K).
void gaussianHiddenProbabilities(const GaussianRbmParameters& p, const Eigen::MatrixXd& cases, Eigen::MatrixXd& out);

// F(v) = sum_r (v_r - b_r)^2 / (2 s_r) - sum_k softplus(c_k + sum_r W_rk v_r / s_r):
// p(v) = exp(-F(v)) / Z.
double gaussianFreeEnergy(const GaussianRbmParameters& p, const Eigen::Ref<const Eigen::VectorXd>& v);

// log Z = sum_r 1/2 log(2 pi s_r) + log sum_h exp(c^T h + sum_r ((b_r + (W h)_r)^2 - b_r^2) / (2 s_r)),
// the integral over v done in closed form and the sum over the 2^K hidden states by enumeration.
// Throws UsageError when K exceeds kMaxEnumeratedUnits.
double gaussianExactLogPartition(const GaussianRbmParameters& p);

// The mean log-density of the rows of `cases` (N x R), given log Z.
double gaussianMeanLogLikelihood(const GaussianRbmParameters& p, const Eigen::MatrixXd& cases, double logPartition);

// The root mean squared difference between each row and its reconstruction b + W E[h | v].
double gaussianReconstructionRmse(const GaussianRbmParameters& p, const Eigen::MatrixXd& cases);

// Exact draws (small K): h from its marginal p(h) by enumeration, then v ~ N(b + W h, diag(s)).
// For tests and planted data.
Eigen::MatrixXd gaussianRbmSamples(const GaussianRbmParameters& p, Eigen::Index count, std::uint64_t seed);

// How GaussianRbmTrainer learns: contrastive divergence's settings, and whether the variances are
// learnt (their log, by the same steps) or kept as they start.
struct GaussianRbmTraining {
  ContrastiveDivergence cd;
  bool learnVariance = true;
  // The least variance a column may shrink to, in the units of the data; without a floor a column
  // whose values repeat drives its variance, and the likelihood, towards a spike.
  double minimumVariance = 0.01;
};

// CD-k or persistent CD in minibatches with momentum and weight decay (000 §27.7.2, Alg. 27.3-27.4).
// With the variances fixed, CD's negative phase reconstructs v as the mean of p(v | h), h drawn
// from p(h | v): sampling v would only add noise to the gradient's estimate (Hinton 2010, A
// practical guide to training RBMs, §13.2). When they are learnt v is drawn, as their gradient
// compares spreads; PCD's particles always draw v, as a chain of the model must. The gradients are those of
// -E above: dW_rk = v_r h_k / s_r, db_r = (v_r - b_r) / s_r, dc_k = h_k and, for z_r = log s_r,
// dz_r = ((v_r - b_r)^2 / 2 - v_r (W h)_r) / s_r (data minus model, h at E[h | v]).
class GaussianRbmTrainer {
 public:
  GaussianRbmTrainer(const GaussianRbmTraining& settings, GaussianRbmParameters initial, std::uint64_t seed);

  // One pass over the rows of `cases` in `order`; false when `stop` was requested (the parameters
  // are those after the last complete minibatch).
  bool epoch(const Eigen::MatrixXd& cases, std::span<const Eigen::Index> order, double learningRate,
             std::stop_token stop);
  const GaussianRbmParameters& parameters() const { return m_params; }

 private:
  // h drawn from m_negative's probabilities into m_drawn, and E[v | h] = b + W h into m_reconstruction.
  void drawHidden(Rng& rng);
  // The negative phase: CD-k from m_batch, or PCD's particles moved on; leaves its visible states in
  // m_reconstruction and their E[h | v] in m_negative.
  void negativePhase(const Eigen::MatrixXd& cases, Rng& rng);
  // Sum over rows of d(-E)/dz for visible states `v` and hidden expectations `h`.
  Eigen::VectorXd logVarianceGradient(const Eigen::MatrixXd& v, const Eigen::MatrixXd& h) const;

  GaussianRbmTraining m_settings;
  GaussianRbmParameters m_params;
  std::uint64_t m_seed;
  std::int64_t m_updates = 0;
  RbmParameters m_velocity;
  Eigen::VectorXd m_logVarianceVelocity;
  Eigen::MatrixXd m_batch, m_positive, m_drawn, m_reconstruction, m_negative;
  Eigen::MatrixXd m_particles;  // PCD: the chains' visible states (S x R)
};

}  // namespace latent::core::harmonium
