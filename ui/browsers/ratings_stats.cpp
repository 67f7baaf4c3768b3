// SPDX-License-Identifier: GPL-3.0-or-later
// computeRatingsStats: one pass for the summary and per-item counts, then the histogram.
#include "ui/browsers/ratings_stats.hpp"

#include <QLocale>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

#include "ui/util/format.hpp"
#include "ui/util/qt_convert.hpp"

namespace latent::ui {

RatingsStats computeRatingsStats(const core::Ratings& table, int topItems) {
  RatingsStats s;
  s.users = static_cast<std::int64_t>(table.userCount());
  s.items = static_cast<std::int64_t>(table.itemCount());
  s.ratings = static_cast<std::int64_t>(table.ratings.size());
  if (s.users > 0 && s.items > 0)
    s.density = static_cast<double>(s.ratings) / (static_cast<double>(s.users) * static_cast<double>(s.items));

  std::map<double, qint64> distinct;
  std::vector<qint64> itemCount(table.itemCount(), 0);
  std::vector<double> itemSum(table.itemCount(), 0.0);
  double sum = 0.0;
  for (std::size_t i = 0; i < table.ratings.size(); ++i) {
    const auto& r = table.ratings[i];
    s.minimum = i == 0 ? r.value : std::min(s.minimum, r.value);
    s.maximum = i == 0 ? r.value : std::max(s.maximum, r.value);
    sum += r.value;
    if (distinct.size() <= static_cast<std::size_t>(kMaxDiscreteValues)) ++distinct[r.value];
    if (r.item >= 0 && static_cast<std::size_t>(r.item) < itemCount.size()) {
      ++itemCount[static_cast<std::size_t>(r.item)];
      itemSum[static_cast<std::size_t>(r.item)] += r.value;
    }
  }
  s.mean = s.ratings > 0 ? sum / static_cast<double>(s.ratings) : 0.0;

  s.discrete = distinct.size() <= static_cast<std::size_t>(kMaxDiscreteValues);
  const bool integers =
      std::all_of(distinct.begin(), distinct.end(), [](const auto& e) { return e.first == std::floor(e.first); });
  if (s.discrete && integers && s.ratings > 0 && s.maximum - s.minimum <= kMaxDiscreteValues) {
    // Whole-number scales (stars) get a bar for every step, so a value nobody gave shows as 0.
    for (double v = s.minimum; v <= s.maximum; v += 1.0) {
      const auto it = distinct.find(v);
      s.labels << formatCompact(v, 6);
      s.counts << (it == distinct.end() ? 0 : it->second);
    }
  } else if (s.discrete) {
    for (const auto& [value, count] : distinct) {
      s.labels << formatCompact(value, 6);
      s.counts << count;
    }
  } else {
    const double width = (s.maximum - s.minimum) / kBins;
    s.counts = QVector<qint64>(kBins, 0);
    for (const auto& r : table.ratings) {
      int bin = width > 0 ? static_cast<int>(std::floor((r.value - s.minimum) / width)) : 0;
      ++s.counts[std::clamp(bin, 0, kBins - 1)];  // the maximum falls in the last bin
    }
    for (int b = 0; b < kBins; ++b)
      s.labels << formatCompact(s.minimum + b * width, 3) + QStringLiteral("–") +
                      formatCompact(s.minimum + (b + 1) * width, 3);
  }

  std::vector<int> items(table.itemCount());
  std::iota(items.begin(), items.end(), 0);
  std::stable_sort(items.begin(), items.end(), [&](int a, int b) {
    return itemCount[static_cast<std::size_t>(a)] > itemCount[static_cast<std::size_t>(b)];
  });
  for (int i = 0; i < std::min<int>(topItems, static_cast<int>(items.size())); ++i) {
    const auto item = static_cast<std::size_t>(items[static_cast<std::size_t>(i)]);
    if (itemCount[item] == 0) break;
    RatingsStats::Item entry;
    entry.id = qs(table.itemIds[item]);
    entry.name = item < table.itemNames.size() ? qs(table.itemNames[item]) : entry.id;
    entry.count = itemCount[item];
    entry.mean = itemSum[item] / static_cast<double>(itemCount[item]);
    s.mostRated.push_back(entry);
  }
  return s;
}

}  // namespace latent::ui
