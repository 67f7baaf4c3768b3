// SPDX-License-Identifier: GPL-3.0-or-later
// WeightHeatmapView: layout (words left, unit numbers above, group names right, scale below),
// the diverging colours, painting and tooltips.
#include "ui/runs/hidden/weight_heatmap_view.hpp"

#include <QEvent>
#include <QHelpEvent>
#include <QLinearGradient>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

#include "ui/runs/hidden/hidden_run_data.hpp"
#include "ui/util/chart_style.hpp"
#include "ui/util/format.hpp"
#include "ui/util/topic_colours.hpp"

namespace latent::ui {
namespace {

constexpr double kHeatMargin = 8;
constexpr double kHeatMaxLabelWidth = 140;
constexpr double kHeatGroupBand = 64;  // right of the grid: the name of each row group's unit
constexpr double kHeatLegendBar = 10;
constexpr double kHeatMaxCellWidth = 36;
constexpr double kHeatMaxCellHeight = 24;
// The topic colours that end the diverging scale: red (topic 4's hue) for positive weights and
// blue (topic 1's) for negative, each already made to read on the palette's Base.
constexpr int kPositiveHue = 3;
constexpr int kNegativeHue = 0;

}  // namespace

WeightHeatmapView::WeightHeatmapView(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::MinimumExpanding);
}

void WeightHeatmapView::setData(std::shared_ptr<const HiddenRunData> data) {
  m_data = std::move(data);
  m_max = m_data && m_data->layout.maxAbsWeight > 0 ? m_data->layout.maxAbsWeight : 1.0;
  updateGeometry();
  layoutCells();
  update();
}

int WeightHeatmapView::rowCount() const noexcept { return m_data ? static_cast<int>(m_data->layout.words.size()) : 0; }

int WeightHeatmapView::columnCount() const noexcept {
  return m_data ? static_cast<int>(m_data->layout.units.size()) : 0;
}

int WeightHeatmapView::rowWord(int row) const {
  return row >= 0 && row < rowCount() ? m_data->layout.words[static_cast<std::size_t>(row)] : -1;
}

int WeightHeatmapView::columnUnit(int column) const {
  return column >= 0 && column < columnCount() ? m_data->layout.units[static_cast<std::size_t>(column)] : -1;
}

double WeightHeatmapView::cellValue(int row, int column) const {
  const int word = rowWord(row), unit = columnUnit(column);
  return word >= 0 && unit >= 0 ? m_data->weights(word, unit) : 0.0;
}

QColor WeightHeatmapView::colourFor(double weight) const {
  const QPalette pal = palette();
  const double t = std::isfinite(weight) ? std::clamp(std::abs(weight) / m_max, 0.0, 1.0) : 0.0;
  return mixColours(pal.color(QPalette::Base), topicColour(weight >= 0 ? kPositiveHue : kNegativeHue, pal), t);
}

QFont WeightHeatmapView::smallFont() const {
  QFont f = font();
  f.setPointSizeF(f.pointSizeF() * 0.9);
  return f;
}

double WeightHeatmapView::rowHeightMin() const { return QFontMetricsF(smallFont()).height() + 1; }

double WeightHeatmapView::labelWidth() const {
  const QFontMetricsF fm(smallFont());
  double widest = 0;
  for (int r = 0; r < rowCount(); ++r) widest = std::max(widest, fm.horizontalAdvance(m_data->wordText(rowWord(r))));
  return std::min(widest + 8, kHeatMaxLabelWidth);
}

QSize WeightHeatmapView::minimumSizeHint() const {
  const double line = QFontMetricsF(smallFont()).height();
  const double top = 2 * line + 6, bottom = kHeatLegendBar + 18 + 2 * line;
  return {320, static_cast<int>(std::ceil(2 * kHeatMargin + top + bottom + rowCount() * rowHeightMin()))};
}

QSize WeightHeatmapView::sizeHint() const {
  const QSize minimum = minimumSizeHint();
  const int width = static_cast<int>(2 * kHeatMargin + labelWidth() + kHeatGroupBand + columnCount() * 18.0);
  return {std::max(minimum.width(), width), minimum.height()};
}

void WeightHeatmapView::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  layoutCells();
}

void WeightHeatmapView::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  if (event->type() == QEvent::FontChange) {
    updateGeometry();
    layoutCells();
  }
}

