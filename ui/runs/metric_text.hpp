// SPDX-License-Identifier: GPL-3.0-or-later
// How a stored value (an option's, a final metric's) is written in a table cell, so that the run's
// Final metrics table and the comparison of runs say the same thing the same way.
#pragma once

#include <QString>

#include <nlohmann/json.hpp>

namespace latent::ui {

// A number in the user's locale (integers with separators), text as it is, yes/no, else JSON.
QString jsonValueText(const nlohmann::json& value);

// A final metric's cell: a list summarised (how many, the smallest and the largest), long text
// elided; the whole value in the tooltip (empty when the text is the whole value). One long value
// must not push the others out of sight.
struct MetricCell {
  QString text, tooltip;
};
MetricCell metricCell(const nlohmann::json& value);

}  // namespace latent::ui
