// SPDX-License-Identifier: GPL-3.0-or-later
// ActivationBarsView: the bars, the mean ticks, the 0..1 axis and the tooltips.
#include "ui/runs/hidden/activation_bars_view.hpp"

#include <QEvent>
#include <QHelpEvent>
#include <QLocale>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <vector>

#include "ui/runs/hidden/hidden_run_data.hpp"
#include "ui/util/chart_style.hpp"
#include "ui/util/format.hpp"
#include "ui/util/topic_colours.hpp"

namespace latent::ui {
namespace {

constexpr double kActivationMargin = 8;
constexpr double kActivationMaxWidth = 28;

}  // namespace

ActivationBarsView::ActivationBarsView(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void ActivationBarsView::setData(std::shared_ptr<const HiddenRunData> data) {
  m_data = std::move(data);
  m_document = -1;
  update();
}

void ActivationBarsView::setDocument(int document) {
  m_document = m_data && document >= 0 && document < m_data->documentCount() ? document : -1;
  update();
}

int ActivationBarsView::barCount() const noexcept {
  return m_data && m_data->hasActivations() && m_document >= 0 ? m_data->unitCount() : 0;
}

double ActivationBarsView::barValue(int unit) const {
  return unit >= 0 && unit < barCount() ? m_data->activations(m_document, unit) : 0.0;
}

QRectF ActivationBarsView::plotRect() const {
  const QFontMetricsF fm(font());
  const double left = kActivationMargin + fm.horizontalAdvance(QStringLiteral("0.0")) + 10;
  // Under the plot: the unit numbers, then the key to the mean ticks.
  const QRectF area(left, kActivationMargin + fm.height() / 2, rect().width() - left - kActivationMargin,
                    rect().height() - 2 * kActivationMargin - 2 * fm.height() - 8 - fm.height() / 2);
  const int n = barCount();
  if (n == 0) return area;
  const double width = std::min(area.width(), n * kActivationMaxWidth);
  return {area.left(), area.top(), width, area.height()};
}

QRectF ActivationBarsView::barRect(int unit) const {
  if (unit < 0 || unit >= barCount()) return {};
  const QRectF plot = plotRect();
  const double slot = plot.width() / barCount();
  const double gap = slot >= 6 ? std::max(1.0, slot * 0.18) : 0.0;
  const double top = valueY(barValue(unit)), zero = valueY(0.0);
  return {plot.left() + unit * slot + gap / 2, std::min(top, zero), slot - gap, std::abs(zero - top)};
}

double ActivationBarsView::valueY(double value) const {
  const QRectF plot = plotRect();
  const double lo = m_data ? m_data->activationLow : 0.0, hi = m_data ? m_data->activationHigh : 1.0;
  return plot.bottom() - (std::clamp(value, lo, hi) - lo) / (hi - lo) * plot.height();
}

int ActivationBarsView::unitAt(const QPointF& p) const {
  const int n = barCount();
  const QRectF plot = plotRect();
  if (n == 0 || p.x() < plot.left() || p.x() >= plot.right() || p.y() < plot.top() - 4 || p.y() > plot.bottom() + 4)
    return -1;
  return std::min(n - 1, static_cast<int>((p.x() - plot.left()) / (plot.width() / n)));
}

QString ActivationBarsView::toolTipFor(int unit) const {
  if (unit < 0 || unit >= barCount()) return {};
  QString tip = m_data->activationsAreProbabilities()
                    ? tr("%1: P(on | this %2) = %3")
                          .arg(m_data->unitName(unit), m_data->caseNoun(), formatReal(barValue(unit), 3))
                    : tr("%1: activation given this %2 = %3")
                          .arg(m_data->unitName(unit), m_data->caseNoun(), formatReal(barValue(unit), 3));
  if (static_cast<std::size_t>(unit) < m_data->meanActivation.size())
    tip += QLatin1Char('\n') +
           tr("mean over the %1: %2")
               .arg(m_data->caseNoun(true), formatReal(m_data->meanActivation[static_cast<std::size_t>(unit)], 3));
  const QString summary = m_data->unitSummary(unit, 8);
  if (!summary.isEmpty()) tip += QLatin1Char('\n') + summary;
  return tip;
}

void ActivationBarsView::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  const QPalette pal = palette();
  painter.fillRect(rect(), pal.color(QPalette::Base));
  const int n = barCount();
  if (n == 0) {
    painter.setPen(pal.color(QPalette::Disabled, QPalette::Text));
    painter.drawText(rect(), Qt::AlignCenter,
                     m_data && !m_data->hasActivations()
                         ? tr("The run stored no activations")
                         : tr("Pick a %1 to see its activations").arg(m_data ? m_data->caseNoun() : tr("document")));
    return;
  }
  const QFontMetricsF fm(font());
  const QRectF plot = plotRect();
  const QColor text = pal.color(QPalette::Text), quiet = pal.color(QPalette::PlaceholderText);
  QColor grid = axisColour(pal);
  grid.setAlphaF(0.35f);

  // The 0..1 scale when activations are probabilities, else from the least to the largest with zero.
  const double lo = m_data->activationLow, hi = m_data->activationHigh;
  const bool probabilities = m_data->activationsAreProbabilities();
  std::vector<double> ticks = probabilities ? std::vector<double>{0.0, 0.5, 1.0} : std::vector<double>{lo, 0.0, hi};
  ticks.erase(std::unique(ticks.begin(), ticks.end()), ticks.end());
  for (const double v : ticks) {
    const double y = valueY(v);
    painter.setPen(QPen(grid, 1));
    painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
    painter.setPen(text);
    painter.drawText(QRectF(kActivationMargin, y - fm.height() / 2, plot.left() - kActivationMargin - 6, fm.height()),
                     Qt::AlignRight | Qt::AlignVCenter,
                     probabilities ? QLocale().toString(v, 'f', 1) : formatCompact(v, 2));
  }
  const QColor bar = topicColour(0, pal);
  for (int k = 0; k < n; ++k) painter.fillRect(barRect(k), mixColours(pal.color(QPalette::Base), bar, 0.75));
  // The mean of each unit over the documents, a dash across its slot.
  const double slot = plot.width() / n;
  if (static_cast<int>(m_data->meanActivation.size()) == n) {
    painter.setPen(QPen(text, 2));
    for (int k = 0; k < n; ++k) {
      const double y = valueY(m_data->meanActivation[static_cast<std::size_t>(k)]);
      painter.drawLine(QPointF(plot.left() + k * slot + slot * 0.1, y),
                       QPointF(plot.left() + (k + 1) * slot - slot * 0.1, y));
    }
  }
  painter.setPen(QPen(axisColour(pal), 1));
  painter.drawLine(QPointF(plot.left(), valueY(0.0)), QPointF(plot.right(), valueY(0.0)));

  // Unit numbers under the bars, every n-th when they do not all fit.
  painter.setPen(text);
  const double numberWidth = fm.horizontalAdvance(QString::number(n)) + 4;
  const int step = std::max(1, static_cast<int>(std::ceil(numberWidth / slot)));
  for (int k = 0; k < n; k += step)
    painter.drawText(
        QRectF(plot.left() + k * slot + slot / 2 - numberWidth, plot.bottom() + 2, 2 * numberWidth, fm.height()),
        Qt::AlignCenter, QString::number(k + 1));
  painter.setPen(quiet);
  const double captionWidth = rect().width() - plot.left() - kActivationMargin;
  painter.drawText(
      QRectF(plot.left(), plot.bottom() + fm.height() + 6, captionWidth, fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
      fm.elidedText(tr("unit · bar: this %1 · dash: mean over all %2").arg(m_data->caseNoun(), m_data->caseNoun(true)),
                    Qt::ElideRight, captionWidth));
}

bool ActivationBarsView::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(e);
    const int unit = unitAt(help->pos());
    if (unit < 0) {
      QToolTip::hideText();
      e->ignore();
      return true;
    }
    QRectF slot = barRect(unit);
    slot.setTop(plotRect().top());
    QToolTip::showText(help->globalPos(), toolTipFor(unit), this, slot.toRect());
    return true;
  }
  return QWidget::event(e);
}

}  // namespace latent::ui
