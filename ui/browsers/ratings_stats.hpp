// SPDX-License-Identifier: GPL-3.0-or-later
// What the ratings browser shows, computed off the GUI thread from a ratings table: summary
// numbers, a histogram of values and the most-rated items.
#pragma once

#include <QString>
#include <QStringList>
#include <QVector>

#include <cstdint>

#include "core/data/ratings.hpp"

namespace latent::ui {

struct RatingsStats {
  std::int64_t users = 0, items = 0, ratings = 0;
  double density = 0.0, mean = 0.0, minimum = 0.0, maximum = 0.0;
  // Discrete values (at most kMaxDiscreteValues distinct ones, such as 1-5 stars) get one bar
  // each, labelled by the value (for whole numbers, every step from min to max, zeros
  // included); other values are binned into kBins equal-width bins, the last one closed.
  bool discrete = true;
  QStringList labels;
  QVector<qint64> counts;

  struct Item {
    QString id, name;
    qint64 count = 0;
    double mean = 0.0;
  };
  QVector<Item> mostRated;  // by count, then by id
};

inline constexpr int kMaxDiscreteValues = 20;
inline constexpr int kBins = 20;

RatingsStats computeRatingsStats(const core::Ratings& ratings, int topItems = 100);

}  // namespace latent::ui
