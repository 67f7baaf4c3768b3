// SPDX-License-Identifier: GPL-3.0-or-later
// Fitting a GB-EFH (004): by maximum likelihood, gradient ascent with the brief-sampling estimate
// of grad log Z (004 §3.2), or the Bayesian way (004 §3-4): a Gaussian prior on W with a mean and a
// spread per visible unit (004 eq. 7), the Langevin algorithm (004 eq. 13-17) drawing W from its
// posterior, the draws summarised for prediction, and the empirical Bayes M-step for the prior
// (004 eq. 24-27).
#pragma once

#include <cstdint>
#include <stop_token>

#include <Eigen/Core>

#include "core/models/harmonium/gaussian_hidden_efh.hpp"

namespace latent::core::harmonium {

// The prior of 004 eq. 7 with Sigma = diag(sigma^2): W_ij ~ N(mean_i, sd_i^2), each column iid.
struct EfhPrior {
  Eigen::VectorXd mean;  // mu, M
  Eigen::VectorXd sd;    // sigma, M

  static EfhPrior uniform(Eigen::Index visible, double mean, double sd);
  // 004 eq. 26-27: each visible unit's mean and spread over the hidden units of an estimate of W
  // (the ML estimate starts the empirical Bayes iterations).
  static EfhPrior fromWeights(const Eigen::MatrixXd& weights);
};

struct EfhSteps {
  double learningRate = 0.01;  // ML: W += rate * (mean over cases of the log-likelihood's gradient)
  double langevinStep = 0.0;   // epsilon of 004 eq. 13; 0: sqrt(2 rate / N), the ML step's drift
  int briefSteps = 1;          // l of the brief sampling (004 §3.2; 004 Fig. 4 favours 1)
  bool fitVisibleBias = true;  // theta by ML alongside W (004 §2 leaves it a point estimate)
};

class EfhTrainer {
 public:
  EfhTrainer(const EfhSteps& steps, EfhParameters initial, std::uint64_t seed);

  // One step of gradient ascent on the mean log-likelihood, grad log Z by brief sampling. Both
  // steps return false, the parameters as they were, when `stop` was requested during the step.
  bool maximumLikelihoodStep(const BinaryData& data, std::stop_token stop = {});
  // One transition of the Langevin chain (004 eq. 13): W += eps^2/2 grad log p(W | X) + eps noise,
  // with grad log p(W | X) = grad log p(W) + X^T X W - N grad log Z (004 eq. 14-17).
  bool langevinStep(const BinaryData& data, const EfhPrior& prior, std::stop_token stop = {});

  const EfhParameters& parameters() const { return m_params; }
  std::int64_t steps() const { return m_steps; }
  double langevinStepSize(Eigen::Index cases) const;

 private:
  // The summed gradient of the log-likelihood over the cases, grad log Z by brief sampling.
  bool likelihoodGradient(const BinaryData& data, std::stop_token stop);

  EfhSteps m_settings;
  EfhParameters m_params;
  std::uint64_t m_seed;
  std::int64_t m_steps = 0;
  BinaryData m_sampled;
  EfhStatistics m_data, m_model;
  Eigen::MatrixXd m_gradient;
  Eigen::VectorXd m_biasGradient;
};

// A running summary of posterior draws of W. W is identified only up to a rotation (004 eq. 28:
// W Q gives the same model for any orthogonal Q) and a Langevin chain drifts along it, so each
// draw is first rotated onto the first one (the orthogonal Procrustes solution) before it is
// averaged; W W^T needs no rotation and is averaged as drawn when asked for (M x M).
class PosteriorWeights {
 public:
  explicit PosteriorWeights(bool keepOuterProducts = false) : m_keepOuterProducts(keepOuterProducts) {}
  void add(const Eigen::MatrixXd& weights);

  std::int64_t draws() const { return m_draws; }
  Eigen::MatrixXd mean() const;
  Eigen::MatrixXd sd() const;  // elementwise, of the rotated draws
  // The posterior mean of V = W W^T (004 eq. 28, what 004 Fig. 5 scores); needs keepOuterProducts.
  Eigen::MatrixXd meanOuterProduct() const;

 private:
  bool m_keepOuterProducts;
  std::int64_t m_draws = 0;
  Eigen::MatrixXd m_reference, m_sum, m_sumSquares, m_outerSum;
};

// The empirical Bayes (Monte Carlo EM) M-step of 004 eq. 24-25: the draws of W since the last
// M-step, their mean and spread per visible unit over hidden units and draws.
class PriorUpdate {
 public:
  void add(const Eigen::MatrixXd& weights);
  std::int64_t draws() const { return m_draws; }
  // The new prior; spreads are kept at least `minimumSd`, so that a unit whose weights agree does
  // not pin its prior to a point. Clears the draws.
  EfhPrior estimate(double minimumSd);

 private:
  std::int64_t m_draws = 0;
  Eigen::Index m_hidden = 0;
  Eigen::VectorXd m_sum, m_sumSquares;
};

// 004 eq. 29-30: the mean absolute and mean relative error of an estimate of V = W W^T.
struct OuterProductErrors {
  double meanAbsolute = 0.0;
  double meanRelative = 0.0;
};
OuterProductErrors outerProductErrors(const Eigen::MatrixXd& truth, const Eigen::MatrixXd& estimate);

}  // namespace latent::core::harmonium
