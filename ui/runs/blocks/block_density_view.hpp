// SPDX-License-Identifier: GPL-3.0-or-later
// A heat map of a matrix between groups of nodes: the block-pair link probabilities of a block
// model (equal cells, the value written in each when it fits), or, for graphs too large to draw
// pair by pair, the observed link density between groups of nodes (cells as wide as the groups).
// Group names and sizes on the axes, a colour scale underneath, details in tooltips.
#pragma once

#include <QColor>
#include <QStringList>
#include <QWidget>

#include <Eigen/Core>

#include <cstdint>
#include <vector>

namespace latent::ui {

struct DensityGrid {
  Eigen::MatrixXd values;                           // rows x columns, shown as colour (>= 0)
  std::vector<std::int64_t> rowSizes, columnSizes;  // nodes in each row / column group
  QStringList rowNames, columnNames;                // "Block 1", "nodes 1–14"
  // Observed links and possible pairs per cell, for tooltips; empty when not known.
  Eigen::MatrixXd links, pairs;
  QString valueName;            // what a value is, for the legend and tooltips ("link probability")
  QString rowAxis, columnAxis;  // axis titles ("from block", "to block"); empty: none
  bool directed = false;        // a cell is row -> column (else the pair, either way)
  bool proportional = false;    // cells as wide and high as their groups are large
};

class BlockDensityView final : public QWidget {
  Q_OBJECT

 public:
  explicit BlockDensityView(QWidget* parent = nullptr);

  void setGrid(DensityGrid grid);
  const DensityGrid& grid() const noexcept { return m_grid; }
  int rowCount() const noexcept { return static_cast<int>(m_grid.values.rows()); }
  int columnCount() const noexcept { return static_cast<int>(m_grid.values.cols()); }
  // The value a cell shows (its colour, and its text when values are written).
  double cellValue(int row, int column) const { return m_grid.values(row, column); }
  // The top of the colour scale: the largest value (the scale starts at 0).
  double scaleMaximum() const noexcept { return m_max; }
  // The cell's rectangle in widget coordinates; the cell under a point, or (-1, -1).
  QRectF cellRect(int row, int column) const;
  QPoint cellAt(const QPointF& position) const;
  // Whether the cells are large enough for their values to be written in them.
  bool showsValues() const noexcept { return m_values; }
  // The fill of a value on the current palette: Base at 0, the highlight colour at the maximum.
  QColor colourFor(double value) const;
  // The text of a cell as written in it.
  QString valueText(double value) const;

  QSize sizeHint() const override { return {360, 360}; }
  QSize minimumSizeHint() const override { return {180, 180}; }

 protected:
  void paintEvent(QPaintEvent* event) override;
  bool event(QEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void changeEvent(QEvent* event) override;

 private:
  void layoutGrid();
  QString rowLabel(int row) const;
  QString columnLabel(int column) const;
  QStringList shortColumnLabel(int column) const;
  QString tooltipFor(int row, int column) const;
  QFont smallFont() const;

  DensityGrid m_grid;
  double m_max = 1.0;
  // Layout: the grid's rectangle, cell edges (rows + 1 and columns + 1 positions), the legend.
  QRectF m_area;
  std::vector<double> m_rowEdges, m_columnEdges;
  QRectF m_legend;
  bool m_values = false;
  bool m_rowLabels = false, m_columnLabels = false, m_rotated = false;
  bool m_short = false;  // column names as their numbers over their sizes
  double m_labelWidth = 0;
  double m_columnBand = 0;  // height of the column names above the grid
};

}  // namespace latent::ui
