// SPDX-License-Identifier: GPL-3.0-or-later
// Reading a ratings run's hidden units: the dataset's items and users, and the stored matrices
// turned into the expected-rating effects the pages show.
#include "ui/runs/hidden/hidden_ratings_data.hpp"

#include <QObject>

#include "core/results/hidden_results.hpp"
#include "core/store/ratings_store.hpp"
#include "ui/runs/hidden/hidden_run_data.hpp"
#include "ui/runs/hidden/rating_effects.hpp"

namespace latent::ui {

const std::vector<std::string>& hiddenRatingsRequired() {
  static const std::vector<std::string> names = {core::hidden::kRatingWeights, core::hidden::kRatingVisibleBias,
                                                 core::hidden::kRatingLevels, core::hidden::kHiddenBias};
  return names;
}

const std::vector<std::string>& hiddenRatingsOptional() {
  static const std::vector<std::string> names = {core::hidden::kHiddenActivations};
  return names;
}

std::shared_ptr<const HiddenCorpus> readHiddenRatings(core::Project& project, std::int64_t datasetId) {
  auto corpus = std::make_shared<HiddenCorpus>();
  corpus->ratings = true;
  auto ratings = core::loadRatings(project, datasetId);
  corpus->words.reserve(ratings.itemCount());
  for (std::size_t i = 0; i < ratings.itemCount(); ++i)
    corpus->words.push_back(i < ratings.itemNames.size() && !ratings.itemNames[i].empty() ? ratings.itemNames[i]
                                                                                          : ratings.itemIds[i]);
  corpus->documents.resize(ratings.userCount());
  for (std::size_t u = 0; u < ratings.userCount(); ++u) {
    auto& d = corpus->documents[u];
    d.index = static_cast<std::int64_t>(u);
    d.id = ratings.userIds[u];
    d.title = ratings.userIds[u];
  }
  // A user's "tokens" are its ratings.
  for (const auto& r : ratings.ratings)
    if (r.user >= 0 && static_cast<std::size_t>(r.user) < corpus->documents.size())
      ++corpus->documents[static_cast<std::size_t>(r.user)].tokenCount;
  corpus->labels.assign(corpus->documents.size(), -1);
  return corpus;
}

QString takeHiddenRatingsResult(const core::StoredResult& result, HiddenRunData& data) {
  const auto& weights = *result.find(core::hidden::kRatingWeights);
  const auto& visible = *result.find(core::hidden::kRatingVisibleBias);
  const auto& levels = *result.find(core::hidden::kRatingLevels);
  const auto I = visible.rows(), R = visible.cols(), K = weights.cols();
  if (static_cast<std::size_t>(I) != data.corpus->words.size())
    return QObject::tr("the visible biases have %1 rows but the dataset has %2 items")
        .arg(I)
        .arg(data.corpus->words.size());
  if (levels.size() != R || weights.rows() != I * R)
    return QObject::tr("the rating weights (%1 x %2) do not fit %3 items with %4 rating levels")
        .arg(weights.rows())
        .arg(K)
        .arg(I)
        .arg(levels.size());
  data.ratingLevels.assign(levels.data(), levels.data() + levels.size());
  auto effects = ratingUnitEffects(weights, visible, data.ratingLevels);
  data.weights = std::move(effects.effects);
  data.baseRating = std::move(effects.baseRating);
  const auto* hidden = result.find(core::hidden::kHiddenBias);
  data.hiddenBias = hidden->rows() == K ? Eigen::VectorXd(hidden->col(0)) : Eigen::VectorXd::Zero(K);
  if (const auto* a = result.find(core::hidden::kHiddenActivations);
      a && a->cols() == K && a->rows() == static_cast<Eigen::Index>(data.corpus->documents.size()))
    data.activations = *a;
  return {};
}

}  // namespace latent::ui
