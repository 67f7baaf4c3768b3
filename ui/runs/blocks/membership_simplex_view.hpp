// SPDX-License-Identifier: GPL-3.0-or-later
// Each node of a block model at its memberships (000 Fig. 27.22): for K = 3 a triangle whose
// corners are the blocks, each node a dot at its barycentric coordinates; for K = 2 a line (dots
// stacked where they would overlap); for K > 3 the blocks on a circle and each node at the
// membership-weighted mean of their positions. Dots are coloured by the graph's known label
// (or by the node's largest block), names drawn where there is room, and always on hover.
#pragma once

#include <QColor>
#include <QWidget>

#include <memory>
#include <vector>

#include "ui/util/topic_colours.hpp"

namespace latent::ui {

struct BlockRunData;

class MembershipSimplexView final : public QWidget {
  Q_OBJECT

 public:
  enum class Shape { Empty, Single, Line, Triangle, Polygon };

  explicit MembershipSimplexView(QWidget* parent = nullptr);

  void setData(std::shared_ptr<const BlockRunData> data);
  const BlockRunData* data() const noexcept { return m_data.get(); }
  Shape shape() const noexcept { return m_shape; }
  int nodeCount() const noexcept { return static_cast<int>(m_positions.size()); }

  // A node's barycentric coordinates as drawn: its membership row (summing to one).
  std::vector<double> coordinates(int node) const;
  // Where a block's corner and a node's dot are, in widget coordinates. A node sits at the
  // coordinate-weighted mean of the corners (on a line, dots that would overlap are stacked
  // above it, so only x follows the memberships there).
  QPointF vertexPosition(int block) const;
  QPointF nodePosition(int node) const;
  // The node whose dot is under a point (the nearest within reach), or -1.
  int nodeAt(const QPointF& position) const;
  QColor nodeColour(int node) const;
  // The node's marker shape (the second cue past twelve colours).
  TopicMarker nodeMarker(int node) const;
  // The colour of the simplex's outline, drawn from the palette's text colour.
  QColor outlineColour() const;
  // Nodes whose names are drawn beside their dots (the others are named on hover).
  bool isNamed(int node) const;
  int namedCount() const;

  QSize sizeHint() const override { return {560, 480}; }
  QSize minimumSizeHint() const override { return {240, 220}; }

 protected:
  void paintEvent(QPaintEvent* event) override;
  bool event(QEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void changeEvent(QEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void leaveEvent(QEvent* event) override;

 private:
  struct NameBlock {
    QRectF rect;
    QStringList lines;
    std::vector<int> nodes;
  };
  void layoutView();
  void placeNames();
  QRectF legendRect() const;
  QRectF vertexNameRect(int block) const;
  QStringList legendEntries(std::vector<QColor>* colours, std::vector<TopicMarker>* markers) const;
  QString tooltipFor(const std::vector<int>& nodes) const;
  std::vector<int> nodesNear(const QPointF& position) const;
  QFont nameFont() const;
  double dotRadius() const;

  std::shared_ptr<const BlockRunData> m_data;
  Shape m_shape = Shape::Empty;
  std::vector<QPointF> m_vertices;
  std::vector<QPointF> m_positions;
  std::vector<QColor> m_colours;
  std::vector<TopicMarker> m_markers;
  std::vector<NameBlock> m_names;
  std::vector<char> m_named;
  int m_hover = -1;
};

}  // namespace latent::ui
