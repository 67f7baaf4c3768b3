// SPDX-License-Identifier: GPL-3.0-or-later
// loadFactorRun: the factor matrices, the ratings table's ids and counts, factor variances.
#include "ui/runs/factors/factor_run_data.hpp"

#include <QObject>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "core/store/ratings_store.hpp"
#include "core/store/run_results.hpp"
#include "ui/jobs/project_session.hpp"
#include "ui/util/qt_convert.hpp"

namespace latent::ui {

std::span<const std::int32_t> FactorRunData::ratedBy(int user) const {
  if (user < 0 || static_cast<std::size_t>(user) + 1 >= ratedOffsets.size()) return {};
  const auto begin = static_cast<std::size_t>(ratedOffsets[static_cast<std::size_t>(user)]);
  const auto end = static_cast<std::size_t>(ratedOffsets[static_cast<std::size_t>(user) + 1]);
  return std::span<const std::int32_t>(ratedItems).subspan(begin, end - begin);
}

std::span<const double> FactorRunData::ratingsBy(int user) const {
  if (user < 0 || static_cast<std::size_t>(user) + 1 >= ratedOffsets.size()) return {};
  const auto begin = static_cast<std::size_t>(ratedOffsets[static_cast<std::size_t>(user)]);
  const auto end = static_cast<std::size_t>(ratedOffsets[static_cast<std::size_t>(user) + 1]);
  return std::span<const double>(ratedValues).subspan(begin, end - begin);
}

QString FactorRunData::itemName(int item) const {
  if (item < 0) return {};
  const auto i = static_cast<std::size_t>(item);
  if (i < itemNames.size() && !itemNames[i].empty()) return qs(itemNames[i]);
  return itemId(item);
}

QString FactorRunData::itemId(int item) const {
  if (item < 0 || static_cast<std::size_t>(item) >= itemIds.size()) return QStringLiteral("#%1").arg(item + 1);
  return qs(itemIds[static_cast<std::size_t>(item)]);
}

QString FactorRunData::userId(int user) const {
  if (user < 0 || static_cast<std::size_t>(user) >= userIds.size()) return QStringLiteral("#%1").arg(user + 1);
  return qs(userIds[static_cast<std::size_t>(user)]);
}

int FactorRunData::findUser(const QString& id) const {
  const std::string key = utf8(id.trimmed());
  for (std::size_t u = 0; u < userIds.size(); ++u)
    if (userIds[u] == key) return static_cast<int>(u);
  return -1;
}

FactorRunLoad loadFactorRun(const std::filesystem::path& projectFile, std::int64_t runId) {
  FactorRunLoad out;
  try {
    core::Project project(offGuiThread(projectFile), core::Project::Access::ReadOnly);
    auto data = std::make_shared<FactorRunData>();
    data->run = core::loadRun(project, runId);
    if (project.dataset(data->run.datasetId).kind != core::DataKind::Ratings) return out;

    // The final matrices, else the latest snapshot (a run that failed midway keeps those).
    auto result = core::loadResult(project, runId, {core::kItemFactors},
                                   {core::kUserFactors, core::kUserBias, core::kItemBias, core::kGlobalMean,
                                    core::kRatingRange, core::kRegularization});
    if (!result) return out;
    data->iteration = result->iteration;
    std::vector<core::NamedMatrix> matrices = std::move(result->matrices);
    // Throws when the user factors are missing or do not match the item factors.
    data->predictor = std::make_shared<const core::RatingPredictor>(matrices);
    data->userFactors = *core::findMatrix(matrices, core::kUserFactors);
    data->itemFactors = *core::findMatrix(matrices, core::kItemFactors);
    const auto U = data->userFactors.rows(), I = data->itemFactors.rows();
    const auto* userBias = core::findMatrix(matrices, core::kUserBias);
    const auto* itemBias = core::findMatrix(matrices, core::kItemBias);
    data->userBias = userBias && userBias->rows() == U ? Eigen::VectorXd(userBias->col(0)) : Eigen::VectorXd::Zero(U);
    data->itemBias = itemBias && itemBias->rows() == I ? Eigen::VectorXd(itemBias->col(0)) : Eigen::VectorXd::Zero(I);
    if (const auto* mean = core::findMatrix(matrices, core::kGlobalMean); mean && mean->size() == 1)
      data->globalMean = (*mean)(0, 0);

    core::Ratings ratings = core::loadRatings(project, data->run.datasetId);
    if (static_cast<Eigen::Index>(ratings.itemCount()) != I || static_cast<Eigen::Index>(ratings.userCount()) != U) {
      out.error =
          QObject::tr("the run has factors for %1 users and %2 items but the ratings table has %3 users and %4 items")
              .arg(U)
              .arg(I)
              .arg(ratings.userCount())
              .arg(ratings.itemCount());
      return out;
    }
    data->userIds = std::move(ratings.userIds);
    data->itemIds = std::move(ratings.itemIds);
    data->itemNames = std::move(ratings.itemNames);

    // Counts, means and the per-user lists in one pass (a counting sort by user).
    data->itemRatingCounts.assign(static_cast<std::size_t>(I), 0);
    data->userRatingCounts.assign(static_cast<std::size_t>(U), 0);
    std::vector<double> sums(static_cast<std::size_t>(I), 0.0);
    for (const auto& r : ratings.ratings) {
      if (r.user < 0 || r.user >= U || r.item < 0 || r.item >= I) continue;
      ++data->itemRatingCounts[static_cast<std::size_t>(r.item)];
      ++data->userRatingCounts[static_cast<std::size_t>(r.user)];
      sums[static_cast<std::size_t>(r.item)] += r.value;
    }
    data->itemMeanRatings.resize(static_cast<std::size_t>(I));
    for (std::size_t i = 0; i < sums.size(); ++i)
      data->itemMeanRatings[i] = data->itemRatingCounts[i] > 0 ? sums[i] / data->itemRatingCounts[i]
                                                               : std::numeric_limits<double>::quiet_NaN();
    data->ratedOffsets.assign(static_cast<std::size_t>(U) + 1, 0);
    for (std::size_t u = 0; u < static_cast<std::size_t>(U); ++u)
      data->ratedOffsets[u + 1] = data->ratedOffsets[u] + data->userRatingCounts[u];
    data->ratedItems.resize(static_cast<std::size_t>(data->ratedOffsets.back()));
    data->ratedValues.resize(data->ratedItems.size());
    std::vector<std::int64_t> next(data->ratedOffsets.begin(), data->ratedOffsets.end() - 1);
    for (const auto& r : ratings.ratings) {
      if (r.user < 0 || r.user >= U || r.item < 0 || r.item >= I) continue;
      const auto at = static_cast<std::size_t>(next[static_cast<std::size_t>(r.user)]++);
      data->ratedItems[at] = r.item;
      data->ratedValues[at] = r.value;
    }
    for (std::size_t u = 0; u < static_cast<std::size_t>(U); ++u) {
      const auto begin = static_cast<std::size_t>(data->ratedOffsets[u]),
                 end = static_cast<std::size_t>(data->ratedOffsets[u + 1]);
      std::vector<std::size_t> order(end - begin);
      std::iota(order.begin(), order.end(), begin);
      std::sort(order.begin(), order.end(),
                [&](std::size_t a, std::size_t b) { return data->ratedItems[a] < data->ratedItems[b]; });
      std::vector<std::int32_t> items;
      std::vector<double> values;
      for (const auto k : order) {
        items.push_back(data->ratedItems[k]);
        values.push_back(data->ratedValues[k]);
      }
      std::copy(items.begin(), items.end(), data->ratedItems.begin() + static_cast<std::ptrdiff_t>(begin));
      std::copy(values.begin(), values.end(), data->ratedValues.begin() + static_cast<std::ptrdiff_t>(begin));
    }

    // The factors that spread the items most make the most telling default axes.
    const auto K = data->itemFactors.cols();
    data->factorVariance.resize(static_cast<std::size_t>(K), 0.0);
    for (Eigen::Index k = 0; k < K && I > 0; ++k) {
      const auto column = data->itemFactors.col(k);
      const double mean = column.mean();
      data->factorVariance[static_cast<std::size_t>(k)] =
          (column.array() - mean).square().sum() / static_cast<double>(I);
    }
    data->factorsByVariance.resize(static_cast<std::size_t>(K));
    std::iota(data->factorsByVariance.begin(), data->factorsByVariance.end(), 0);
    std::stable_sort(data->factorsByVariance.begin(), data->factorsByVariance.end(), [&](int a, int b) {
      return data->factorVariance[static_cast<std::size_t>(a)] > data->factorVariance[static_cast<std::size_t>(b)];
    });
    out.data = std::move(data);
  } catch (const std::exception& e) {
    out.error = qs(e.what());
  }
  return out;
}

std::vector<int> matchItems(const FactorRunData& data, const QString& text) {
  const QString needle = text.trimmed();
  std::vector<int> exact, partial;
  if (needle.isEmpty()) return exact;
  for (int i = 0; i < data.itemCount(); ++i) {
    const QString name = data.itemName(i), id = data.itemId(i);
    if (name.compare(needle, Qt::CaseInsensitive) == 0 || id.compare(needle, Qt::CaseInsensitive) == 0)
      exact.push_back(i);
    else if (exact.empty() && (name.contains(needle, Qt::CaseInsensitive) || id.contains(needle, Qt::CaseInsensitive)))
      partial.push_back(i);
  }
  return exact.empty() ? partial : exact;
}

}  // namespace latent::ui
