// SPDX-License-Identifier: GPL-3.0-or-later
// ActivationMapView: the scores' range, mapping to pixels, painting, the key, hover and clicks.
#include "ui/runs/hidden/activation_map_view.hpp"

#include <QEvent>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

#include "ui/runs/hidden/hidden_run_data.hpp"
#include "ui/util/chart_style.hpp"
#include "ui/util/format.hpp"
#include "ui/util/scatter_paint.hpp"
#include "ui/util/topic_colours.hpp"

namespace latent::ui {
namespace {

constexpr double kMapMargin = 10;
constexpr double kMapDot = 3.5;
constexpr double kMapPick = 7.0;  // pixels around a dot that still count as on it

}  // namespace

ActivationMapView::ActivationMapView(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void ActivationMapView::setData(std::shared_ptr<const HiddenRunData> data) {
  m_data = std::move(data);
  m_selected = m_hovered = -1;
  updateRange();
  update();
}

void ActivationMapView::setSelected(int document) {
  m_selected = document >= 0 && document < pointCount() ? document : -1;
  update();
}

int ActivationMapView::pointCount() const noexcept {
  return m_data && m_data->hasActivations() ? static_cast<int>(m_data->projection.points.rows()) : 0;
}

void ActivationMapView::updateRange() {
  m_range = QRectF(-1, -1, 2, 2);
  if (pointCount() == 0) return;
  const auto& p = m_data->projection.points;
  double x0 = p.col(0).minCoeff(), x1 = p.col(0).maxCoeff(), y0 = p.col(1).minCoeff(), y1 = p.col(1).maxCoeff();
  // A flat component (no spread) still gets a visible extent around its value.
  if (x1 - x0 < 1e-12) x0 -= 1, x1 += 1;
  if (y1 - y0 < 1e-12) y0 -= 1, y1 += 1;
  const double padX = (x1 - x0) * 0.05, padY = (y1 - y0) * 0.05;
  m_range = QRectF(QPointF(x0 - padX, y0 - padY), QPointF(x1 + padX, y1 + padY));
}

double ActivationMapView::keyWidth() const {
  if (!m_data || !m_data->hasLabels()) return 0;
  const QFontMetricsF fm(font());
  double widest = 0;
  for (int i = 0; i < m_data->corpus->labelNames.size(); ++i)
    widest = std::max(widest, fm.horizontalAdvance(keyText(i)));
  // The key takes at most a third of the width; longer names are elided.
  return std::min(widest + 26, rect().width() / 3.0);
}

QString ActivationMapView::keyText(int label) const {
  return QStringLiteral("%1 (%2)").arg(m_data->corpus->labelNames[label],
                                       formatCount(m_data->corpus->labelCounts[static_cast<std::size_t>(label)]));
}

QRectF ActivationMapView::plotRect() const {
  const QFontMetricsF fm(font());
  const double left = kMapMargin + fm.height() + fm.horizontalAdvance(QStringLiteral("−0.88")) + 10;
  const double bottom = kMapMargin + 2 * fm.height() + 8;
  // The key to the label colours stands right of the plot, so that it hides no dot.
  const double key = keyWidth();
  const double right = kMapMargin + (key > 0 ? key + 8 : 0);
  return QRectF(left, kMapMargin, rect().width() - left - right, rect().height() - kMapMargin - bottom);
}

QPointF ActivationMapView::documentScores(int document) const {
  if (document < 0 || document >= pointCount()) return {};
  return {m_data->projection.points(document, 0), m_data->projection.points(document, 1)};
}

QPointF ActivationMapView::documentPosition(int document) const {
  const QRectF plot = plotRect();
  const QPointF s = documentScores(document);
  return {plot.left() + (s.x() - m_range.left()) / m_range.width() * plot.width(),
          plot.bottom() - (s.y() - m_range.top()) / m_range.height() * plot.height()};
}

int ActivationMapView::documentAt(const QPointF& position) const {
  int best = -1;
  double bestDistance = kMapPick * kMapPick;
  for (int d = 0; d < pointCount(); ++d) {
    const QPointF delta = documentPosition(d) - position;
    const double distance = QPointF::dotProduct(delta, delta);
    if (distance <= bestDistance) best = d, bestDistance = distance;  // the later (drawn on top) of equals
  }
  return best;
}

QColor ActivationMapView::documentColour(int document) const {
  if (!m_data) return {};
  if (!m_data->hasLabels()) return topicColour(0, palette());
  return hiddenLabelColour(*m_data, m_data->corpus->labels[static_cast<std::size_t>(document)], palette());
}

QString ActivationMapView::axisTitle(int component) const {
  const auto& projection = m_data->projection;
  if (component >= projection.components) return tr("PC %1 (no spread)").arg(component + 1);
  return tr("PC %1 (%2 of variance)")
      .arg(component + 1)
      .arg(formatPercent(projection.explained[static_cast<std::size_t>(component)]));
}

QString ActivationMapView::toolTipFor(int document) const {
  if (document < 0 || document >= pointCount()) return {};
  QString tip = m_data->documentTitle(document);
  const QString label = m_data->documentLabel(document);
  if (!label.isEmpty()) tip += QLatin1Char('\n') + tr("label: %1").arg(label);
  const QPointF s = documentScores(document);
  tip += QLatin1Char('\n') + tr("PC 1 %1, PC 2 %2").arg(formatReal(s.x(), 3), formatReal(s.y(), 3));
  tip += QLatin1Char('\n') + tr("Click to show its activations");
  return tip;
}

void ActivationMapView::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing);
  const QPalette pal = palette();
  painter.fillRect(rect(), pal.color(QPalette::Base));
  const int n = pointCount();
  if (n == 0) {
    painter.setPen(pal.color(QPalette::Disabled, QPalette::Text));
    painter.drawText(rect(), Qt::AlignCenter, tr("The run stored no activations"));
    return;
  }
  const QFontMetricsF fm(font());
  const QRectF plot = plotRect();
  const QColor text = pal.color(QPalette::Text), quiet = pal.color(QPalette::PlaceholderText);
  QColor grid = axisColour(pal);
  grid.setAlphaF(0.25f);