void WeightHeatmapView::layoutCells() {
  m_grid = {};
  const int rows = rowCount(), columns = columnCount();
  if (rows == 0 || columns == 0) return;
  const QFontMetricsF fm(smallFont());
  const double line = fm.height();
  // Above: the axis title and the unit numbers; below: the colour scale with its ends and name.
  const double top = kHeatMargin + 2 * line + 6, bottom = kHeatLegendBar + 18 + 2 * line + kHeatMargin;
  const double left = kHeatMargin + labelWidth();
  const double width = std::max(1.0, rect().width() - left - kHeatGroupBand - kHeatMargin);
  const double height = std::max(1.0, rect().height() - top - bottom);
  // Every row keeps a line of text; the columns share the width, no wider than a square-ish cell.
  m_cellHeight = std::clamp(height / rows, rowHeightMin(), kHeatMaxCellHeight);
  m_cellWidth = std::min(width / columns, kHeatMaxCellWidth);
  m_grid = QRectF(left, top, m_cellWidth * columns, m_cellHeight * rows);
  const double numberWidth = fm.horizontalAdvance(QString::number(columns)) + 4;
  m_columnLabelStep = std::max(1, static_cast<int>(std::ceil(numberWidth / std::max(m_cellWidth, 1e-6))));
  const double legendWidth = std::min(260.0, std::max(160.0, m_grid.width()));
  m_legend = QRectF(std::max(kHeatMargin, m_grid.center().x() - legendWidth / 2), m_grid.bottom() + line + 4,
                    legendWidth, kHeatLegendBar);
}

QRectF WeightHeatmapView::cellRect(int row, int column) const {
  if (row < 0 || column < 0 || row >= rowCount() || column >= columnCount() || m_grid.isEmpty()) return {};
  return {m_grid.left() + column * m_cellWidth, m_grid.top() + row * m_cellHeight, m_cellWidth, m_cellHeight};
}

QPoint WeightHeatmapView::cellAt(const QPointF& p) const {
  if (m_grid.isEmpty() || !m_grid.contains(p)) return {-1, -1};
  const int column = std::min(columnCount() - 1, static_cast<int>((p.x() - m_grid.left()) / m_cellWidth));
  const int row = std::min(rowCount() - 1, static_cast<int>((p.y() - m_grid.top()) / m_cellHeight));
  return {column, row};
}

QString WeightHeatmapView::toolTipFor(int row, int column) const {
  const int word = rowWord(row), unit = columnUnit(column);
  if (word < 0 || unit < 0) return {};
  QString tip =
      m_data->isRatings()
          ? tr("“%1” and %2: the expected rating moves by %3 when the unit alone is on (%4 with every unit off)")
                .arg(m_data->wordText(word), m_data->unitName(unit),
                     (m_data->weights(word, unit) >= 0 ? QStringLiteral("+") : QString()) +
                         formatReal(m_data->weights(word, unit), 3),
                     formatReal(m_data->baseRating(word), 3))
          : tr("“%1” and %2: weight %3")
                .arg(m_data->wordText(word), m_data->unitName(unit), formatReal(m_data->weights(word, unit), 4));
  const int owner = m_data->layout.rowUnit[static_cast<std::size_t>(row)];
  if (owner != unit)
    tip += QLatin1Char('\n') + tr("%1 raises “%2” most").arg(m_data->unitName(owner), m_data->wordText(word));
  const QString summary = m_data->unitSummary(unit);
  if (!summary.isEmpty()) tip += QLatin1Char('\n') + tr("%1 %2").arg(m_data->unitName(unit), summary);
  return tip;
}

