// SPDX-License-Identifier: GPL-3.0-or-later
// What pmf stores, and predicted ratings computed from it: the one place that `predict`, the
// `factors` export and the recommendations agree on.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "core/models/training.hpp"
#include "core/results/factor_results.hpp"

namespace latent::core {

class RatingPredictor {
 public:
  // Throws UsageError when the matrices are not a factor model's.
  explicit RatingPredictor(const std::vector<NamedMatrix>& matrices);

  std::int64_t userCount() const noexcept { return m_users.rows(); }
  std::int64_t itemCount() const noexcept { return m_items.rows(); }
  std::int64_t factorCount() const noexcept { return m_items.cols(); }

  // mu + b_u + b_i + u_u . v_i, clipped to the training range (000 eq. 27.93).
  double predict(std::int64_t user, std::int64_t item) const;

  // For a user or an item the fit never saw (nullopt): mu plus the known side's bias, its factors
  // meeting the unseen side's prior mean of zero.
  double predictUnseen(std::optional<std::int64_t> user, std::optional<std::int64_t> item) const;

  // The n items with the highest predicted rating that `user` has not rated (`rated` lists the
  // items it has), best first, as (item, prediction).
  std::vector<std::pair<std::int64_t, double>> recommend(std::int64_t user, std::span<const std::int32_t> rated,
                                                         std::size_t n) const;

  // A new user's factors and bias from a few (item, rating) pairs without retraining: ridge
  // regression of r - mu - b_i on [v_i, 1] (000 eq. 27.92 with the items fixed), with the ridge
  // lambda x (number of ratings) on factors and bias alike (Funk's per-rating penalty).
  // Returns the factors with the bias as last entry (K + 1 values). With "item_implicit" the
  // returned factors are p + z, z = |N|^-1/2 sum of y_j over the given items, and the ridge pulls
  // them towards z rather than zero (the fit's user solve, pmf_als.hpp).
  Eigen::VectorXd foldInUser(std::span<const std::pair<std::int32_t, double>> ratings, double lambda) const;
  // The same with the fit's own penalties ("regularization": lambda on the factors, lambda_bias on
  // the bias, once or once per rating); runs without it fall back to the call above with lambda 0.05.
  Eigen::VectorXd foldInUser(std::span<const std::pair<std::int32_t, double>> ratings) const;
  // The prediction for a folded-in user (factors from foldInUser).
  double predictFolded(const Eigen::VectorXd& folded, std::int64_t item) const;

 private:
  double clip(double r) const noexcept;
  Eigen::VectorXd implicitSum(std::span<const std::pair<std::int32_t, double>> ratings) const;
  Eigen::MatrixXd m_users, m_items;
  Eigen::MatrixXd m_implicit;  // I x K, or empty
  Eigen::VectorXd m_userBias, m_itemBias;
  double m_mean = 0.0;
  double m_low = -1e300, m_high = 1e300;
  bool m_hasPenalty = false;
  double m_lambda = 0.05, m_lambdaBias = 0.05;
  bool m_perRating = true;
};

}  // namespace latent::core
