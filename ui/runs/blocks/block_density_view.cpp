// SPDX-License-Identifier: GPL-3.0-or-later
// BlockDensityView: layout (labels beside and above, legend below), painting, tooltips.
#include "ui/runs/blocks/block_density_view.hpp"

#include <QEvent>
#include <QHelpEvent>
#include <QLinearGradient>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

#include "ui/util/chart_style.hpp"
#include "ui/util/format.hpp"
#include "ui/util/topic_colours.hpp"

namespace latent::ui {
namespace {

constexpr double kDensityMargin = 8;
constexpr double kDensityMaxLabelWidth = 130;
constexpr double kLegendBar = 10;

// Cumulative edges of cells: equal, or as wide as their groups when `sizes` are used.
std::vector<double> edges(int count, double start, double length, const std::vector<std::int64_t>* sizes) {
  std::vector<double> out(static_cast<std::size_t>(count) + 1, start);
  double total = 0;
  if (sizes && static_cast<int>(sizes->size()) == count)
    for (const auto s : *sizes) total += static_cast<double>(std::max<std::int64_t>(s, 0));
  double run = 0;
  for (int i = 0; i < count; ++i) {
    run += total > 0 ? static_cast<double>(std::max<std::int64_t>((*sizes)[static_cast<std::size_t>(i)], 0)) / total
                     : 1.0 / count;
    out[static_cast<std::size_t>(i) + 1] = start + run * length;
  }
  return out;
}

}  // namespace

BlockDensityView::BlockDensityView(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void BlockDensityView::setGrid(DensityGrid grid) {
  m_grid = std::move(grid);
  m_max = 0.0;
  for (Eigen::Index r = 0; r < m_grid.values.rows(); ++r)
    for (Eigen::Index c = 0; c < m_grid.values.cols(); ++c)
      if (std::isfinite(m_grid.values(r, c))) m_max = std::max(m_max, m_grid.values(r, c));
  if (m_max <= 0.0) m_max = 1.0;
  layoutGrid();
  update();
}

QFont BlockDensityView::smallFont() const {
  QFont f = font();
  f.setPointSizeF(f.pointSizeF() * 0.9);
  return f;
}

QString BlockDensityView::rowLabel(int row) const {
  QString name = row < m_grid.rowNames.size() ? m_grid.rowNames[row] : QString::number(row + 1);
  if (static_cast<std::size_t>(row) < m_grid.rowSizes.size() && !m_grid.proportional)
    name += QStringLiteral(" (%1)").arg(formatCount(m_grid.rowSizes[static_cast<std::size_t>(row)]));
  return name;
}

QString BlockDensityView::columnLabel(int column) const {
  QString name = column < m_grid.columnNames.size() ? m_grid.columnNames[column] : QString::number(column + 1);
  if (static_cast<std::size_t>(column) < m_grid.columnSizes.size() && !m_grid.proportional)
    name += QStringLiteral(" (%1)").arg(formatCount(m_grid.columnSizes[static_cast<std::size_t>(column)]));
  return name;
}

QStringList BlockDensityView::shortColumnLabel(int column) const {
  QStringList lines{QString::number(column + 1)};
  if (static_cast<std::size_t>(column) < m_grid.columnSizes.size())
    lines << QStringLiteral("(%1)").arg(formatCount(m_grid.columnSizes[static_cast<std::size_t>(column)]));
  return lines;
}

QString BlockDensityView::valueText(double value) const {
  if (!std::isfinite(value)) return QStringLiteral("–");
  if (value == 0.0) return QStringLiteral("0");
  return formatCompact(value, 2);
}

QColor BlockDensityView::colourFor(double value) const {
  const double t = std::isfinite(value) ? std::clamp(value / m_max, 0.0, 1.0) : 0.0;
  return mixColours(palette().color(QPalette::Base), palette().color(QPalette::Highlight), t);
}

void BlockDensityView::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  layoutGrid();
}

void BlockDensityView::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  if (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange) layoutGrid();
}

