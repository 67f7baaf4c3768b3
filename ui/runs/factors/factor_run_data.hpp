// SPDX-License-Identifier: GPL-3.0-or-later
// What the factor page of a pmf run reads from the project (factors, biases, the ratings table's
// ids, names and who rated what), loaded once off the GUI thread and shared read-only.
#pragma once

#include <QString>

#include <Eigen/Core>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/models/ratings/factor_model_results.hpp"
#include "core/store/run_store.hpp"

namespace latent::ui {

struct FactorRunData {
  core::RunRecord run;
  std::int64_t iteration = -1;  // -1: the final result; else the snapshot shown
  Eigen::MatrixXd userFactors;  // U x K (000 eq. 27.86: u_u)
  Eigen::MatrixXd itemFactors;  // I x K (v_i)
  Eigen::VectorXd userBias;     // U, zero when the run has none
  Eigen::VectorXd itemBias;     // I, zero when the run has none
  double globalMean = 0.0;
  // Predictions and recommendations come from core, so the page, `predict` and the `factors`
  // export agree.
  std::shared_ptr<const core::RatingPredictor> predictor;

  std::vector<std::string> userIds, itemIds, itemNames;  // as imported; index = user / item
  std::vector<std::int32_t> itemRatingCounts;            // ratings of each item in the whole table
  std::vector<double> itemMeanRatings;                   // their mean; NaN for an unrated item
  std::vector<std::int32_t> userRatingCounts;
  // Who rated what (training and held-out ratings alike), by user: the items of user u are
  // ratedItems[ratedOffsets[u] .. ratedOffsets[u+1]), ascending, with their values.
  std::vector<std::int64_t> ratedOffsets;
  std::vector<std::int32_t> ratedItems;
  std::vector<double> ratedValues;

  std::vector<double> factorVariance;  // per factor, across items
  std::vector<int> factorsByVariance;  // factor indices, largest item variance first

  int factorCount() const noexcept { return static_cast<int>(itemFactors.cols()); }
  int itemCount() const noexcept { return static_cast<int>(itemFactors.rows()); }
  int userCount() const noexcept { return static_cast<int>(userFactors.rows()); }
  std::span<const std::int32_t> ratedBy(int user) const;
  std::span<const double> ratingsBy(int user) const;
  // The item's name, or its id when the table has no names.
  QString itemName(int item) const;
  QString itemId(int item) const;
  QString userId(int user) const;
  // The user with this id (exact match), or -1.
  int findUser(const QString& id) const;
};

struct FactorRunLoad {
  std::shared_ptr<const FactorRunData> data;  // null on error or when the run has no item factors
  QString error;
};

// Reads a run's factors through its own read-only connection: call it off the GUI thread. The
// final matrices, or the latest snapshot of a run that has none.
FactorRunLoad loadFactorRun(const std::filesystem::path& projectFile, std::int64_t runId);

// The items a search for `text` highlights: those whose name or id equals it (ignoring case);
// when none does, those whose name or id contains it. Ascending; empty for blank text.
std::vector<int> matchItems(const FactorRunData& data, const QString& text);

}  // namespace latent::ui