void WeightHeatmapView::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  const QPalette pal = palette();
  painter.fillRect(rect(), pal.color(QPalette::Base));
  const int rows = rowCount(), columns = columnCount();
  if (rows == 0 || columns == 0 || m_grid.isEmpty()) {
    painter.setPen(pal.color(QPalette::Disabled, QPalette::Text));
    painter.drawText(rect(), Qt::AlignCenter, tr("No weights to show"));
    return;
  }
  const QFont small = smallFont();
  const QFontMetricsF fm(small);
  painter.setFont(small);
  const QColor text = pal.color(QPalette::Text), quiet = pal.color(QPalette::PlaceholderText);

  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < columns; ++c) painter.fillRect(cellRect(r, c), colourFor(cellValue(r, c)));
  painter.setPen(QPen(axisColour(pal), 1));
  painter.drawRect(m_grid);

  // The groups: a firm line where a unit's group begins, and the unit's name beside it.
  const auto& starts = m_data->layout.groupStarts;
  for (std::size_t g = 0; g < starts.size(); ++g) {
    const int first = starts[g];
    const int end = g + 1 < starts.size() ? starts[g + 1] : rows;
    const double y0 = m_grid.top() + first * m_cellHeight, y1 = m_grid.top() + end * m_cellHeight;
    if (first > 0) {
      painter.setPen(QPen(text, 1));
      painter.drawLine(QPointF(m_grid.left(), y0), QPointF(m_grid.right() + 6, y0));
    }
    const int unit = m_data->layout.rowUnit[static_cast<std::size_t>(first)];
    painter.setPen(QPen(quiet, 1));
    painter.drawLine(QPointF(m_grid.right() + 4, y0 + 2), QPointF(m_grid.right() + 4, y1 - 2));
    painter.setPen(text);
    painter.drawText(QRectF(m_grid.right() + 8, y0, kHeatGroupBand - 8, std::max(y1 - y0, fm.height())),
                     Qt::AlignLeft | Qt::AlignVCenter,
                     fm.elidedText(m_data->unitName(unit), Qt::ElideRight, kHeatGroupBand - 8));
  }

  // Words beside their rows, unit numbers over their columns (every n-th when they do not all fit).
  painter.setPen(text);
  const double labels = m_grid.left() - kHeatMargin;
  for (int r = 0; r < rows; ++r) {
    const QRectF box(kHeatMargin, m_grid.top() + r * m_cellHeight, labels - 5, m_cellHeight);
    painter.drawText(box, Qt::AlignRight | Qt::AlignVCenter,
                     fm.elidedText(m_data->wordText(rowWord(r)), Qt::ElideRight, box.width()));
  }
  for (int c = 0; c < columns; c += m_columnLabelStep) {
    const double width = m_cellWidth * m_columnLabelStep;
    painter.drawText(QRectF(m_grid.left() + c * m_cellWidth + m_cellWidth / 2 - width / 2,
                            m_grid.top() - fm.height() - 2, width, fm.height()),
                     Qt::AlignCenter, QString::number(columnUnit(c) + 1));
  }
  painter.setPen(quiet);
  painter.drawText(QRectF(m_grid.left(), kHeatMargin, std::max(m_grid.width(), 300.0), fm.height()),
                   Qt::AlignLeft | Qt::AlignVCenter, tr("hidden units (alike units side by side)"));

  // The scale: -max (blue) through 0 (Base) to +max (red), its ends and name under the bar.
  QLinearGradient gradient(m_legend.topLeft(), m_legend.topRight());
  for (int i = 0; i <= 16; ++i) gradient.setColorAt(i / 16.0, colourFor(m_max * (i / 8.0 - 1.0)));
  painter.fillRect(m_legend, gradient);
  painter.setPen(QPen(axisColour(pal), 1));
  painter.drawRect(m_legend);
  painter.setPen(text);
  const double under = m_legend.bottom() + 3;
  painter.drawText(QRectF(m_legend.left() - 40, under, 80, fm.height()), Qt::AlignCenter,
                   QStringLiteral("−") + formatCompact(m_max, 2));
  painter.drawText(QRectF(m_legend.center().x() - 20, under, 40, fm.height()), Qt::AlignCenter, QStringLiteral("0"));
  painter.drawText(QRectF(m_legend.right() - 40, under, 80, fm.height()), Qt::AlignCenter,
                   QStringLiteral("+") + formatCompact(m_max, 2));
  painter.setPen(quiet);
  painter.drawText(QRectF(m_legend.left() - 60, under + fm.height(), m_legend.width() + 120, fm.height()),
                   Qt::AlignCenter, tr("weight: lowers the word ← → raises the word"));
}

bool WeightHeatmapView::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(e);
    const QPoint cell = cellAt(help->pos());
    if (cell.x() < 0) {
      QToolTip::hideText();
      e->ignore();
      return true;
    }
    QToolTip::showText(help->globalPos(), toolTipFor(cell.y(), cell.x()), this, cellRect(cell.y(), cell.x()).toRect());
    return true;
  }
  return QWidget::event(e);
}

}  // namespace latent::ui
