// SPDX-License-Identifier: GPL-3.0-or-later
// EmbeddingMapView: ranges, drawing, picking.
#include "ui/runs/embeddings/embedding_map_view.hpp"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "ui/util/scatter_paint.hpp"
#include "ui/util/topic_colours.hpp"

namespace latent::ui {
namespace {

// Points named without being asked for, and the distance in pixels within which a click picks one.
constexpr int kMapNamedPoints = 12;
constexpr double kMapPickPixels = 6.0;

}  // namespace

EmbeddingMapView::EmbeddingMapView(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setAutoFillBackground(true);
  setBackgroundRole(QPalette::Base);
}

void EmbeddingMapView::setPoints(std::vector<QPointF> points, QStringList names, const QString& xTitle,
                                 const QString& yTitle) {
  m_points = std::move(points);
  m_names = std::move(names);
  m_xTitle = xTitle;
  m_yTitle = yTitle;
  m_selected = -1;
  m_ringed.clear();
  // The range: every point and the origin, padded.
  double x0 = 0, x1 = 0, y0 = 0, y1 = 0;
  for (const auto& p : m_points) {
    x0 = std::min(x0, p.x());
    x1 = std::max(x1, p.x());
    y0 = std::min(y0, p.y());
    y1 = std::max(y1, p.y());
  }
  const double padX = std::max(1e-12, (x1 - x0) * 0.06), padY = std::max(1e-12, (y1 - y0) * 0.06);
  m_range = QRectF(QPointF(x0 - padX, y0 - padY), QPointF(x1 + padX, y1 + padY));
  std::vector<int> order(m_points.size());
  std::iota(order.begin(), order.end(), 0);
  const auto length = [&](int i) {
    return std::hypot(m_points[static_cast<std::size_t>(i)].x(), m_points[static_cast<std::size_t>(i)].y());
  };
  const auto n = std::min<std::size_t>(order.size(), kMapNamedPoints);
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(n), order.end(),
                    [&](int a, int b) { return length(a) > length(b) || (length(a) == length(b) && a < b); });
  m_extremes.assign(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(n));
  update();
}

void EmbeddingMapView::setSelection(int point, std::vector<int> ringed) {
  m_selected = point;
  m_ringed = std::move(ringed);
  update();
}

QRectF EmbeddingMapView::plotRect() const {
  const int left = fontMetrics().horizontalAdvance(QStringLiteral("-0.000")) + 12;
  const int bottom = 2 * fontMetrics().height() + 8;
  return QRectF(left, 8, std::max(10, width() - left - 12), std::max(10, height() - bottom - 8));
}

QPointF EmbeddingMapView::toWidget(QPointF value) const {
  const QRectF plot = plotRect();
  const double fx = (value.x() - m_range.left()) / std::max(1e-300, m_range.width());
  const double fy = (value.y() - m_range.top()) / std::max(1e-300, m_range.height());
  return {plot.left() + fx * plot.width(), plot.bottom() - fy * plot.height()};
}

int EmbeddingMapView::pointAt(QPointF position) const {
  int best = -1;
  double bestDistance = kMapPickPixels;
  for (std::size_t i = 0; i < m_points.size(); ++i) {
    const QPointF at = toWidget(m_points[i]);
    const double distance = std::hypot(at.x() - position.x(), at.y() - position.y());
    if (distance <= bestDistance) {
      bestDistance = distance;
      best = static_cast<int>(i);
    }
  }
  return best;
}

void EmbeddingMapView::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing);
  const QRectF plot = plotRect();
  const QColor text = palette().color(QPalette::Text);
  QColor quiet = text;
  quiet.setAlphaF(0.35f);
  // Axes through the origin, ticks along the plot's edges.
  painter.setPen(QPen(quiet, 1.0));
  painter.drawRect(plot);
  const QPointF origin = toWidget({0.0, 0.0});
  painter.drawLine(QPointF(plot.left(), origin.y()), QPointF(plot.right(), origin.y()));
  painter.drawLine(QPointF(origin.x(), plot.top()), QPointF(origin.x(), plot.bottom()));
  painter.setPen(text);
  double step = 0.0;
  for (const double t : niceTicks(m_range.left(), m_range.right(), 6, &step)) {
    const QPointF at = toWidget({t, m_range.top()});
    painter.drawText(QRectF(at.x() - 40, plot.bottom() + 2, 80, fontMetrics().height()), Qt::AlignCenter,
                     tickText(t, step));
  }
  for (const double t : niceTicks(m_range.top(), m_range.bottom(), 6, &step)) {
    const QPointF at = toWidget({m_range.left(), t});
    painter.drawText(QRectF(0, at.y() - fontMetrics().height() / 2.0, plot.left() - 6, fontMetrics().height()),
                     Qt::AlignRight | Qt::AlignVCenter, tickText(t, step));
  }
  painter.drawText(QRectF(plot.left(), height() - fontMetrics().height() - 2, plot.width(), fontMetrics().height()),
                   Qt::AlignCenter, m_xTitle + QStringLiteral("  \u2192   \u2191  ") + m_yTitle);

  // The dots, then the names: the extremes quietly, the selection and its neighbours in bold.
  QColor dot = topicColour(0, palette());
  dot.setAlphaF(0.55f);
  painter.setPen(Qt::NoPen);
  painter.setBrush(dot);
  painter.setClipRect(plot);
  for (const auto& p : m_points) painter.drawEllipse(toWidget(p), 2.5, 2.5);
  painter.setBrush(Qt::NoBrush);
  const QColor ring = topicColour(1, palette());
  for (const int i : m_ringed) {
    painter.setPen(QPen(ring, 1.5));
    painter.drawEllipse(toWidget(m_points[static_cast<std::size_t>(i)]), 5.0, 5.0);
  }
  if (m_selected >= 0) {
    painter.setPen(QPen(text, 2.0));
    painter.drawEllipse(toWidget(m_points[static_cast<std::size_t>(m_selected)]), 6.5, 6.5);
  }
  const auto name = [&](int i, bool bold) {
    QFont font = painter.font();
    font.setBold(bold);
    painter.setFont(font);
    painter.setPen(bold ? text : quiet.darker(100));
    const QPointF at = toWidget(m_points[static_cast<std::size_t>(i)]);
    const QString label = m_names.value(i);
    // Beside the dot, on its left where the right would leave the plot.
    const double width = painter.fontMetrics().horizontalAdvance(label);
    const double x = at.x() + 6 + width > plot.right() ? at.x() - 6 - width : at.x() + 6;
    painter.drawText(QPointF(x, at.y() - 4), label);
  };
  for (const int i : m_extremes)
    if (i != m_selected && std::find(m_ringed.begin(), m_ringed.end(), i) == m_ringed.end()) name(i, false);
  for (const int i : m_ringed) name(i, true);
  if (m_selected >= 0) name(m_selected, true);
}

void EmbeddingMapView::mousePressEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return QWidget::mousePressEvent(event);
  const int point = pointAt(event->position());
  if (point >= 0) Q_EMIT pointClicked(point);
}

bool EmbeddingMapView::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    const int point = pointAt(help->pos());
    if (point >= 0)
      QToolTip::showText(help->globalPos(), m_names.value(point), this);
    else
      QToolTip::hideText();
    return true;
  }
  return QWidget::event(event);
}

}  // namespace latent::ui
