// SPDX-License-Identifier: GPL-3.0-or-later
// AdjacencyView: cell grid construction, layout with optional name margins, painting, tooltips.
#include "ui/browsers/adjacency_view.hpp"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "ui/util/chart_style.hpp"
#include "ui/util/format.hpp"
#include "ui/util/qt_convert.hpp"

namespace latent::ui {
namespace {

constexpr int kAdjacencyMargin = 8;
constexpr int kAdjacencyMaxLabelWidth = 150;

}  // namespace

AdjacencyView::AdjacencyView(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void AdjacencyView::setGraph(std::shared_ptr<const core::Graph> graph) {
  m_graph = std::move(graph);
  m_order.clear();
  m_groupStarts.clear();
  rebuild();
}

void AdjacencyView::setGraph(std::shared_ptr<const core::Graph> graph, std::vector<int> order,
                             std::vector<int> groupStarts) {
  m_graph = std::move(graph);
  m_order = std::move(order);
  m_groupStarts = std::move(groupStarts);
  rebuild();
}

void AdjacencyView::setOrder(std::vector<int> order, std::vector<int> groupStarts) {
  m_order = std::move(order);
  m_groupStarts = std::move(groupStarts);
  rebuild();
}

void AdjacencyView::rebuild() {
  m_cells.clear();
  m_maxWeight = 1.0;
  const int n = m_graph ? static_cast<int>(m_graph->nodeCount()) : 0;
  if (static_cast<int>(m_order.size()) != n) {
    m_order.resize(static_cast<std::size_t>(n));
    std::iota(m_order.begin(), m_order.end(), 0);
    m_groupStarts.clear();
  }
  // position[node] = where that node is drawn.
  std::vector<int> position(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) position[static_cast<std::size_t>(m_order[static_cast<std::size_t>(i)])] = i;
  m_cells = QVector<QVector<double>>(n, QVector<double>(n, 0.0));
  if (m_graph) {
    double maxWeight = 0.0;
    for (const auto& e : m_graph->edges) {
      if (e.source < 0 || e.target < 0 || e.source >= n || e.target >= n) continue;
      const int r = position[static_cast<std::size_t>(e.source)], c = position[static_cast<std::size_t>(e.target)];
      m_cells[r][c] = e.weight;
      if (!m_graph->directed) m_cells[c][r] = e.weight;
      maxWeight = std::max(maxWeight, std::abs(e.weight));
    }
    m_maxWeight = maxWeight > 0 ? maxWeight : 1.0;
  }
  layoutGrid();
  update();
}

void AdjacencyView::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  layoutGrid();
}

void AdjacencyView::layoutGrid() {
  const int n = static_cast<int>(m_cells.size());
  const QRectF area = QRectF(rect()).adjusted(kAdjacencyMargin, kAdjacencyMargin, -kAdjacencyMargin, -kAdjacencyMargin);
  m_labels = false;
  if (n == 0) {
    m_cell = 0;
    return;
  }
  // Names beside the grid when a cell is at least a line of (small) text high; else the grid alone.
  const QFontMetrics fm(labelFont());
  int labelWidth = 0;
  for (int i = 0; i < n; ++i) labelWidth = std::max(labelWidth, fm.horizontalAdvance(nodeLabel(i)));
  labelWidth = std::min(labelWidth + 6, kAdjacencyMaxLabelWidth);
  const double withLabels = std::min((area.width() - labelWidth) / n, (area.height() - labelWidth) / n);
  if (withLabels >= fm.height() * 0.9) {
    m_labels = true;
    m_cell = std::floor(withLabels);
    const double side = m_cell * n + labelWidth;
    m_origin = QPointF(area.left() + (area.width() - side) / 2 + labelWidth,
                       area.top() + (area.height() - side) / 2 + labelWidth);
  } else {
    // Below one pixel per node each edge is drawn as one pixel, so the whole matrix still fits.
    m_cell = std::min(area.width(), area.height()) / n;
    const double side = m_cell * n;
    m_origin = QPointF(area.left() + (area.width() - side) / 2, area.top() + (area.height() - side) / 2);
  }
}

QFont AdjacencyView::labelFont() const {
  QFont f = font();
  f.setPointSizeF(f.pointSizeF() * 0.85);
  return f;
}

QString AdjacencyView::nodeLabel(int pos) const {
  if (!m_graph || pos < 0 || pos >= static_cast<int>(m_order.size())) return {};
  return qs(m_graph->nodeNames[static_cast<std::size_t>(m_order[static_cast<std::size_t>(pos)])]);
}

QRect AdjacencyView::cellRect(int row, int column) const {
  return QRectF(m_origin.x() + column * m_cell, m_origin.y() + row * m_cell, m_cell, m_cell).toRect();
}

QPoint AdjacencyView::cellAt(const QPoint& p) const {
  const int n = static_cast<int>(m_cells.size());
  if (n == 0 || m_cell <= 0) return {-1, -1};
  const int column = static_cast<int>(std::floor((p.x() - m_origin.x()) / m_cell));
  const int row = static_cast<int>(std::floor((p.y() - m_origin.y()) / m_cell));
  if (row < 0 || column < 0 || row >= n || column >= n) return {-1, -1};
  return {column, row};
}

void AdjacencyView::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  const int n = static_cast<int>(m_cells.size());
  const QPalette pal = palette();
  painter.fillRect(rect(), pal.color(QPalette::Base));
  if (n == 0) {
    painter.setPen(pal.color(QPalette::Disabled, QPalette::Text));
    painter.drawText(rect(), Qt::AlignCenter, tr("No nodes"));
    return;
  }
  const QRectF grid(m_origin, QSizeF(m_cell * n, m_cell * n));
  painter.fillRect(grid, pal.color(QPalette::AlternateBase));

