// SPDX-License-Identifier: GPL-3.0-or-later
// FactorScatterView's drawing: dots blended into a cached image (vector shapes for SVG), axes
// with round ticks, and the rings and names drawn on top.
#include <QElapsedTimer>
#include <QPaintEngine>
#include <QPainter>

#include <algorithm>
#include <cmath>

#include "ui/runs/factors/factor_run_data.hpp"
#include "ui/runs/factors/factor_scatter_view.hpp"
#include "ui/util/chart_style.hpp"
#include "ui/util/scatter_paint.hpp"
#include "ui/util/topic_colours.hpp"

namespace latent::ui {
namespace {

constexpr int kMaxLabels = 25;  // more found items are ringed without names

QColor withAlpha(QColor c, double alpha) {
  c.setAlphaF(static_cast<float>(alpha));
  return c;
}

}  // namespace

QImage FactorScatterView::renderDots(QSizeF size, qreal ratio) const {
  QImage image((size * ratio).toSize(), QImage::Format_ARGB32_Premultiplied);
  image.setDevicePixelRatio(ratio);
  image.fill(Qt::transparent);
  if (!m_data || image.isNull()) return image;
  const double sx = size.width() * ratio / m_view.width(), sy = size.height() * ratio / m_view.height();
  auto pixel = [&](QPointF v) {
    return QPointF((v.x() - m_view.left()) * sx, image.height() - (v.y() - m_view.top()) * sy);
  };
  const QPalette pal = palette();
  DotPainter dots(image);
  dots.setColour(DotShape::Disc, topicColour(0, pal));
  dots.setColour(DotShape::Diamond, topicColour(1, pal));
  for (const int i : m_itemOrder) {
    const QPointF p = pixel(itemPoint(i));
    dots.draw(p.x(), p.y(), itemRadius(i) * ratio, itemOpacity(i), DotShape::Disc);
  }
  // Users on top when asked for: they are what the check box is for, and faint enough to show
  // the items beneath.
  if (m_showUsers)
    for (int u = 0; u < m_data->userCount(); ++u) {
      const QPointF p = pixel(userPoint(u));
      dots.draw(p.x(), p.y(), userRadius() * ratio, userOpacity(u), DotShape::Diamond);
    }
  return image;
}

void FactorScatterView::drawDotsAsVectors(QPainter& painter) const {
  // For SVG: every dot a shape of its own, so the drawing scales without blur.
  const QPalette pal = palette();
  painter.setPen(Qt::NoPen);
  const QColor colour = topicColour(0, pal);
  for (const int i : m_itemOrder) {
    const double r = itemRadius(i);
    painter.setBrush(withAlpha(colour, itemOpacity(i)));
    painter.drawEllipse(toWidget(itemPoint(i)), r, r);
  }
  if (m_showUsers) {
    const QColor colour = topicColour(1, pal);
    for (int u = 0; u < m_data->userCount(); ++u) {
      const QPointF c = toWidget(userPoint(u));
      const double r = userRadius();
      painter.setBrush(withAlpha(colour, userOpacity(u)));
      painter.drawPolygon(QPolygonF({c + QPointF(0, -r), c + QPointF(r, 0), c + QPointF(0, r), c + QPointF(-r, 0)}));
    }
  }
}

void FactorScatterView::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  const QPalette pal = palette();
  painter.fillRect(rect(), pal.color(QPalette::Base));
  if (!m_data || m_data->itemCount() == 0) {
    painter.setPen(pal.color(QPalette::PlaceholderText));
    painter.drawText(rect(), Qt::AlignCenter, m_data ? tr("This run has no items") : tr("No factors to show"));
    return;
  }
  const QRectF plot = plotRect();
  painter.setRenderHint(QPainter::Antialiasing, true);
  drawAxes(painter, plot);
  painter.save();
  painter.setClipRect(plot);
  const bool vector = painter.paintEngine() && painter.paintEngine()->type() == QPaintEngine::SVG;
  if (vector) {
    drawDotsAsVectors(painter);
  } else {
    // The cached dots are re-drawn only when the view, size, data or palette change (or when
    // rendered for an export at another pixel density).
    const qreal ratio = painter.paintEngine() && painter.paintEngine()->paintDevice()
                            ? painter.paintEngine()->paintDevice()->devicePixelRatioF()
                            : devicePixelRatioF();
    if (!m_dotsValid || m_dots.devicePixelRatio() != ratio || m_dots.size() != (plot.size() * ratio).toSize()) {
      QElapsedTimer timer;
      timer.start();
      QImage dots = renderDots(plot.size(), ratio);
      m_renderMs = static_cast<double>(timer.nsecsElapsed()) / 1e6;
      if (ratio != devicePixelRatioF()) {
        painter.drawImage(plot.topLeft(), dots);  // an export: keep the screen's cache
      } else {
        m_dots = std::move(dots);
        m_dotsValid = true;
      }
    }
    if (m_dotsValid && m_dots.devicePixelRatio() == ratio) painter.drawImage(plot.topLeft(), m_dots);
  }
  drawOverlay(painter, plot);
  painter.restore();
  painter.setPen(QPen(axisColour(pal), 1));
  painter.setBrush(Qt::NoBrush);
  painter.drawRect(plot);
}

