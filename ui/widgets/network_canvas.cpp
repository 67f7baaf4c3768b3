// SPDX-License-Identifier: GPL-3.0-or-later
// Painting, hit-testing, zoom and pan of a node-link drawing.
#include "ui/widgets/network_canvas.hpp"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

#include "ui/util/topic_marker.hpp"

namespace latent::ui {
namespace {

constexpr double kCanvasMargin = 14.0;
constexpr double kDragThreshold = 4.0;  // pixels a press may move and still be a click
constexpr double kMinZoom = 0.5, kMaxZoom = 40.0;

}  // namespace

NetworkCanvas::NetworkCanvas(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
  setAccentColour(QColor(0xE6, 0x55, 0x0D));
}

void NetworkCanvas::setDrawing(NetworkDrawing drawing) {
  m_drawing = std::move(drawing);
  m_hover = -1;
  if (m_selected >= m_drawing.positions.rows()) m_selected = -1;
  update();
}

void NetworkCanvas::setAccents(std::vector<NetworkDrawing::Accent> accents) {
  m_drawing.accents = std::move(accents);
  update();
}

void NetworkCanvas::setAccentColour(const QColor& colour) {
  m_accent = colour;
  update();
}

void NetworkCanvas::setShowEdges(bool show) {
  m_showEdges = show;
  update();
}

void NetworkCanvas::setSelected(std::int64_t node) {
  m_selected = node >= 0 && node < m_drawing.positions.rows() ? node : -1;
  update();
}

void NetworkCanvas::setEmptyText(const QString& text) {
  m_emptyText = text;
  update();
}

double NetworkCanvas::nodeRadius() const {
  // Smaller nodes for larger graphs; zooming in makes them larger, but less than the layout.
  const double n = std::max<double>(1.0, static_cast<double>(m_drawing.positions.rows()));
  const double base = std::clamp(40.0 / std::sqrt(n), 1.6, 7.0);
  return base * std::sqrt(m_zoom);
}

double NetworkCanvas::nodeRadius(std::int64_t node) const {
  const auto i = static_cast<std::size_t>(node);
  if (i >= m_drawing.nodeSizes.size()) return nodeRadius();
  // Area grows with the size: from the plain radius to 2.2 times it.
  return nodeRadius() * (1.0 + 1.2 * std::sqrt(std::clamp(m_drawing.nodeSizes[i], 0.0, 1.0)));
}

bool NetworkCanvas::drawsPies() const {
  return m_drawing.pieShares.rows() == m_drawing.positions.rows() && m_drawing.pieShares.rows() > 0 &&
         static_cast<std::size_t>(m_drawing.pieShares.cols()) == m_drawing.pieColours.size();
}

// Slices clockwise from twelve o'clock in block order, so that the same block sits at the same
// angle in every pie; slivers too thin to see are left to the neighbouring slices.
void NetworkCanvas::paintPie(QPainter& painter, std::int64_t node, const QPointF& centre, double radius) const {
  constexpr double kSmallestSlice = 0.01;
  const QRectF box(centre.x() - radius, centre.y() - radius, 2 * radius, 2 * radius);
  const QPen outline = painter.pen();
  painter.setPen(Qt::NoPen);
  double shown = 0.0;
  for (Eigen::Index k = 0; k < m_drawing.pieShares.cols(); ++k)
    if (m_drawing.pieShares(node, k) >= kSmallestSlice) shown += m_drawing.pieShares(node, k);
  double start = 90.0;
  for (Eigen::Index k = 0; k < m_drawing.pieShares.cols() && shown > 0.0; ++k) {
    const double share = m_drawing.pieShares(node, k);
    if (share < kSmallestSlice) continue;
    const double span = -360.0 * share / shown;
    painter.setBrush(m_drawing.pieColours[static_cast<std::size_t>(k)]);
    painter.drawPie(box, static_cast<int>(std::lround(start * 16)), static_cast<int>(std::lround(span * 16)));
    start += span;
  }
  painter.setPen(outline);
  painter.setBrush(Qt::NoBrush);
  painter.drawEllipse(centre, radius, radius);
}

QPointF NetworkCanvas::nodePosition(std::int64_t node) const {
  if (node < 0 || node >= m_drawing.positions.rows()) return {};
  // Room for the largest node at the border.
  const double side = std::max(1.0, std::min(width(), height()) - 2 * (kCanvasMargin + 2.2 * nodeRadius()));
  const QPointF centre(width() / 2.0, height() / 2.0);
  const double half = side / 2.0 * m_zoom;
  return centre + m_pan + QPointF(half * m_drawing.positions(node, 0), half * m_drawing.positions(node, 1));
}

std::int64_t NetworkCanvas::nodeAt(const QPointF& point) const {
  std::int64_t best = -1;
  double bestDistance = 0.0;
  for (Eigen::Index i = 0; i < m_drawing.positions.rows(); ++i) {
    const QPointF d = nodePosition(i) - point;
    const double distance = std::hypot(d.x(), d.y());
    if (distance <= nodeRadius(i) + 3.0 && (best < 0 || distance < bestDistance)) {
      best = i;
      bestDistance = distance;
    }
  }
  return best;
}

void NetworkCanvas::zoomBy(double factor, const QPointF& about) {
  const double next = std::clamp(m_zoom * factor, kMinZoom, kMaxZoom);
  const double applied = next / m_zoom;
  // Keep the point under the pointer where it is.
  const QPointF centre(width() / 2.0, height() / 2.0);
  m_pan = (m_pan + centre - about) * applied + about - centre;
  m_zoom = next;
  update();
}

void NetworkCanvas::resetView() {
  m_zoom = 1.0;
  m_pan = {};
  update();
}

void NetworkCanvas::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing);
  const auto n = m_drawing.positions.rows();
  if (n == 0) {
    painter.setPen(palette().color(QPalette::PlaceholderText));
    painter.drawText(rect().adjusted(20, 20, -20, -20), Qt::AlignCenter | Qt::TextWordWrap, m_emptyText);
    return;
  }
  const QColor text = palette().color(QPalette::Text);
  const std::int64_t focus = m_hover >= 0 ? m_hover : m_selected;
  const auto touches = [focus](std::int64_t a, std::int64_t b) { return focus >= 0 && (a == focus || b == focus); };
  if (m_showEdges) {
    QColor plain = text;
    plain.setAlphaF(focus >= 0 ? 0.10 : 0.22);
    QPainterPath path;
    for (const auto& [a, b] : m_drawing.edges) {
      if (touches(a, b)) continue;
      path.moveTo(nodePosition(a));
      path.lineTo(nodePosition(b));
    }
    painter.setPen(QPen(plain, 0.8));
    painter.drawPath(path);
    QColor lit = text;
    lit.setAlphaF(0.85);
    painter.setPen(QPen(lit, 1.6));
    for (const auto& [a, b] : m_drawing.edges)
      if (touches(a, b)) painter.drawLine(nodePosition(a), nodePosition(b));
  }
  for (const auto& accent : m_drawing.accents) {
    QColor c = m_accent;
    const double s = std::clamp(accent.strength, 0.0, 1.0);
    const bool lit = touches(accent.a, accent.b);
    c.setAlphaF(focus >= 0 && !lit ? 0.06 : 0.15 + 0.55 * s);
    painter.setPen(QPen(c, lit ? 2.0 : 0.6 + 1.2 * s, lit ? Qt::SolidLine : Qt::DashLine, Qt::RoundCap));
    painter.drawLine(nodePosition(accent.a), nodePosition(accent.b));
  }
  const QColor outline = palette().color(QPalette::Base);
  painter.setPen(QPen(outline, nodeRadius() > 3 ? 1.0 : 0.5));
  const bool pies = drawsPies();
  for (Eigen::Index i = 0; i < n; ++i) {
    const auto ui = static_cast<std::size_t>(i);
    const QColor fill =
        ui < m_drawing.nodeColours.size() && m_drawing.nodeColours[ui].isValid() ? m_drawing.nodeColours[ui] : text;
    const double r = nodeRadius(i);
    if (pies) {
      paintPie(painter, i, nodePosition(i), r);
      continue;
    }
    painter.setBrush(fill);
    if (ui < m_drawing.nodeMarkers.size())
      drawTopicMarker(painter, m_drawing.nodeMarkers[ui], nodePosition(i), r);
    else
      painter.drawEllipse(nodePosition(i), r, r);
  }
  if (n <= kMaxLabelledNodes && m_drawing.labels.size() == static_cast<std::size_t>(n)) {
    painter.setPen(text);
    const QFontMetricsF metrics(font());
    for (Eigen::Index i = 0; i < n; ++i)
      painter.drawText(nodePosition(i) + QPointF(nodeRadius(i) + 3.0, metrics.ascent() / 2.5),
                       m_drawing.labels[static_cast<std::size_t>(i)]);
  }
  for (const std::int64_t ringed : {m_selected, m_hover}) {
    if (ringed < 0) continue;
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(text, 2.0));
    painter.drawEllipse(nodePosition(ringed), nodeRadius(ringed) + 3.0, nodeRadius(ringed) + 3.0);
  }
}