  // Edges: the palette's highlight colour, lighter for lighter edges.
  const QColor ink = pal.color(QPalette::Highlight);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      const double w = m_cells[r][c];
      if (w == 0.0) continue;
      QColor colour = ink;
      colour.setAlphaF(static_cast<float>(0.35 + 0.65 * std::min(1.0, std::abs(w) / m_maxWeight)));
      const QPointF at(m_origin.x() + c * m_cell, m_origin.y() + r * m_cell);
      const QRectF cell =
          m_cell >= 1.0 ? QRectF(at, QSizeF(m_cell, m_cell)) : QRectF(std::floor(at.x()), std::floor(at.y()), 1, 1);
      painter.fillRect(cell, colour);
    }

  // Thin grid lines when cells are large enough to separate.
  if (m_cell >= 6) {
    QColor line = axisColour(pal);
    line.setAlphaF(0.35f);
    painter.setPen(QPen(line, 0));
    for (int i = 1; i < n; ++i) {
      painter.drawLine(QPointF(grid.left(), grid.top() + i * m_cell), QPointF(grid.right(), grid.top() + i * m_cell));
      painter.drawLine(QPointF(grid.left() + i * m_cell, grid.top()), QPointF(grid.left() + i * m_cell, grid.bottom()));
    }
  }
  // Group boundaries from the chosen order.
  painter.setPen(QPen(pal.color(QPalette::Text), 1.6));
  for (const int start : m_groupStarts) {
    if (start <= 0 || start >= n) continue;
    painter.drawLine(QPointF(grid.left(), grid.top() + start * m_cell),
                     QPointF(grid.right(), grid.top() + start * m_cell));
    painter.drawLine(QPointF(grid.left() + start * m_cell, grid.top()),
                     QPointF(grid.left() + start * m_cell, grid.bottom()));
  }
  painter.setPen(QPen(axisColour(pal), 1));
  painter.drawRect(grid);

  if (m_labels) {
    painter.setPen(pal.color(QPalette::Text));
    painter.setFont(labelFont());
    const QFontMetrics fm(labelFont());
    for (int i = 0; i < n; ++i) {
      const QString name = fm.elidedText(nodeLabel(i), Qt::ElideRight, kAdjacencyMaxLabelWidth - 6);
      const QRectF rowRect(grid.left() - kAdjacencyMaxLabelWidth, grid.top() + i * m_cell, kAdjacencyMaxLabelWidth - 6,
                           m_cell);
      painter.drawText(rowRect, Qt::AlignRight | Qt::AlignVCenter, name);
      painter.save();
      painter.translate(grid.left() + i * m_cell + m_cell / 2, grid.top() - 6);
      painter.rotate(-90);
      painter.drawText(QRectF(0, -m_cell / 2, kAdjacencyMaxLabelWidth - 6, m_cell), Qt::AlignLeft | Qt::AlignVCenter,
                       name);
      painter.restore();
    }
  }
}

bool AdjacencyView::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(e);
    const QPoint cell = cellAt(help->pos());
    if (cell.x() < 0 || !m_graph) {
      QToolTip::hideText();
      e->ignore();
      return true;
    }
    const int row = cell.y(), column = cell.x();
    const double w = m_cells[row][column];
    const QString arrow = m_graph->directed ? QStringLiteral(" → ") : QStringLiteral(" — ");
    QString text = nodeLabel(row) + arrow + nodeLabel(column) + QLatin1Char('\n');
    text += w != 0.0 ? (w == 1.0 ? tr("edge") : tr("edge, weight %1").arg(formatCompact(w))) : tr("no edge");
    QToolTip::showText(help->globalPos(), text, this, cellRect(row, column));
    return true;
  }
  return QWidget::event(e);
}

}  // namespace latent::ui