void BlockDensityView::layoutGrid() {
  const int rows = rowCount(), columns = columnCount();
  m_rowEdges.clear();
  m_columnEdges.clear();
  m_values = m_rowLabels = m_columnLabels = m_rotated = m_short = false;
  if (rows == 0 || columns == 0) return;
  const QFontMetricsF fm(smallFont());
  const double line = fm.height();
  QRectF area = QRectF(rect()).adjusted(kDensityMargin, kDensityMargin, -kDensityMargin, -kDensityMargin);
  // The legend: a bar with its ends and name written underneath.
  const double legendHeight = kLegendBar + 4 + 2 * line;
  area.setBottom(area.bottom() - legendHeight - 10);
  if (!m_grid.rowAxis.isEmpty()) area.setLeft(area.left() + line + 4);
  if (!m_grid.columnAxis.isEmpty()) area.setTop(area.top() + line + 4);

  double rowLabelWidth = 0, columnLabelWidth = 0;
  for (int r = 0; r < rows; ++r) rowLabelWidth = std::max(rowLabelWidth, fm.horizontalAdvance(rowLabel(r)));
  for (int c = 0; c < columns; ++c) columnLabelWidth = std::max(columnLabelWidth, fm.horizontalAdvance(columnLabel(c)));
  rowLabelWidth = std::min(rowLabelWidth + 6, kDensityMaxLabelWidth);
  columnLabelWidth = std::min(columnLabelWidth + 6, kDensityMaxLabelWidth);

  // Equal cells are square; proportional ones share a square grid. Names go beside and above
  // when a cell (or, proportional, the largest group) is at least a line high; column names
  // turn upright when they do not fit across; without room there are none (tooltips remain).
  auto cellFor = [&](double left, double top) {
    const double w = area.width() - left, h = area.height() - top;
    return m_grid.proportional ? std::min(w, h) : std::min(w / columns, h / rows);
  };
  auto largestShare = [](const std::vector<std::int64_t>& sizes) {
    double total = 0, largest = 0;
    for (const auto s : sizes) total += static_cast<double>(s), largest = std::max(largest, static_cast<double>(s));
    return total > 0 ? largest / total : 0.0;
  };
  // The extent of the group that gets the most room, for a given cell (or grid side).
  auto roomiest = [&](double cell) {
    return m_grid.proportional ? cell * std::min(largestShare(m_grid.rowSizes), largestShare(m_grid.columnSizes))
                               : cell;
  };
  double across = 0;
  for (int c = 0; c < columns; ++c) across = std::max(across, fm.horizontalAdvance(columnLabel(c)) + 6);
  // The short form of a column's name: its number over its size, for narrow cells.
  double shortAcross = 0;
  for (int c = 0; c < columns; ++c) {
    const QStringList lines = shortColumnLabel(c);
    for (const auto& l : lines) shortAcross = std::max(shortAcross, fm.horizontalAdvance(l) + 4);
  }
  const double shortBand = (m_grid.columnSizes.empty() ? 1 : 2) * line + 2;
  double cell = cellFor(rowLabelWidth, line + 2);
  if (!m_grid.proportional && cell >= line * 0.9 && across <= cell) {
    m_rowLabels = m_columnLabels = true;
  } else if (cell = cellFor(rowLabelWidth, shortBand);
             !m_grid.proportional && cell >= line * 0.9 && shortAcross <= cell) {
    m_rowLabels = m_columnLabels = m_short = true;
  } else if (cell = cellFor(rowLabelWidth, columnLabelWidth); roomiest(cell) >= line * 0.9) {
    m_rowLabels = m_columnLabels = m_rotated = true;
  } else {
    cell = cellFor(0, 0);
  }
  m_labelWidth = m_rowLabels ? rowLabelWidth : 0;
  const double top = !m_columnLabels ? 0 : m_rotated ? columnLabelWidth : m_short ? shortBand : line + 2;
  m_columnBand = top;
  const double width = m_grid.proportional ? cell : cell * columns, height = m_grid.proportional ? cell : cell * rows;
  const double left = area.left() + m_labelWidth + (area.width() - m_labelWidth - width) / 2;
  const double gridTop = area.top() + top + (area.height() - top - height) / 2;
  m_area = QRectF(left, gridTop, width, height);
  m_rowEdges = edges(rows, gridTop, height, m_grid.proportional ? &m_grid.rowSizes : nullptr);
  m_columnEdges = edges(columns, left, width, m_grid.proportional ? &m_grid.columnSizes : nullptr);
  m_values = !m_grid.proportional && cell >= fm.horizontalAdvance(QStringLiteral("0.000")) + 6 && cell >= line + 4;
  // The colour scale under the grid, kept inside the widget when the grid is narrow.
  const double legendWidth = std::min({240.0, std::max(width, 160.0), rect().width() - 2 * kDensityMargin});
  const double legendLeft = std::clamp(left + (width - legendWidth) / 2, kDensityMargin,
                                       std::max(kDensityMargin, rect().width() - kDensityMargin - legendWidth));
  m_legend = QRectF(legendLeft, m_area.bottom() + 14, legendWidth, kLegendBar);
}

