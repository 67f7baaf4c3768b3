// SPDX-License-Identifier: GPL-3.0-or-later
// RelationMatricesView: the panels built from a run's partition and graph, and their painting.
#include "ui/runs/blocks/relation_matrices_view.hpp"

#include <QPainter>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "ui/runs/blocks/block_run_data.hpp"
#include "ui/util/chart_style.hpp"

namespace latent::ui {
namespace {

constexpr double kRelationPanelGap = 18.0;
constexpr double kRelationTitleHeight = 22.0;
constexpr double kRelationNameWidth = 96.0;
// Node names beside the rows when cells are at least this tall.
constexpr double kRelationNamedCell = 9.0;

}  // namespace

RelationMatricesView::RelationMatricesView(QWidget* parent) : QWidget(parent) {}

void RelationMatricesView::setData(std::shared_ptr<const BlockRunData> data) {
  m_data = std::move(data);
  m_panels.clear();
  m_featureOrder.clear();
  if (!m_data || !m_data->graph || m_data->nodeCount() > kMaxPairwiseNodes) {
    update();
    return;
  }
  const auto& graph = *m_data->graph;
  const auto& order = m_data->nodeOrder;
  const auto n = order.size();
  std::vector<int> position(n, 0);
  for (std::size_t i = 0; i < n; ++i) position[static_cast<std::size_t>(order[i])] = static_cast<int>(i);
  for (int p = 0; p < m_data->relationNames.size(); ++p) {
    Panel panel;
    panel.title = m_data->relationNames[p];
    panel.cells.assign(n, std::vector<signed char>(n, 0));
    panel.columnStarts = m_data->blockStarts;
    for (const auto& e :
         graph.relationEdges(static_cast<std::size_t>(m_data->relationIndex[static_cast<std::size_t>(p)]))) {
      const auto r = static_cast<std::size_t>(position[static_cast<std::size_t>(e.source)]);
      const auto c = static_cast<std::size_t>(position[static_cast<std::size_t>(e.target)]);
      panel.cells[r][c] = 1;
      if (!graph.directed) panel.cells[c][r] = 1;
    }
    m_panels.push_back(std::move(panel));
  }
  const auto features = static_cast<std::size_t>(m_data->nodeFeatures.cols());
  if (features > 0) {
    m_featureOrder.resize(features);
    std::iota(m_featureOrder.begin(), m_featureOrder.end(), 0);
    std::stable_sort(m_featureOrder.begin(), m_featureOrder.end(), [&](int a, int b) {
      return m_data->featureBlocks[static_cast<std::size_t>(a)] < m_data->featureBlocks[static_cast<std::size_t>(b)];
    });
    Panel panel;
    panel.title = tr("features");
    panel.cells.assign(n, std::vector<signed char>(features, 0));
    for (std::size_t r = 0; r < n; ++r)
      for (std::size_t c = 0; c < features; ++c)
        panel.cells[r][c] = static_cast<signed char>(m_data->nodeFeatures(order[r], m_featureOrder[c]));
    for (std::size_t c = 1; c < features; ++c)
      if (m_data->featureBlocks[static_cast<std::size_t>(m_featureOrder[c])] !=
          m_data->featureBlocks[static_cast<std::size_t>(m_featureOrder[c - 1])])
        panel.columnStarts.push_back(static_cast<int>(c));
    m_panels.push_back(std::move(panel));
  }
  update();
}

void RelationMatricesView::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  const QPalette pal = palette();
  painter.fillRect(rect(), pal.color(QPalette::Base));
  if (m_panels.empty()) {
    painter.setPen(pal.color(QPalette::Disabled, QPalette::Text));
    painter.drawText(rect(), Qt::AlignCenter,
                     m_data && m_data->nodeCount() > kMaxPairwiseNodes ? tr("Too many nodes to draw pair by pair")
                                                                       : tr("No relations to show"));
    return;
  }
  // Panels wrap onto as many rows as make the cells largest: eight relations of a small graph fill
  // the page in two or three rows rather than one thin strip.
  const auto n = static_cast<double>(m_panels.front().cells.size());
  const auto width = [](const Panel& panel) {
    return panel.cells.empty() ? 0.0 : static_cast<double>(panel.cells[0].size());
  };
  const std::size_t count = m_panels.size();
  std::size_t perRow = count;
  double cell = 0.0;
  for (std::size_t rows = 1; rows <= count; ++rows) {
    const std::size_t per = (count + rows - 1) / rows;
    double widest = 0.0;
    for (std::size_t first = 0; first < count; first += per) {
      double cells = 0.0;
      for (std::size_t p = first; p < std::min(count, first + per); ++p) cells += width(m_panels[p]);
      widest = std::max(widest, cells);
    }
    const double gaps = kRelationPanelGap * static_cast<double>(per - 1);
    const double usedRows = std::ceil(static_cast<double>(count) / static_cast<double>(per));
    const double fitWidth = (this->width() - 12.0 - gaps - kRelationNameWidth) / std::max(1.0, widest);
    const double fitHeight =
        (height() - 12.0 - usedRows * kRelationTitleHeight - (usedRows - 1) * kRelationPanelGap) / (usedRows * n);
    const double candidate = std::min(fitWidth, fitHeight);
    if (candidate > cell) {
      cell = candidate;
      perRow = per;
    }
  }
  cell = std::max(1.0, cell);
  const bool names = cell >= kRelationNamedCell;
  const double left = 6.0 + (names ? kRelationNameWidth : 0.0);

