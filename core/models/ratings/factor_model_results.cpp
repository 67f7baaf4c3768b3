// SPDX-License-Identifier: GPL-3.0-or-later
// Predicted ratings, recommendations and new-user fold-in from a factor model's matrices.
#include "core/models/ratings/factor_model_results.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <Eigen/Cholesky>

#include "core/util/errors.hpp"

namespace latent::core {
RatingPredictor::RatingPredictor(const std::vector<NamedMatrix>& matrices) {
  const auto* users = findMatrix(matrices, kUserFactors);
  const auto* items = findMatrix(matrices, kItemFactors);
  if (!users || !items) throw UsageError("this run is not a factor model's: it has no user and item factors");
  if (users->cols() != items->cols()) throw UsageError("the run's user and item factors differ in size");
  m_users = *users;
  m_items = *items;
  const auto* userBias = findMatrix(matrices, kUserBias);
  const auto* itemBias = findMatrix(matrices, kItemBias);
  m_userBias = userBias && userBias->rows() == m_users.rows() ? Eigen::VectorXd(userBias->col(0))
                                                              : Eigen::VectorXd::Zero(m_users.rows());
  m_itemBias = itemBias && itemBias->rows() == m_items.rows() ? Eigen::VectorXd(itemBias->col(0))
                                                              : Eigen::VectorXd::Zero(m_items.rows());
  if (const auto* mean = findMatrix(matrices, kGlobalMean); mean && mean->size() == 1) m_mean = (*mean)(0, 0);
  if (const auto* range = findMatrix(matrices, kRatingRange); range && range->size() == 2) {
    m_low = (*range)(0, 0);
    m_high = (*range)(0, 1);
  }
  if (const auto* implicit = findMatrix(matrices, kItemImplicit);
      implicit && implicit->rows() == m_items.rows() && implicit->cols() == m_items.cols())
    m_implicit = *implicit;
  if (const auto* penalty = findMatrix(matrices, kRegularization); penalty && penalty->size() == 3) {
    m_hasPenalty = true;
    m_lambda = (*penalty)(0, 0);
    m_lambdaBias = (*penalty)(0, 1);
    m_perRating = (*penalty)(0, 2) != 0.0;
  }
}

double RatingPredictor::clip(double r) const noexcept { return std::clamp(r, m_low, m_high); }

double RatingPredictor::predict(std::int64_t user, std::int64_t item) const {
  return clip(m_mean + m_userBias(user) + m_itemBias(item) + m_users.row(user).dot(m_items.row(item)));
}

double RatingPredictor::predictUnseen(std::optional<std::int64_t> user, std::optional<std::int64_t> item) const {
  return clip(m_mean + (user ? m_userBias(*user) : 0.0) + (item ? m_itemBias(*item) : 0.0));
}

std::vector<std::pair<std::int64_t, double>> RatingPredictor::recommend(std::int64_t user,
                                                                        std::span<const std::int32_t> rated,
                                                                        std::size_t n) const {
  std::vector<char> seen(static_cast<std::size_t>(m_items.rows()), 0);
  for (const auto i : rated)
    if (i >= 0 && i < m_items.rows()) seen[static_cast<std::size_t>(i)] = 1;
  std::vector<std::pair<std::int64_t, double>> scored;
  for (std::int64_t i = 0; i < m_items.rows(); ++i)
    if (!seen[static_cast<std::size_t>(i)]) scored.emplace_back(i, predict(user, i));
  const auto keep = std::min(n, scored.size());
  // Ties broken by item index so the list is the same on every run.
  std::partial_sort(
      scored.begin(), scored.begin() + static_cast<std::ptrdiff_t>(keep), scored.end(),
      [](const auto& a, const auto& b) { return a.second > b.second || (a.second == b.second && a.first < b.first); });
  scored.resize(keep);
  return scored;
}

namespace {

// Ridge regression of r - mu - b_i on [v_i, 1] (000 eq. 27.92 with the items fixed), the factors
// pulled towards `prior` (zero, or the implicit-feedback sum).
Eigen::VectorXd ridgeFoldIn(const Eigen::MatrixXd& items, const Eigen::VectorXd& itemBias, double mean,
                            std::span<const std::pair<std::int32_t, double>> ratings, double ridgeFactors,
                            double ridgeBias, const Eigen::VectorXd& prior) {
  const auto K = items.cols();
  Eigen::MatrixXd gram = Eigen::MatrixXd::Zero(K + 1, K + 1);
  Eigen::VectorXd rhs = Eigen::VectorXd::Zero(K + 1);
  Eigen::VectorXd x(K + 1);
  for (const auto& [item, value] : ratings) {
    if (item < 0 || item >= items.rows())
      throw UsageError("rated item " + std::to_string(item) + " is not in the model");
    x.head(K) = items.row(item).transpose();
    x(K) = 1.0;
    gram.noalias() += x * x.transpose();
    rhs += x * (value - mean - itemBias(item));
  }
  gram.diagonal().head(K).array() += std::max(ridgeFactors, 1e-9);
  rhs.head(K) += std::max(ridgeFactors, 1e-9) * prior;
  gram(K, K) += std::max(ridgeBias, 1e-9);
  return gram.ldlt().solve(rhs);
}

}  // namespace

Eigen::VectorXd RatingPredictor::implicitSum(std::span<const std::pair<std::int32_t, double>> ratings) const {
  Eigen::VectorXd z = Eigen::VectorXd::Zero(m_items.cols());
  if (m_implicit.size() == 0 || ratings.empty()) return z;
  // One term per given rating, as the fit takes N(u) from the user's training ratings.
  for (const auto& [item, value] : ratings) {
    if (item < 0 || item >= m_items.rows())
      throw UsageError("rated item " + std::to_string(item) + " is not in the model");
    z += m_implicit.row(item).transpose();
  }
  return z / std::sqrt(double(ratings.size()));
}

Eigen::VectorXd RatingPredictor::foldInUser(std::span<const std::pair<std::int32_t, double>> ratings,
                                            double lambda) const {
  // Ridge on the factors and the bias alike, once per rating (Funk's per-rating penalty).
  const double ridge = lambda * std::max<double>(1.0, double(ratings.size()));
  return ridgeFoldIn(m_items, m_itemBias, m_mean, ratings, ridge, ridge, implicitSum(ratings));
}

Eigen::VectorXd RatingPredictor::foldInUser(std::span<const std::pair<std::int32_t, double>> ratings) const {
  if (!m_hasPenalty) return foldInUser(ratings, m_lambda);
  const double scale = m_perRating ? std::max<double>(1.0, double(ratings.size())) : 1.0;
  return ridgeFoldIn(m_items, m_itemBias, m_mean, ratings, m_lambda * scale, m_lambdaBias * scale,
                     implicitSum(ratings));
}

double RatingPredictor::predictFolded(const Eigen::VectorXd& folded, std::int64_t item) const {
  const auto K = m_items.cols();
  return clip(m_mean + folded(K) + m_itemBias(item) + m_items.row(item).dot(folded.head(K)));
}

}  // namespace latent::core
