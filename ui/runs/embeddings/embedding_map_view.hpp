// SPDX-License-Identifier: GPL-3.0-or-later
// A plain scatter of named points (an embedding run's words or documents on two components): the
// points farthest out and the selected point with its neighbours named, names on hover, a click
// selects the nearest point.
#pragma once

#include <QPointF>
#include <QStringList>
#include <QWidget>

#include <vector>

namespace latent::ui {

class EmbeddingMapView final : public QWidget {
  Q_OBJECT

 public:
  explicit EmbeddingMapView(QWidget* parent = nullptr);

  // The points and their names; `xTitle` and `yTitle` name the axes.
  void setPoints(std::vector<QPointF> points, QStringList names, const QString& xTitle, const QString& yTitle);
  // The selected point (-1: none) and the points to ring beside it (its neighbours).
  void setSelection(int point, std::vector<int> ringed);
  int selected() const noexcept { return m_selected; }
  const std::vector<int>& ringed() const noexcept { return m_ringed; }
  int pointCount() const noexcept { return static_cast<int>(m_points.size()); }
  // The points named without being asked for: those farthest from the origin.
  const std::vector<int>& namedExtremes() const noexcept { return m_extremes; }

  QPointF toWidget(QPointF value) const;
  // The point drawn nearest a widget position, within a few pixels; -1 when none is.
  int pointAt(QPointF position) const;

  QSize sizeHint() const override { return {640, 520}; }
  QSize minimumSizeHint() const override { return {260, 220}; }

 Q_SIGNALS:
  void pointClicked(int point);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  bool event(QEvent* event) override;

 private:
  QRectF plotRect() const;

  std::vector<QPointF> m_points;
  QStringList m_names;
  QString m_xTitle, m_yTitle;
  QRectF m_range;  // the values shown
  std::vector<int> m_extremes;
  int m_selected = -1;
  std::vector<int> m_ringed;
};

}  // namespace latent::ui
