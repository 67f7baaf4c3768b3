// SPDX-License-Identifier: GPL-3.0-or-later
// The weight matrix of a harmonium (on ratings, the units' effects on the items' expected ratings,
// rating_effects) as a heat map: rows are the most telling words, grouped under
// the unit that raises each most, columns the units in an order that puts alike units side by
// side (both from WeightLayout, computed off the GUI thread); a diverging colour scale, the
// palette's base colour (white in light mode) at zero, red for positive and blue for negative
// weights from the app's topic colours, so it reads on light and dark palettes alike. Words on the
// left, unit numbers above, the scale underneath, the exact weight in each cell's tooltip.
#pragma once

#include <QWidget>

#include <memory>
#include <vector>

namespace latent::ui {

struct HiddenRunData;

class WeightHeatmapView final : public QWidget {
  Q_OBJECT

 public:
  explicit WeightHeatmapView(QWidget* parent = nullptr);

  void setData(std::shared_ptr<const HiddenRunData> data);
  const HiddenRunData* data() const noexcept { return m_data.get(); }

  int rowCount() const noexcept;
  int columnCount() const noexcept;
  int rowWord(int row) const;        // the word shown in a row
  int columnUnit(int column) const;  // the unit shown in a column
  double cellValue(int row, int column) const;
  // The end of the symmetric colour scale: the largest |weight| shown.
  double scaleMaximum() const noexcept { return m_max; }
  // A weight's fill on the current palette: Base at 0, red at +max, blue at -max.
  QColor colourFor(double weight) const;
  QRectF cellRect(int row, int column) const;
  // The (column, row) under a widget position, or (-1, -1).
  QPoint cellAt(const QPointF& position) const;
  QString toolTipFor(int row, int column) const;

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 protected:
  void paintEvent(QPaintEvent* event) override;
  bool event(QEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void changeEvent(QEvent* event) override;

 private:
  void layoutCells();
  QFont smallFont() const;
  double rowHeightMin() const;
  double labelWidth() const;

  std::shared_ptr<const HiddenRunData> m_data;
  double m_max = 1.0;
  QRectF m_grid;  // the cells' area
  double m_cellWidth = 0, m_cellHeight = 0;
  QRectF m_legend;
  int m_columnLabelStep = 1;  // every n-th unit number is written when they do not all fit
};

}  // namespace latent::ui
