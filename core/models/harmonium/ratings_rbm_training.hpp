// SPDX-License-Identifier: GPL-3.0-or-later
// Fitting the categorical RBM for ratings by CD-k (000 Alg. 27.3 with the conditionals of eq.
// 27.106-27.107; Salakhutdinov, Mnih & Hinton 2007 §2.2-2.3) in minibatches of users, with
// momentum and weight decay: each user's negative phase resamples only the items it rated, so
// the gradient of an item's weights comes from the users who rated it.
#pragma once

#include <cstdint>
#include <span>
#include <stop_token>
#include <vector>

#include <Eigen/Core>

#include "core/models/harmonium/ratings_rbm.hpp"
#include "core/models/harmonium/rbm_training.hpp"

namespace latent::core::harmonium {

// Weights ~ N(0, scale^2) (rows of items with no training rating stay zero), visible biases at
// the log of each item's level frequencies smoothed towards the training set's (the paper's
// "log of their respective base rates"), hidden biases zero.
RatingsRbmParameters initialRatingsParameters(const UserRatings& data, Eigen::Index hidden, std::uint64_t seed,
                                              double scale = 0.01);

class RatingsRbmTrainer {
 public:
  // Uses settings' momentum, weight decay, batch size and Gibbs steps (not persistent CD).
  RatingsRbmTrainer(const ContrastiveDivergence& settings, RatingsRbmParameters initial, std::uint64_t seed);

  // One pass over the users in `order`, a minibatch at a time, each followed by
  // W += momentum * dW_prev + rate * (gradient - weightDecay * W). False when `stop` was
  // requested; the parameters are then those after the last complete minibatch.
  bool epoch(const UserRatings& data, std::span<const Eigen::Index> order, double learningRate, std::stop_token stop);

  // The CD-k estimate of the gradient of the users' mean log-likelihood, mean_u log p(v_u), over
  // `rows`, without updating anything but the count of minibatches (which picks the streams).
  RatingsRbmParameters gradient(const UserRatings& data, std::span<const Eigen::Index> rows);

  const RatingsRbmParameters& parameters() const { return m_params; }
  // RMSE, over the last epoch's ratings, of the expected rating of the one-step reconstruction
  // p(v | h), h drawn from p(h | v): a monitor of training, not the likelihood.
  double reconstructionRmse() const { return m_reconstructionRmse; }
  std::int64_t updates() const { return m_updates; }

 private:
  // The minibatch's positive and negative statistics, each user alone (in parallel); returns the
  // summed squared reconstruction error.
  double sample(const UserRatings& data, std::span<const Eigen::Index> rows);
  // m_gradient and friends from the statistics, users in row order.
  void accumulate(const UserRatings& data, std::span<const Eigen::Index> rows);

  ContrastiveDivergence m_settings;
  RatingsRbmParameters m_params;
  RatingsRbmParameters m_velocity;
  RatingsRbmParameters m_gradient;
  std::uint64_t m_seed;
  std::int64_t m_updates = 0;
  double m_reconstructionRmse = 0.0;
  // Per minibatch: E[h | v] of the data and of the last reconstruction (B x K), and the
  // reconstruction's levels, at each user's offset.
  Eigen::MatrixXd m_dataHidden, m_negativeHidden;
  std::vector<std::int64_t> m_offsets;
  std::vector<std::int32_t> m_negativeLevels;
  std::vector<double> m_rowErrors;
};

}  // namespace latent::core::harmonium