  QFont labelFont = font();
  labelFont.setPointSizeF(std::max(6.0, std::min(labelFont.pointSizeF(), cell * 0.75)));
  const auto drawNames = [&](double top) {
    if (!names) return;
    painter.setFont(labelFont);
    painter.setPen(pal.color(QPalette::Text));
    const QFontMetrics fm(labelFont);
    for (std::size_t i = 0; i < m_panels.front().cells.size(); ++i) {
      const QRectF row(6.0, top + static_cast<double>(i) * cell, kRelationNameWidth - 6.0, cell);
      painter.drawText(row, Qt::AlignRight | Qt::AlignVCenter,
                       fm.elidedText(m_data->nodeName(m_data->nodeOrder[i]), Qt::ElideRight,
                                     static_cast<int>(kRelationNameWidth - 6.0)));
    }
  };
  const QColor ink = pal.color(QPalette::Highlight);
  QColor missing = axisColour(pal);
  missing.setAlphaF(0.5f);
  QFont titleFont = font();
  titleFont.setBold(true);
  double x = left, top = 6.0 + kRelationTitleHeight;
  for (std::size_t p = 0; p < count; ++p) {
    const auto& panel = m_panels[p];
    if (p % perRow == 0) {
      if (p > 0) top += n * cell + kRelationPanelGap + kRelationTitleHeight;
      x = left;
      drawNames(top);
    }
    const auto rows = panel.cells.size();
    const auto cols = rows == 0 ? std::size_t{0} : panel.cells[0].size();
    const QRectF grid(x, top, cell * static_cast<double>(cols), cell * static_cast<double>(rows));
    painter.setFont(titleFont);
    painter.setPen(pal.color(QPalette::Text));
    painter.drawText(QRectF(grid.left() - kRelationPanelGap / 2, top - kRelationTitleHeight,
                            grid.width() + kRelationPanelGap, kRelationTitleHeight),
                     Qt::AlignHCenter | Qt::AlignVCenter, panel.title);
    painter.fillRect(grid, pal.color(QPalette::AlternateBase));
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t c = 0; c < cols; ++c) {
        const signed char v = panel.cells[r][c];
        if (v == 0) continue;
        painter.fillRect(
            QRectF(grid.left() + static_cast<double>(c) * cell, grid.top() + static_cast<double>(r) * cell, cell, cell),
            v > 0 ? ink : missing);
      }
    painter.setPen(QPen(pal.color(QPalette::Text), 1.4));
    for (const int start : m_data->blockStarts)
      painter.drawLine(QPointF(grid.left(), grid.top() + start * cell),
                       QPointF(grid.right(), grid.top() + start * cell));
    for (const int start : panel.columnStarts)
      painter.drawLine(QPointF(grid.left() + start * cell, grid.top()),
                       QPointF(grid.left() + start * cell, grid.bottom()));
    painter.setPen(QPen(axisColour(pal), 1));
    painter.drawRect(grid);
    x = grid.right() + kRelationPanelGap;
  }
}

}  // namespace latent::ui
