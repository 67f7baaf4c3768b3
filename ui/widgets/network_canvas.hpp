// SPDX-License-Identifier: GPL-3.0-or-later
// A node-link drawing: nodes at given places (a layout from core/data/graph_layout.hpp), coloured
// as the caller says, joined by plain edges, with a second kind of edge drawn on top in an accent
// colour, its opacity by strength (a model's predicted links). The wheel zooms about the pointer,
// a drag pans, a double click restores the whole drawing; hovering a node shows the caller's
// tooltip and lights its edges; clicking one reports it. Nodes are dots, or pies of their shares.
#pragma once

#include <QColor>
#include <QPainter>
#include <QString>
#include <QWidget>

#include <Eigen/Core>

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "ui/util/topic_colours.hpp"

namespace latent::ui {

struct NetworkDrawing {
  Eigen::MatrixX2d positions;       // N x 2, within [-1, 1]
  std::vector<QColor> nodeColours;  // N; invalid: the text colour
  // Optional, N: each node's marker shape, the cue that tells apart values whose colours repeat
  // (topicMarker); discs when empty.
  std::vector<TopicMarker> nodeMarkers;
  // Optional, N each: a node's size from 0 (smallest) to 1 (largest), and its label, written
  // beside it when the graph is small enough (kMaxLabelledNodes) and shown on hover otherwise.
  std::vector<double> nodeSizes;
  std::vector<QString> labels;
  // Optional: each node drawn as a pie of its shares (N x K, rows summing to one), slice k in
  // pieColours[k], instead of a dot of one colour (a mixed-membership model's nodes).
  Eigen::MatrixXd pieShares;
  std::vector<QColor> pieColours;
  std::vector<std::pair<std::int64_t, std::int64_t>> edges;  // plain edges
  struct Accent {
    std::int64_t a = 0, b = 0;
    double strength = 1.0;  // 0..1: opacity and width
  };
  std::vector<Accent> accents;  // drawn over the plain edges
};

inline constexpr int kMaxLabelledNodes = 60;

class NetworkCanvas final : public QWidget {
  Q_OBJECT

 public:
  explicit NetworkCanvas(QWidget* parent = nullptr);

  void setDrawing(NetworkDrawing drawing);
  const NetworkDrawing& drawing() const noexcept { return m_drawing; }
  void setAccents(std::vector<NetworkDrawing::Accent> accents);
  void setAccentColour(const QColor& colour);
  void setShowEdges(bool show);
  // Ringed and its edges lit (-1: none).
  void setSelected(std::int64_t node);
  std::int64_t selected() const noexcept { return m_selected; }
  void setToolTipText(std::function<QString(std::int64_t node)> text) { m_toolTip = std::move(text); }
  // What the canvas says when it has nothing to draw.
  void setEmptyText(const QString& text);

  // The node under a point of the widget, or -1; its place on the widget now (zoom and pan
  // included).
  std::int64_t nodeAt(const QPointF& point) const;
  QPointF nodePosition(std::int64_t node) const;
  double zoom() const noexcept { return m_zoom; }
  void zoomBy(double factor, const QPointF& about);
  void resetView();

  QSize sizeHint() const override { return {720, 540}; }
  QSize minimumSizeHint() const override { return {240, 200}; }

 Q_SIGNALS:
  void nodeActivated(qint64 node);

 protected:
  void paintEvent(QPaintEvent* event) override;
  bool event(QEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void leaveEvent(QEvent* event) override;

 private:
  double nodeRadius() const;
  double nodeRadius(std::int64_t node) const;
  bool drawsPies() const;
  void paintPie(QPainter& painter, std::int64_t node, const QPointF& centre, double radius) const;

  NetworkDrawing m_drawing;
  QColor m_accent;
  QString m_emptyText;
  std::function<QString(std::int64_t)> m_toolTip;
  bool m_showEdges = true;
  std::int64_t m_selected = -1;
  std::int64_t m_hover = -1;
  double m_zoom = 1.0;
  QPointF m_pan;  // in widget pixels
  QPointF m_pressAt;
  QPointF m_panAtPress;
  bool m_dragging = false;
};

}  // namespace latent::ui