void FactorScatterView::drawAxes(QPainter& painter, const QRectF& plot) const {
  const QPalette pal = palette();
  const QFontMetrics fm(font());
  QColor grid = axisColour(pal);
  grid.setAlphaF(0.25f);
  QColor zero = pal.color(QPalette::Text);
  zero.setAlphaF(0.35f);
  const QColor text = pal.color(QPalette::Text);
  double step = 1;
  painter.setFont(font());
  // Vertical grid lines and the x ticks.
  for (const double v :
       niceTicks(m_view.left(), m_view.right(), std::max(2, static_cast<int>(plot.width() / 90)), &step)) {
    const double x = toWidget(QPointF(v, 0)).x();
    painter.setPen(v == 0.0 ? QPen(zero, 1, Qt::DashLine) : QPen(grid, 1));
    painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
    painter.setPen(text);
    painter.drawLine(QPointF(x, plot.bottom()), QPointF(x, plot.bottom() + 4));
    painter.drawText(QRectF(x - 40, plot.bottom() + 5, 80, fm.height()), Qt::AlignHCenter | Qt::AlignTop,
                     tickText(v, step));
  }
  for (const double v :
       niceTicks(m_view.top(), m_view.bottom(), std::max(2, static_cast<int>(plot.height() / 60)), &step)) {
    const double y = toWidget(QPointF(0, v)).y();
    painter.setPen(v == 0.0 ? QPen(zero, 1, Qt::DashLine) : QPen(grid, 1));
    painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
    painter.setPen(text);
    painter.drawLine(QPointF(plot.left() - 4, y), QPointF(plot.left(), y));
    painter.drawText(QRectF(plot.left() - 86, y - fm.height() / 2.0, 80, fm.height()),
                     Qt::AlignRight | Qt::AlignVCenter, tickText(v, step));
  }
  // Axis titles.
  QFont bold = font();
  bold.setBold(true);
  painter.setFont(bold);
  painter.setPen(text);
  painter.drawText(QRectF(plot.left(), plot.bottom() + fm.height() + 8, plot.width(), fm.height() + 2),
                   Qt::AlignHCenter | Qt::AlignTop, dimensionName(m_x));
  painter.save();
  painter.translate(2, plot.center().y());
  painter.rotate(-90);
  painter.drawText(QRectF(-plot.height() / 2, 0, plot.height(), fm.height() + 2), Qt::AlignHCenter | Qt::AlignTop,
                   dimensionName(m_y));
  painter.restore();
  painter.setFont(font());
}

QRectF FactorScatterView::drawLabel(QPainter& painter, QPointF at, const QString& text, bool bold,
                                    std::vector<QRectF>* taken) const {
  QFont f = font();
  f.setBold(bold);
  if (taken) f.setPointSizeF(f.pointSizeF() * 0.85);  // the quiet names of the outermost items
  const QFontMetrics fm(f);
  const QRectF plot = plotRect();
  QRectF box(0, 0, fm.horizontalAdvance(text) + 8, fm.height() + 2);
  // Right of the dot when it fits, else left of it.
  box.moveTopLeft(at + QPointF(8, -box.height() / 2));
  if (box.right() > plot.right()) box.moveRight(at.x() - 8);
  box.moveTop(std::clamp(box.top(), plot.top(), plot.bottom() - box.height()));
  if (taken) {
    for (const QRectF& other : *taken)
      if (other.intersects(box)) return {};
    taken->push_back(box);
  }
  painter.setPen(Qt::NoPen);
  painter.setBrush(withAlpha(palette().color(QPalette::Base), taken ? 0.7 : 0.85));
  painter.drawRoundedRect(box, 3, 3);
  painter.setFont(f);
  painter.setPen(palette().color(taken ? QPalette::PlaceholderText : QPalette::Text));
  painter.drawText(box, Qt::AlignCenter, text);
  painter.setFont(font());
  painter.setBrush(Qt::NoBrush);
  return box;
}