QRectF BlockDensityView::cellRect(int row, int column) const {
  if (row < 0 || column < 0 || row >= rowCount() || column >= columnCount() || m_rowEdges.empty()) return {};
  const auto r = static_cast<std::size_t>(row), c = static_cast<std::size_t>(column);
  return QRectF(QPointF(m_columnEdges[c], m_rowEdges[r]), QPointF(m_columnEdges[c + 1], m_rowEdges[r + 1]));
}

QPoint BlockDensityView::cellAt(const QPointF& p) const {
  if (m_rowEdges.empty() || !m_area.contains(p)) return {-1, -1};
  const auto row = std::upper_bound(m_rowEdges.begin(), m_rowEdges.end(), p.y()) - m_rowEdges.begin() - 1;
  const auto column = std::upper_bound(m_columnEdges.begin(), m_columnEdges.end(), p.x()) - m_columnEdges.begin() - 1;
  if (row < 0 || column < 0 || row >= rowCount() || column >= columnCount()) return {-1, -1};
  return {static_cast<int>(column), static_cast<int>(row)};
}

void BlockDensityView::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  const QPalette pal = palette();
  painter.fillRect(rect(), pal.color(QPalette::Base));
  const int rows = rowCount(), columns = columnCount();
  if (rows == 0 || columns == 0 || m_rowEdges.empty()) {
    painter.setPen(pal.color(QPalette::Disabled, QPalette::Text));
    painter.drawText(rect(), Qt::AlignCenter, tr("Nothing to show"));
    return;
  }
  const QFont small = smallFont();
  const QFontMetricsF fm(small);
  painter.setFont(small);
  const QColor text = pal.color(QPalette::Text), light = pal.color(QPalette::HighlightedText);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < columns; ++c) {
      const QRectF cell = cellRect(r, c);
      const QColor fill = colourFor(m_grid.values(r, c));
      painter.fillRect(cell, fill);
      if (m_values) {
        painter.setPen(contrastRatio(text, fill) >= contrastRatio(light, fill) ? text : light);
        painter.drawText(cell, Qt::AlignCenter, valueText(m_grid.values(r, c)));
      }
    }
  // Lines between cells: faint between equal cells, firm between the groups of a proportional grid.
  QColor line = axisColour(pal);
  if (!m_grid.proportional) line.setAlphaF(0.5f);
  // Lines need room between them: at least 5 pixels per cell on average.
  const bool drawLines = std::min(m_area.width() / columns, m_area.height() / rows) >= 5;
  if (drawLines) {
    painter.setPen(m_grid.proportional ? QPen(pal.color(QPalette::Text), 1.2) : QPen(line, 0));
    for (int r = 1; r < rows; ++r)
      painter.drawLine(QPointF(m_area.left(), m_rowEdges[static_cast<std::size_t>(r)]),
                       QPointF(m_area.right(), m_rowEdges[static_cast<std::size_t>(r)]));
    for (int c = 1; c < columns; ++c)
      painter.drawLine(QPointF(m_columnEdges[static_cast<std::size_t>(c)], m_area.top()),
                       QPointF(m_columnEdges[static_cast<std::size_t>(c)], m_area.bottom()));
  }
  painter.setPen(QPen(axisColour(pal), 1));
  painter.drawRect(m_area);

  // Group names (with sizes) beside and above, where a label has room.
  painter.setPen(text);
  if (m_rowLabels)
    for (int r = 0; r < rows; ++r) {
      const double top = m_rowEdges[static_cast<std::size_t>(r)],
                   height = m_rowEdges[static_cast<std::size_t>(r) + 1] - top;
      if (height < fm.height() * 0.8) continue;
      const QRectF box(m_area.left() - m_labelWidth, top, m_labelWidth - 5, height);
      painter.drawText(box, Qt::AlignRight | Qt::AlignVCenter, fm.elidedText(rowLabel(r), Qt::ElideRight, box.width()));
    }
  if (m_columnLabels)
    for (int c = 0; c < columns; ++c) {
      const double left = m_columnEdges[static_cast<std::size_t>(c)],
                   width = m_columnEdges[static_cast<std::size_t>(c) + 1] - left;
      if (width < fm.height() * 0.8) continue;
      if (m_short) {
        const QStringList lines = shortColumnLabel(c);
        for (int l = 0; l < lines.size(); ++l)
          painter.drawText(QRectF(left, m_area.top() - m_columnBand + l * fm.height(), width, fm.height()),
                           Qt::AlignCenter, lines[l]);
      } else if (m_rotated) {
        painter.save();
        painter.translate(left + width / 2, m_area.top() - 5);
        painter.rotate(-90);
        painter.drawText(QRectF(0, -width / 2, kDensityMaxLabelWidth - 6, width), Qt::AlignLeft | Qt::AlignVCenter,
                         fm.elidedText(columnLabel(c), Qt::ElideRight, kDensityMaxLabelWidth - 6));
        painter.restore();
      } else {
        painter.drawText(QRectF(left, m_area.top() - fm.height() - 2, width, fm.height()), Qt::AlignCenter,
                         fm.elidedText(columnLabel(c), Qt::ElideRight, width));
      }
    }
  // Axis titles, in the palette's quieter text colour.
  const QColor quiet = pal.color(QPalette::PlaceholderText);
  painter.setPen(quiet);
  if (!m_grid.columnAxis.isEmpty()) {
    painter.drawText(QRectF(m_area.left(), std::max(kDensityMargin, m_area.top() - m_columnBand - fm.height() - 4),
                            m_area.width(), fm.height()),
                     Qt::AlignCenter, m_grid.columnAxis);
  }
  if (!m_grid.rowAxis.isEmpty()) {
    painter.save();
    painter.translate(kDensityMargin, m_area.center().y());
    painter.rotate(-90);
    painter.drawText(QRectF(-m_area.height() / 2, 0, m_area.height(), fm.height()), Qt::AlignCenter, m_grid.rowAxis);
    painter.restore();
  }

  // The colour scale: Base (0) to the highlight colour (the largest value).
  QLinearGradient gradient(m_legend.topLeft(), m_legend.topRight());
  for (int i = 0; i <= 8; ++i) gradient.setColorAt(i / 8.0, colourFor(m_max * i / 8.0));
  painter.fillRect(m_legend, gradient);
  painter.setPen(QPen(axisColour(pal), 1));
  painter.drawRect(m_legend);
  // The ends of the scale under the bar, its name between them when it fits, else below.
  painter.setPen(text);
  const double top = m_legend.bottom() + 3;
  const QString high = valueText(m_max);
  painter.drawText(QRectF(m_legend.left(), top, 60, fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
                   QStringLiteral("0"));
  painter.drawText(QRectF(m_legend.right() - 60, top, 60, fm.height()), Qt::AlignRight | Qt::AlignVCenter, high);
  painter.setPen(quiet);
  const double ends = fm.horizontalAdvance(QStringLiteral("0")) + fm.horizontalAdvance(high) + 20;
  const bool between = fm.horizontalAdvance(m_grid.valueName) <= m_legend.width() - ends;
  painter.drawText(QRectF(m_legend.left(), between ? top : top + fm.height(), m_legend.width(), fm.height()),
                   Qt::AlignCenter, fm.elidedText(m_grid.valueName, Qt::ElideRight, m_legend.width()));
}