bool NetworkCanvas::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    const auto node = nodeAt(help->pos());
    if (node >= 0 && m_toolTip)
      QToolTip::showText(help->globalPos(), m_toolTip(node), this);
    else
      QToolTip::hideText();
    return true;
  }
  return QWidget::event(event);
}

void NetworkCanvas::wheelEvent(QWheelEvent* event) {
  const double steps = event->angleDelta().y() / 120.0;
  if (steps == 0.0) return;
  zoomBy(std::pow(1.25, steps), event->position());
  event->accept();
}

void NetworkCanvas::mousePressEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return;
  m_pressAt = event->position();
  m_panAtPress = m_pan;
  m_dragging = false;
}

void NetworkCanvas::mouseMoveEvent(QMouseEvent* event) {
  if (event->buttons() & Qt::LeftButton) {
    const QPointF moved = event->position() - m_pressAt;
    if (m_dragging || std::hypot(moved.x(), moved.y()) > kDragThreshold) {
      m_dragging = true;
      m_pan = m_panAtPress + moved;
      setCursor(Qt::ClosedHandCursor);
      update();
      return;
    }
  }
  const auto node = nodeAt(event->position());
  if (node != m_hover) {
    m_hover = node;
    setCursor(node >= 0 ? Qt::PointingHandCursor : Qt::ArrowCursor);
    update();
  }
}

void NetworkCanvas::mouseReleaseEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return;
  if (m_dragging) {
    m_dragging = false;
    unsetCursor();
    return;
  }
  const auto node = nodeAt(event->position());
  if (node >= 0) {
    setSelected(node);
    Q_EMIT nodeActivated(node);
  }
}

void NetworkCanvas::mouseDoubleClickEvent(QMouseEvent* event) {
  if (nodeAt(event->position()) < 0) resetView();
}

void NetworkCanvas::leaveEvent(QEvent*) {
  if (m_hover >= 0) {
    m_hover = -1;
    update();
  }
}

}  // namespace latent::ui