void FactorScatterView::drawOverlay(QPainter& painter, const QRectF&) const {
  const QPalette pal = palette();
  const QColor text = pal.color(QPalette::Text);
  painter.setBrush(Qt::NoBrush);
  // The outermost items, named where their names do not collide.
  std::vector<QRectF> taken;
  for (const int i : namedExtremes())
    if (plotRect().contains(toWidget(itemPoint(i))) && i != m_hoverItem &&
        std::find(m_highlighted.begin(), m_highlighted.end(), i) == m_highlighted.end())
      drawLabel(painter, toWidget(itemPoint(i)), m_data->itemName(i), false, &taken);
  // The chosen user: its dot, and the direction from the origin along which items score higher
  // on these two factors.
  if (m_showUsers && m_user >= 0 && m_user < m_data->userCount()) {
    const QPointF c = toWidget(userPoint(m_user));
    if (m_x < m_data->factorCount() && m_y < m_data->factorCount()) {
      painter.setPen(QPen(withAlpha(topicColour(1, pal), 0.8), 1.2, Qt::DashLine));
      painter.drawLine(toWidget(QPointF(0, 0)), c);
    }
    const double r = 6;
    painter.setPen(QPen(text, 1.2));
    painter.setBrush(topicColour(1, pal));
    painter.drawPolygon(QPolygonF({c + QPointF(0, -r), c + QPointF(r, 0), c + QPointF(0, r), c + QPointF(-r, 0)}));
    painter.setBrush(Qt::NoBrush);
    drawLabel(painter, c, tr("user %1").arg(m_data->userId(m_user)), true);
  }
  // The recommendations, numbered best first.
  const QColor green = topicColour(2, pal);
  QFont small = font();
  small.setPointSizeF(small.pointSizeF() * 0.85);
  small.setBold(true);
  for (std::size_t k = 0; k < m_recommended.size(); ++k) {
    const int i = m_recommended[k];
    const QPointF c = toWidget(itemPoint(i));
    painter.setPen(QPen(green, 2));
    painter.drawEllipse(c, itemRadius(i) + 3.5, itemRadius(i) + 3.5);
    painter.setFont(small);
    painter.drawText(
        QRectF(c.x() - 30, c.y() - itemRadius(i) - 4 - QFontMetrics(small).height(), 60, QFontMetrics(small).height()),
        Qt::AlignHCenter | Qt::AlignBottom, QString::number(k + 1));
  }
  painter.setFont(font());
  // Found items, named while there are few enough to read.
  for (const int i : m_highlighted) {
    const QPointF c = toWidget(itemPoint(i));
    painter.setPen(QPen(text, 2));
    painter.drawEllipse(c, itemRadius(i) + 5, itemRadius(i) + 5);
  }
  if (static_cast<int>(m_highlighted.size()) <= kMaxLabels)
    for (const int i : m_highlighted) drawLabel(painter, toWidget(itemPoint(i)), m_data->itemName(i), false);
  // The dot under the mouse.
  if (m_hoverItem >= 0) {
    const QPointF c = toWidget(itemPoint(m_hoverItem));
    painter.setPen(QPen(text, 1.5));
    painter.drawEllipse(c, itemRadius(m_hoverItem) + 2.5, itemRadius(m_hoverItem) + 2.5);
    drawLabel(painter, c, m_data->itemName(m_hoverItem), true);
  } else if (m_hoverUser >= 0) {
    const QPointF c = toWidget(userPoint(m_hoverUser));
    painter.setPen(QPen(text, 1.5));
    painter.drawEllipse(c, userRadius() + 3, userRadius() + 3);
    drawLabel(painter, c, tr("user %1").arg(m_data->userId(m_hoverUser)), true);
  }
}

}  // namespace latent::ui
