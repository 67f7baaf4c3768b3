// SPDX-License-Identifier: GPL-3.0-or-later
// The adjacency matrix of a graph drawn as a grid of nodes × nodes cells, filled where an edge
// exists (darker for heavier edges), in a chosen node order, with group boundaries when the
// order comes from a node attribute; node names on hover.
#pragma once

#include <QVector>
#include <QWidget>

#include <memory>
#include <vector>

#include "core/data/graph.hpp"

namespace latent::ui {

class AdjacencyView final : public QWidget {
  Q_OBJECT

 public:
  explicit AdjacencyView(QWidget* parent = nullptr);

  void setGraph(std::shared_ptr<const core::Graph> graph);
  // The graph and its order at once (one rebuild of the grid instead of two).
  void setGraph(std::shared_ptr<const core::Graph> graph, std::vector<int> order, std::vector<int> groupStarts);
  // `order[i]` is the node shown at row and column i; `groupStarts` the positions where a new
  // group begins (boundaries are drawn there). An empty order means file order.
  void setOrder(std::vector<int> order, std::vector<int> groupStarts = {});

  // The grid as drawn: cells()[row][column] is the edge weight from the node at that row to the
  // node at that column (0 when there is no edge; both ways for an undirected graph).
  const QVector<QVector<double>>& cells() const noexcept { return m_cells; }
  const std::vector<int>& order() const noexcept { return m_order; }
  const std::vector<int>& groupStarts() const noexcept { return m_groupStarts; }
  // The cell under a point of the widget, or (-1, -1).
  QPoint cellAt(const QPoint& position) const;
  // The rectangle of a cell, in widget coordinates.
  QRect cellRect(int row, int column) const;

  QSize sizeHint() const override { return {520, 520}; }
  QSize minimumSizeHint() const override { return {160, 160}; }

 protected:
  void paintEvent(QPaintEvent* event) override;
  bool event(QEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  void rebuild();
  void layoutGrid();
  QString nodeLabel(int position) const;
  QFont labelFont() const;

  std::shared_ptr<const core::Graph> m_graph;
  std::vector<int> m_order;
  std::vector<int> m_groupStarts;
  QVector<QVector<double>> m_cells;
  double m_maxWeight = 1.0;
  // Layout: grid origin, cell size and whether names are drawn beside the grid.
  QPointF m_origin;
  double m_cell = 0.0;
  bool m_labels = false;
};

}  // namespace latent::ui
