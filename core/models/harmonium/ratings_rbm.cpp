// SPDX-License-Identifier: GPL-3.0-or-later
// The categorical RBM's conditionals (000 eq. 27.106-27.107), the paper's prediction, and the
// predictor of stored runs.
#include "core/models/harmonium/ratings_rbm.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "core/models/harmonium/binary_rbm.hpp"
#include "core/results/hidden_results.hpp"
#include "core/util/errors.hpp"

namespace latent::core::harmonium {
namespace {

// Users per task when every user's mean-field is computed; each row is computed alone.
constexpr Eigen::Index kRatingsUsersPerTask = 16;

// The rows of one user's ratings in a UserRatings.
std::span<const std::int32_t> userSpan(const std::vector<std::int32_t>& values, const UserRatings& data,
                                       std::int32_t u) {
  return std::span<const std::int32_t>(values).subspan(static_cast<std::size_t>(data.start[u]),
                                                       static_cast<std::size_t>(data.degree(u)));
}

}  // namespace

std::vector<double> ratingLevels(std::span<const Rating> ratings) {
  std::vector<double> levels;
  for (const auto& r : ratings) levels.push_back(r.value);
  std::sort(levels.begin(), levels.end());
  levels.erase(std::unique(levels.begin(), levels.end()), levels.end());
  if (levels.empty()) throw UsageError("the categorical RBM needs ratings to fit: the training set is empty");
  if (levels.size() > kMaxRatingLevels)
    throw UsageError("the categorical RBM needs a few rating levels (at most " + std::to_string(kMaxRatingLevels) +
                     "); this dataset has " + std::to_string(levels.size()) + " distinct rating values");
  return levels;
}

int nearestLevel(const std::vector<double>& levels, double value) {
  int best = 0;
  for (std::size_t r = 1; r < levels.size(); ++r)
    if (std::abs(levels[r] - value) < std::abs(levels[static_cast<std::size_t>(best)] - value))
      best = static_cast<int>(r);
  return best;
}

UserRatings UserRatings::build(std::span<const Rating> ratings, std::int32_t users, std::int32_t items,
                               std::vector<double> levels) {
  UserRatings d;
  d.users = users;
  d.items = items;
  d.levels = std::move(levels);
  d.count = static_cast<std::int64_t>(ratings.size());
  d.start.assign(static_cast<std::size_t>(users) + 1, 0);
  d.itemRatings.assign(static_cast<std::size_t>(items), 0);
  d.itemMean.assign(static_cast<std::size_t>(items), 0.0);
  double sum = 0.0;
  for (const auto& r : ratings) {
    ++d.start[static_cast<std::size_t>(r.user) + 1];
    ++d.itemRatings[static_cast<std::size_t>(r.item)];
    d.itemMean[static_cast<std::size_t>(r.item)] += r.value;
    sum += r.value;
  }
  d.mean = ratings.empty() ? 0.0 : sum / double(ratings.size());
  for (std::size_t i = 0; i < d.itemMean.size(); ++i)
    if (d.itemRatings[i] > 0) d.itemMean[i] /= double(d.itemRatings[i]);
  for (std::size_t u = 0; u < static_cast<std::size_t>(users); ++u) d.start[u + 1] += d.start[u];
  d.item.resize(ratings.size());
  d.level.resize(ratings.size());
  std::vector<std::int64_t> next(d.start.begin(), d.start.end() - 1);
  // Within a user the ratings keep their input order.
  for (const auto& r : ratings) {
    const auto k = static_cast<std::size_t>(next[static_cast<std::size_t>(r.user)]++);
    d.item[k] = r.item;
    d.level[k] = nearestLevel(d.levels, r.value);
  }
  return d;
}

RatingsRbmParameters::RatingsRbmParameters(Eigen::Index items, Eigen::Index levelCount, Eigen::Index hidden)
    : levels(levelCount),
      weights(Eigen::MatrixXd::Zero(items * levelCount, hidden)),
      visibleBias(Eigen::MatrixXd::Zero(items, levelCount)),
      hiddenBias(Eigen::VectorXd::Zero(hidden)) {}

void ratingsHiddenInput(const RatingsRbmParameters& p, std::span<const std::int32_t> items,
                        std::span<const std::int32_t> levels, Eigen::Ref<Eigen::VectorXd> out) {
  out = p.hiddenBias;
  for (std::size_t k = 0; k < items.size(); ++k) out += p.weights.row(p.row(items[k], levels[k])).transpose();
}

void ratingsHiddenProbabilities(const RatingsRbmParameters& p, std::span<const std::int32_t> items,
                                std::span<const std::int32_t> levels, Eigen::Ref<Eigen::VectorXd> out) {
  ratingsHiddenInput(p, items, levels, out);
  out = out.unaryExpr([](double x) { return sigmoid(x); });
}

void ratingsLevelProbabilities(const RatingsRbmParameters& p, Eigen::Index item,
                               const Eigen::Ref<const Eigen::VectorXd>& hidden, Eigen::Ref<Eigen::VectorXd> out) {
  out.noalias() = p.weights.middleRows(item * p.levels, p.levels) * hidden;
  out += p.visibleBias.row(item).transpose();
  out = (out.array() - out.maxCoeff()).exp().matrix();
  out /= out.sum();
}

double ratingsExpectedRating(const RatingsRbmParameters& p, const std::vector<double>& levels, Eigen::Index item,
                             const Eigen::Ref<const Eigen::VectorXd>& hidden) {
  Eigen::VectorXd probabilities(p.levels);
  ratingsLevelProbabilities(p, item, hidden, probabilities);
  double expected = 0.0;
  for (Eigen::Index r = 0; r < p.levels; ++r) expected += probabilities[r] * levels[static_cast<std::size_t>(r)];
  return expected;
}

Eigen::MatrixXd ratingsUserActivations(const RatingsRbmParameters& p, const UserRatings& data) {
  Eigen::MatrixXd out(data.users, p.hidden());
  tbb::parallel_for(tbb::blocked_range<Eigen::Index>(0, data.users, kRatingsUsersPerTask), [&](const auto& range) {
    Eigen::VectorXd hidden(p.hidden());
    for (Eigen::Index u = range.begin(); u < range.end(); ++u) {
      const auto user = static_cast<std::int32_t>(u);
      ratingsHiddenProbabilities(p, userSpan(data.item, data, user), userSpan(data.level, data, user), hidden);
      out.row(u) = hidden.transpose();
    }
  });
  return out;
}

std::vector<double> ratingsPredictions(const RatingsRbmParameters& p, const UserRatings& data,
                                       const Eigen::MatrixXd& activations, std::span<const Rating> pairs) {
  std::vector<double> out(pairs.size());
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, pairs.size(), 256), [&](const auto& range) {
    Eigen::VectorXd hidden(p.hidden());
    for (std::size_t k = range.begin(); k < range.end(); ++k) {
      const auto& r = pairs[k];
      if (data.itemRatings[static_cast<std::size_t>(r.item)] == 0) {
        out[k] = data.mean;
      } else if (data.degree(r.user) == 0) {
        out[k] = data.itemMean[static_cast<std::size_t>(r.item)];
      } else {
        hidden = activations.row(r.user).transpose();
        out[k] = ratingsExpectedRating(p, data.levels, r.item, hidden);
      }
    }
  });
  return out;
}

