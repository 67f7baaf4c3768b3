// SPDX-License-Identifier: GPL-3.0-or-later
// What pmf stores, and predicted ratings computed from it: the one place that `predict`, the
// `factors` export and the recommendations agree on.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "models/training.hpp"

namespace latent::core {

// Matrix names in FitResult::matrices and snapshots (U users, I items, K factors):
//   "user_factors" U x K, "item_factors" I x K   (000 eq. 27.86: r_ui ~ u_u . v_i)
//   "user_bias" U x 1, "item_bias" I x 1, "global_mean" 1 x 1   (000 eq. 27.93)
//   "rating_range" 1 x 2   the smallest and largest training rating; predictions are clipped to it
//   "regularization" 1 x 3 (optional) lambda, lambda_bias and the penalty (0: once per user, the
//                          prior of eq. 27.92; 1: per rating): what foldInUser needs to treat a new
//                          user as the fit treated every user
//   "item_implicit" I x K (optional) y_j of implicit feedback (SVD++, Koren 2008): the fit's user
//                          factors already include |N(u)|^-1/2 sum_{j in N(u)} y_j, so predictions
//                          need it only to fold in a new user, whose N(u) is the items given
inline constexpr const char* kUserFactors = "user_factors";
inline constexpr const char* kItemFactors = "item_factors";
inline constexpr const char* kUserBias = "user_bias";
inline constexpr const char* kItemBias = "item_bias";
inline constexpr const char* kGlobalMean = "global_mean";
inline constexpr const char* kRatingRange = "rating_range";
inline constexpr const char* kRegularization = "regularization";
inline constexpr const char* kItemImplicit = "item_implicit";

class RatingPredictor {
 public:
  // Throws UsageError when the matrices are not a factor model's.
  explicit RatingPredictor(const std::vector<NamedMatrix>& matrices);

  std::int64_t userCount() const noexcept { return m_users.rows(); }
  std::int64_t itemCount() const noexcept { return m_items.rows(); }
  std::int64_t factorCount() const noexcept { return m_items.cols(); }

  // mu + b_u + b_i + u_u . v_i, clipped to the training range (000 eq. 27.93).
  double predict(std::int64_t user, std::int64_t item) const;

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