QString BlockDensityView::tooltipFor(int row, int column) const {
  auto group = [](const QStringList& names, const std::vector<std::int64_t>& sizes, int i) {
    QString name = i < names.size() ? names[i] : QString::number(i + 1);
    if (static_cast<std::size_t>(i) < sizes.size())
      name += QStringLiteral(" (%1)").arg(countOf(sizes[static_cast<std::size_t>(i)], tr("node"), tr("nodes")));
    return name;
  };
  QString tip = group(m_grid.rowNames, m_grid.rowSizes, row) +
                (m_grid.directed ? QStringLiteral(" → ") : QStringLiteral(" — ")) +
                group(m_grid.columnNames, m_grid.columnSizes, column);
  tip += QLatin1Char('\n') + tr("%1: %2").arg(m_grid.valueName, formatCompact(m_grid.values(row, column), 4));
  if (m_grid.links.rows() == m_grid.values.rows() && m_grid.links.cols() == m_grid.values.cols() &&
      m_grid.pairs.rows() == m_grid.values.rows() && m_grid.pairs.cols() == m_grid.values.cols()) {
    const double links = m_grid.links(row, column), pairs = m_grid.pairs(row, column);
    tip += QLatin1Char('\n') + tr("in the graph: %1 of %2 linked")
                                   .arg(countOf(static_cast<std::int64_t>(links), tr("link"), tr("links")),
                                        countOf(static_cast<std::int64_t>(pairs), tr("pair"), tr("pairs")));
    if (pairs > 0) tip += QStringLiteral(" (%1)").arg(formatCompact(links / pairs, 3));
  }
  return tip;
}

bool BlockDensityView::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(e);
    const QPoint cell = cellAt(help->pos());
    if (cell.x() < 0) {
      QToolTip::hideText();
      e->ignore();
      return true;
    }
    QToolTip::showText(help->globalPos(), tooltipFor(cell.y(), cell.x()), this, cellRect(cell.y(), cell.x()).toRect());
    return true;
  }
  return QWidget::event(e);
}

}  // namespace latent::ui
