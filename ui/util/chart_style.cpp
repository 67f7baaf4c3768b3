// SPDX-License-Identifier: GPL-3.0-or-later
// styleChart: theme by palette lightness, then the palette's own colours for text and grid.
#include "ui/util/chart_style.hpp"

#include <QAbstractAxis>
#include <QChart>
#include <QLegend>

#include "ui/util/topic_colours.hpp"

namespace latent::ui {

bool isDarkPalette(const QPalette& palette) { return palette.color(QPalette::Window).lightness() < 128; }

QColor axisColour(const QPalette& palette) {
  return mixColours(palette.color(QPalette::Text), palette.color(QPalette::Base), 0.5);
}

void styleChart(QChart* chart, const QPalette& palette) {
  // The theme sets series colours that read well on that background; keep series colours that
  // were chosen explicitly by setting them again afterwards (callers do).
  chart->setTheme(isDarkPalette(palette) ? QChart::ChartThemeDark : QChart::ChartThemeLight);
  chart->setBackgroundBrush(palette.color(QPalette::Base));
  chart->setBackgroundRoundness(0);
  chart->setTitleBrush(palette.color(QPalette::Text));
  chart->legend()->setLabelColor(palette.color(QPalette::Text));
  chart->setMargins(QMargins(4, 4, 4, 4));
  QColor grid = palette.color(QPalette::Text);
  grid.setAlphaF(0.15f);
  for (auto* axis : chart->axes()) {
    axis->setLabelsColor(palette.color(QPalette::Text));
    axis->setTitleBrush(palette.color(QPalette::Text));
    axis->setGridLineColor(grid);
    axis->setLinePenColor(axisColour(palette));
  }
}

}  // namespace latent::ui