std::vector<NamedMatrix> ratingsParameterMatrices(const RatingsRbmParameters& p, const std::vector<double>& levels) {
  Eigen::MatrixXd levelRow(1, static_cast<Eigen::Index>(levels.size()));
  for (std::size_t r = 0; r < levels.size(); ++r) levelRow(0, static_cast<Eigen::Index>(r)) = levels[r];
  return {{hidden::kRatingWeights, p.weights},
          {hidden::kRatingVisibleBias, p.visibleBias},
          {hidden::kHiddenBias, p.hiddenBias},
          {hidden::kRatingLevels, levelRow}};
}

RatingsRbmPredictor::RatingsRbmPredictor(const std::vector<NamedMatrix>& matrices, std::span<const Rating> training,
                                         std::int32_t users, std::int32_t items) {
  const auto* weights = findMatrix(matrices, hidden::kRatingWeights);
  const auto* visible = findMatrix(matrices, hidden::kRatingVisibleBias);
  const auto* hiddenBias = findMatrix(matrices, hidden::kHiddenBias);
  const auto* levels = findMatrix(matrices, hidden::kRatingLevels);
  if (!weights || !visible || !hiddenBias || !levels)
    throw UsageError("this run is not a categorical RBM's: it has no weights per item and rating level");
  const Eigen::Index R = levels->size();
  if (R == 0 || visible->rows() != items || visible->cols() != R || weights->rows() != items * R ||
      hiddenBias->size() != weights->cols())
    throw UsageError("the run's categorical RBM does not fit its dataset (items or rating levels differ)");
  m_params.levels = R;
  m_params.weights = *weights;
  m_params.visibleBias = *visible;
  m_params.hiddenBias = Eigen::Map<const Eigen::VectorXd>(hiddenBias->data(), hiddenBias->size());
  std::vector<double> values(static_cast<std::size_t>(R));
  for (Eigen::Index r = 0; r < R; ++r) values[static_cast<std::size_t>(r)] = (*levels)(r);
  m_data = UserRatings::build(training, users, items, std::move(values));
  m_hidden.resize(users, m_params.hidden());
  m_known.assign(static_cast<std::size_t>(users), 0);
}

