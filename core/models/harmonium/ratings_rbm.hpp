// SPDX-License-Identifier: GPL-3.0-or-later
// The categorical RBM for ratings (Salakhutdinov, Mnih & Hinton 2007; 000 §27.7.1.2, eq. 27.105-
// 27.107, and §27.7.3.2): each user is an RBM of its own with one softmax visible unit over the R
// rating levels per item it rated, binary hidden units, and weights W[i][r][k] and biases
// b[i][r], c[k] shared by every user. Here: the users' ratings as level indices, the parameters,
// the two conditionals, the hidden mean-field and the predicted rating of the paper, and the
// predictor that `predict` and `recommend` use on a stored run.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "core/data/named_matrix.hpp"
#include "core/data/ratings.hpp"

namespace latent::core::harmonium {

// More distinct rating values than this are not rating levels but a continuous scale.
inline constexpr std::size_t kMaxRatingLevels = 32;

// The distinct rating values of `ratings`, ascending. Throws UsageError when there are more than
// kMaxRatingLevels or none.
std::vector<double> ratingLevels(std::span<const Rating> ratings);

// The index of the level closest to `value` (a new user's 4.5 on a 1-5 scale counts as 4 or 5).
int nearestLevel(const std::vector<double>& levels, double value);

// One user's training ratings as (item, level index) pairs, users in dataset order (compressed rows).
struct UserRatings {
  std::int32_t users = 0, items = 0;
  std::vector<double> levels;             // the R rating values
  std::vector<std::int64_t> start;        // users + 1 offsets
  std::vector<std::int32_t> item;         // per rating
  std::vector<std::int32_t> level;        // per rating, index into levels
  std::vector<std::int64_t> itemRatings;  // training ratings per item
  std::vector<double> itemMean;           // mean training rating per item (0 without one)
  double mean = 0.0;                      // mean training rating
  std::int64_t count = 0;

  static UserRatings build(std::span<const Rating> ratings, std::int32_t users, std::int32_t items,
                           std::vector<double> levels);
  std::int64_t degree(std::int32_t u) const noexcept { return start[u + 1] - start[u]; }
  Eigen::Index levelCount() const noexcept { return static_cast<Eigen::Index>(levels.size()); }
};

// theta = (W, b, c) of 000 eq. 27.105 with C = R levels per item:
// E(v, h) = -sum_i sum_r sum_k v_i^r h_k W_ik^r - sum_i sum_r v_i^r b_i^r - sum_k h_k c_k, the sums
// over the items the user rated.
struct RatingsRbmParameters {
  Eigen::Index levels = 0;      // R
  Eigen::MatrixXd weights;      // (I R) x K, row i R + r is W_i^r
  Eigen::MatrixXd visibleBias;  // I x R, b_i^r
  Eigen::VectorXd hiddenBias;   // c, K

  RatingsRbmParameters() = default;
  RatingsRbmParameters(Eigen::Index items, Eigen::Index levelCount, Eigen::Index hidden);  // all zero
  Eigen::Index items() const { return visibleBias.rows(); }
  Eigen::Index hidden() const { return weights.cols(); }
  Eigen::Index row(Eigen::Index item, Eigen::Index level) const { return item * levels + level; }
};

// c + sum over the (item, level) pairs of W_i^r: the input of the hidden units (eq. 27.107).
void ratingsHiddenInput(const RatingsRbmParameters& p, std::span<const std::int32_t> items,
                        std::span<const std::int32_t> levels, Eigen::Ref<Eigen::VectorXd> out);
// p(h_k = 1 | v) = sigm(c_k + sum_i W_ik^{r_i}) (eq. 27.107), and also the paper's mean-field
// p-hat_j of the hidden units given the user's observed ratings.
void ratingsHiddenProbabilities(const RatingsRbmParameters& p, std::span<const std::int32_t> items,
                                std::span<const std::int32_t> levels, Eigen::Ref<Eigen::VectorXd> out);
// p(v_i = r | h) = S({b_i^r + sum_k h_k W_ik^r}_r) (eq. 27.106) for one item: `out` has R entries.
// With h the mean-field p-hat this is the paper's predictive distribution of an unrated item.
void ratingsLevelProbabilities(const RatingsRbmParameters& p, Eigen::Index item,
                               const Eigen::Ref<const Eigen::VectorXd>& hidden, Eigen::Ref<Eigen::VectorXd> out);
// The expected rating sum_r levels[r] p(v_i = r | hidden) (the paper's prediction).
double ratingsExpectedRating(const RatingsRbmParameters& p, const std::vector<double>& levels, Eigen::Index item,
                             const Eigen::Ref<const Eigen::VectorXd>& hidden);

// The mean-field hidden probabilities of every user from its training ratings: U x K, users in
// dataset order (computed in parallel, each row alone, so the same for any thread count).
Eigen::MatrixXd ratingsUserActivations(const RatingsRbmParameters& p, const UserRatings& data);

// The predictions of `pairs` by the paper's rule (hidden mean-field of the user's training
// ratings, then the expected level), with the fallbacks of a factor model without factors: a user
// with no training rating gets the item's mean training rating, an item with none the training
// mean. `activations` is ratingsUserActivations(p, data).
std::vector<double> ratingsPredictions(const RatingsRbmParameters& p, const UserRatings& data,
                                       const Eigen::MatrixXd& activations, std::span<const Rating> pairs);

// The stored matrices (results/hidden_results.hpp): rating_weights, rating_visible_bias,
// hidden_bias and rating_levels.
std::vector<NamedMatrix> ratingsParameterMatrices(const RatingsRbmParameters& p, const std::vector<double>& levels);

// Predicted ratings from a stored run and the training ratings of its split: what `predict` and
// `recommend` use, so that they agree with the held-out RMSE the fit reported.
class RatingsRbmPredictor {
 public:
  // Throws UsageError when the matrices are not a categorical RBM's or do not fit the dataset.
  RatingsRbmPredictor(const std::vector<NamedMatrix>& matrices, std::span<const Rating> training, std::int32_t users,
                      std::int32_t items);

  std::int64_t itemCount() const noexcept { return m_params.items(); }
  double predict(std::int64_t user, std::int64_t item) const;
  // The n items with the highest prediction that the user has not rated (`rated`), best first.
  std::vector<std::pair<std::int64_t, double>> recommend(std::int64_t user, std::span<const std::int32_t> rated,
                                                         std::size_t n) const;
  // A new user from a few (item, rating) pairs: the hidden mean-field of those ratings (each
  // value taken as its nearest level), nothing retrained.
  Eigen::VectorXd foldInUser(std::span<const std::pair<std::int32_t, double>> ratings) const;
  double predictFolded(const Eigen::VectorXd& hidden, std::int64_t item) const;

 private:
  Eigen::VectorXd userHidden(std::int64_t user) const;
  RatingsRbmParameters m_params;
  UserRatings m_data;
  mutable Eigen::MatrixXd m_hidden;  // U x K, filled a user at a time on first use
  mutable std::vector<char> m_known;
};

}  // namespace latent::core::harmonium
