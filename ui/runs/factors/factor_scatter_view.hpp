// SPDX-License-Identifier: GPL-3.0-or-later
// The factor scatter of a pmf run (000 Fig. 27.28): every item (and optionally every user) placed
// by two chosen factors, dots sized and shaded by how many ratings the item has, names on hover,
// found items and a user's recommendations ringed; wheel to zoom, drag to pan, double-click to
// see everything (or +, - and 0 on the keyboard). The dots are drawn once into a cached image,
// so 100,000 points stay quick (the drawing is in factor_scatter_paint.cpp).
#pragma once

#include <QImage>
#include <QWidget>

#include <memory>
#include <vector>

class QPainter;

namespace latent::ui {

struct FactorRunData;

class FactorScatterView final : public QWidget {
  Q_OBJECT

 public:
  explicit FactorScatterView(QWidget* parent = nullptr);

  void setData(std::shared_ptr<const FactorRunData> data);
  const FactorRunData* data() const noexcept { return m_data.get(); }

  // A dimension is a factor, 0 .. K-1, or the bias, K (items' b_i, users' b_u).
  void setDimensions(int x, int y);
  int xDimension() const noexcept { return m_x; }
  int yDimension() const noexcept { return m_y; }
  QString dimensionName(int dimension) const;
  void setShowUsers(bool show);
  bool showsUsers() const noexcept { return m_showUsers; }

  // Rings the items found by a search and moves the view so that they are in its middle.
  void setHighlightedItems(std::vector<int> items);
  const std::vector<int>& highlightedItems() const noexcept { return m_highlighted; }
  // The user whose recommendations are shown (ringed and numbered, best first); -1 for none.
  // The user's own dot is drawn when users are shown.
  void setUser(int user, std::vector<int> recommended);
  int user() const noexcept { return m_user; }
  const std::vector<int>& recommendedItems() const noexcept { return m_recommended; }

  // Positions in the values of the two dimensions, and where they are drawn in the widget.
  QPointF itemPoint(int item) const;
  QPointF userPoint(int user) const;
  QPointF toWidget(QPointF value) const;
  QPointF toValue(QPointF widget) const;
  // The item (user) drawn nearest a widget position, within a few pixels; -1 when none is.
  int itemAt(QPointF position) const;
  int userAt(QPointF position) const;  // -1 also when users are hidden
  int hoveredItem() const noexcept { return m_hoverItem; }
  int hoveredUser() const noexcept { return m_hoverUser; }
  // The items named without being asked for: the few drawn farthest from the origin.
  const std::vector<int>& namedExtremes() const;
  QString toolTipAt(QPointF position) const;

  // The part of the plane shown (x from left to right, y from top to bottom of the rectangle,
  // i.e. y grows downwards in the rectangle while the plot's y axis grows upwards).
  QRectF visibleValues() const noexcept { return m_view; }
  QRectF plotRect() const;
  void resetView();
  void zoom(double factor, QPointF aroundWidget);
  // Milliseconds the last drawing of the dots took (for the benchmark in the tests).
  double lastRenderMilliseconds() const noexcept { return m_renderMs; }

  QSize sizeHint() const override { return {640, 520}; }
  QSize minimumSizeHint() const override { return {260, 220}; }

 Q_SIGNALS:
  void userClicked(int user);
  void itemClicked(int item);
  void viewChanged();

 protected:
  void paintEvent(QPaintEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void changeEvent(QEvent* event) override;
  bool event(QEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  void leaveEvent(QEvent* event) override;

 private:
  QRectF fullRange() const;
  double itemValue(int item, int dimension) const;
  double userValue(int user, int dimension) const;
  double itemRadius(int item) const;
  double userRadius() const;
  void updateDotScale();
  void updateMargins();
  double itemOpacity(int item) const;
  double userOpacity(int user) const;
  void invalidate();
  QImage renderDots(QSizeF size, qreal ratio) const;
  void drawDotsAsVectors(QPainter& painter) const;
  void drawAxes(QPainter& painter, const QRectF& plot) const;
  void drawOverlay(QPainter& painter, const QRectF& plot) const;
  // A name beside a dot; with `taken`, a quieter one that is left out where it would cover another.
  QRectF drawLabel(QPainter& painter, QPointF at, const QString& text, bool bold,
                   std::vector<QRectF>* taken = nullptr) const;
  void updateHover(QPointF position);

  std::shared_ptr<const FactorRunData> m_data;
  int m_x = 0, m_y = 1;
  bool m_showUsers = false;
  std::vector<int> m_highlighted;
  int m_user = -1;
  std::vector<int> m_recommended;
  std::vector<int> m_itemOrder;  // drawing order: rarely rated items first, so well-rated ones lie on top
  double m_logMaxItemCount = 1.0, m_maxItemCount = 1.0, m_logMaxUserCount = 1.0;
  double m_dotScale = 1.0;
  int m_leftMargin = 0, m_bottomMargin = 0;
  QRectF m_view;
  int m_hoverItem = -1, m_hoverUser = -1;
  // Dragging pans; a press released where it began is a click.
  bool m_pressed = false;
  bool m_dragged = false;
  QPointF m_pressAt;
  QRectF m_pressView;
  mutable QImage m_dots;  // the cached dots, for the current view, size and palette
  mutable bool m_dotsValid = false;
  mutable double m_renderMs = 0.0;
  mutable std::vector<int> m_extremes;
  mutable bool m_extremesValid = false;
};

}  // namespace latent::ui