  // Grid lines and ticks on both axes.
  double step = 1;
  for (const double v :
       niceTicks(m_range.left(), m_range.right(), std::max(2, static_cast<int>(plot.width() / 90)), &step)) {
    const double x = plot.left() + (v - m_range.left()) / m_range.width() * plot.width();
    painter.setPen(QPen(grid, 1));
    painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
    painter.setPen(text);
    painter.drawText(QRectF(x - 40, plot.bottom() + 3, 80, fm.height()), Qt::AlignHCenter | Qt::AlignTop,
                     tickText(v, step));
  }
  for (const double v :
       niceTicks(m_range.top(), m_range.bottom(), std::max(2, static_cast<int>(plot.height() / 60)), &step)) {
    const double y = plot.bottom() - (v - m_range.top()) / m_range.height() * plot.height();
    painter.setPen(QPen(grid, 1));
    painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
    painter.setPen(text);
    painter.drawText(
        QRectF(kMapMargin + fm.height(), y - fm.height() / 2, plot.left() - kMapMargin - fm.height() - 5, fm.height()),
        Qt::AlignRight | Qt::AlignVCenter, tickText(v, step));
  }
  painter.setPen(quiet);
  painter.drawText(QRectF(plot.left(), plot.bottom() + fm.height() + 5, plot.width(), fm.height()), Qt::AlignCenter,
                   axisTitle(0));
  painter.save();
  painter.translate(kMapMargin, plot.center().y());
  painter.rotate(-90);
  painter.drawText(QRectF(-plot.height() / 2, 0, plot.height(), fm.height()), Qt::AlignCenter,
                   fm.elidedText(axisTitle(1), Qt::ElideRight, plot.height()));
  painter.restore();

