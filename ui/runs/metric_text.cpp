// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/runs/metric_text.hpp"

#include <QObject>
#include <QStringList>

#include <algorithm>

#include "ui/util/format.hpp"
#include "ui/util/qt_convert.hpp"

namespace latent::ui {
namespace {

constexpr int kListedValues = 3;       // a list of more values is summarised in its cell
constexpr int kLongestValueText = 40;  // longer text is elided in its cell

}  // namespace

QString jsonValueText(const nlohmann::json& v) {
  if (v.is_number_integer()) return formatCount(v.get<std::int64_t>());
  if (v.is_number()) return formatCompact(v.get<double>(), 6);
  if (v.is_string()) return qs(v.get<std::string>());
  if (v.is_boolean()) return v.get<bool>() ? QObject::tr("yes") : QObject::tr("no");
  return qs(v.dump());
}

MetricCell metricCell(const nlohmann::json& v) {
  MetricCell cell{jsonValueText(v), QString()};
  if (v.is_array()) {
    QStringList all;
    bool numbers = true;
    for (const auto& item : v) {
      all << jsonValueText(item);
      numbers = numbers && item.is_number();
    }
    cell.tooltip = all.join(QStringLiteral(", "));
    if (all.size() <= kListedValues) {
      cell.text = cell.tooltip;
    } else if (numbers) {
      double low = v.front().get<double>(), high = low;
      for (const auto& item : v) {
        low = std::min(low, item.get<double>());
        high = std::max(high, item.get<double>());
      }
      cell.text = QObject::tr("%1 values, %2 to %3").arg(all.size()).arg(formatCompact(low, 6), formatCompact(high, 6));
    } else {
      cell.text = QObject::tr("%1 values: %2, ...").arg(all.size()).arg(all.front());
    }
  }
  if (cell.text.size() > kLongestValueText) {
    if (cell.tooltip.isEmpty()) cell.tooltip = cell.text;
    cell.text = cell.text.left(kLongestValueText - 1) + QChar(0x2026);
  }
  return cell;
}

}  // namespace latent::ui