Eigen::VectorXd RatingsRbmPredictor::userHidden(std::int64_t user) const {
  if (!m_known[static_cast<std::size_t>(user)]) {
    const auto u = static_cast<std::int32_t>(user);
    Eigen::VectorXd hidden(m_params.hidden());
    ratingsHiddenProbabilities(m_params, userSpan(m_data.item, m_data, u), userSpan(m_data.level, m_data, u), hidden);
    m_hidden.row(user) = hidden.transpose();
    m_known[static_cast<std::size_t>(user)] = 1;
  }
  return m_hidden.row(user).transpose();
}

double RatingsRbmPredictor::predict(std::int64_t user, std::int64_t item) const {
  if (m_data.itemRatings[static_cast<std::size_t>(item)] == 0) return m_data.mean;
  if (m_data.degree(static_cast<std::int32_t>(user)) == 0) return m_data.itemMean[static_cast<std::size_t>(item)];
  return ratingsExpectedRating(m_params, m_data.levels, item, userHidden(user));
}

std::vector<std::pair<std::int64_t, double>> RatingsRbmPredictor::recommend(std::int64_t user,
                                                                            std::span<const std::int32_t> rated,
                                                                            std::size_t n) const {
  std::vector<char> seen(static_cast<std::size_t>(itemCount()), 0);
  for (const auto i : rated)
    if (i >= 0 && i < itemCount()) seen[static_cast<std::size_t>(i)] = 1;
  std::vector<std::pair<std::int64_t, double>> scored;
  for (std::int64_t i = 0; i < itemCount(); ++i)
    if (!seen[static_cast<std::size_t>(i)]) scored.emplace_back(i, predict(user, i));
  const auto keep = std::min(n, scored.size());
  // Ties broken by item index, as the factor models' recommendations are.
  std::partial_sort(
      scored.begin(), scored.begin() + static_cast<std::ptrdiff_t>(keep), scored.end(),
      [](const auto& a, const auto& b) { return a.second > b.second || (a.second == b.second && a.first < b.first); });
  scored.resize(keep);
  return scored;
}

Eigen::VectorXd RatingsRbmPredictor::foldInUser(std::span<const std::pair<std::int32_t, double>> ratings) const {
  std::vector<std::int32_t> items, levels;
  for (const auto& [item, value] : ratings) {
    if (item < 0 || item >= itemCount())
      throw UsageError("rated item " + std::to_string(item) + " is not in the model");
    items.push_back(item);
    levels.push_back(nearestLevel(m_data.levels, value));
  }
  Eigen::VectorXd hidden(m_params.hidden());
  ratingsHiddenProbabilities(m_params, items, levels, hidden);
  return hidden;
}

double RatingsRbmPredictor::predictFolded(const Eigen::VectorXd& hidden, std::int64_t item) const {
  if (m_data.itemRatings[static_cast<std::size_t>(item)] == 0) return m_data.mean;
  return ratingsExpectedRating(m_params, m_data.levels, item, hidden);
}

}  // namespace latent::core::harmonium