  // Dots: documents without a label first, so labelled ones lie on top.
  painter.save();
  painter.setClipRect(plot.adjusted(-kMapDot, -kMapDot, kMapDot, kMapDot));
  painter.setPen(Qt::NoPen);
  for (const bool labelled : {false, true})
    for (int d = 0; d < n; ++d) {
      const bool has = m_data->hasLabels() && m_data->corpus->labels[static_cast<std::size_t>(d)] >= 0;
      if (has != labelled) continue;
      QColor c = documentColour(d);
      c.setAlphaF(0.8f);
      painter.setBrush(c);
      painter.drawEllipse(documentPosition(d), kMapDot, kMapDot);
    }
  painter.setBrush(Qt::NoBrush);
  for (const int d : {m_hovered, m_selected}) {
    if (d < 0) continue;
    painter.setPen(QPen(text, d == m_selected ? 2.0 : 1.2));
    painter.drawEllipse(documentPosition(d), kMapDot + 3.5, kMapDot + 3.5);
  }
  painter.restore();
  painter.setPen(QPen(axisColour(pal), 1));
  painter.drawRect(plot);

  // The picked document's title beside its ring, kept inside the plot.
  if (m_selected >= 0) {
    const QString title = fm.elidedText(m_data->documentTitle(m_selected), Qt::ElideRight, 260);
    const QPointF at = documentPosition(m_selected);
    const double w = fm.horizontalAdvance(title) + 8;
    QRectF box(at.x() + 10, at.y() - fm.height() - 6, w, fm.height() + 2);
    if (box.right() > plot.right()) box.moveRight(at.x() - 10);
    if (box.top() < plot.top()) box.moveTop(at.y() + 6);
    QColor back = pal.color(QPalette::Base);
    back.setAlphaF(0.85f);
    painter.fillRect(box, back);
    painter.setPen(text);
    painter.drawText(box, Qt::AlignCenter, title);
  }

  // The key to the label colours, right of the plot.
  if (m_data->hasLabels()) {
    const auto& names = m_data->corpus->labelNames;
    const QRectF key(plot.right() + 8, plot.top(), keyWidth(), names.size() * fm.height() + 8);
    painter.setPen(QPen(axisColour(pal), 1));
    painter.drawRect(key);
    for (int i = 0; i < names.size(); ++i) {
      const double y = key.top() + 4 + i * fm.height();
      painter.setPen(Qt::NoPen);
      painter.setBrush(hiddenLabelColour(*m_data, i, pal));
      painter.drawEllipse(QPointF(key.left() + 10, y + fm.height() / 2), kMapDot + 0.5, kMapDot + 0.5);
      painter.setBrush(Qt::NoBrush);
      painter.setPen(text);
      painter.drawText(QRectF(key.left() + 20, y, key.width() - 24, fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
                       fm.elidedText(keyText(i), Qt::ElideRight, key.width() - 24));
    }
  }
}

bool ActivationMapView::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(e);
    const int d = documentAt(help->pos());
    if (d < 0) {
      QToolTip::hideText();
      e->ignore();
      return true;
    }
    const QPointF at = documentPosition(d);
    QToolTip::showText(help->globalPos(), toolTipFor(d), this,
                       QRectF(at.x() - kMapPick, at.y() - kMapPick, 2 * kMapPick, 2 * kMapPick).toRect());
    return true;
  }
  return QWidget::event(e);
}

void ActivationMapView::mouseMoveEvent(QMouseEvent* event) {
  const int d = documentAt(event->position());
  if (d != m_hovered) {
    m_hovered = d;
    setCursor(d >= 0 ? Qt::PointingHandCursor : Qt::ArrowCursor);
    update();
  }
}

void ActivationMapView::mouseReleaseEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return;
  const int d = documentAt(event->position());
  if (d >= 0) {
    setSelected(d);
    Q_EMIT documentClicked(d);
  }
}

void ActivationMapView::leaveEvent(QEvent* event) {
  QWidget::leaveEvent(event);
  if (m_hovered >= 0) {
    m_hovered = -1;
    update();
  }
}

}  // namespace latent::ui
