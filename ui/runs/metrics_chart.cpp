// SPDX-License-Identifier: GPL-3.0-or-later
// MetricsChart: two line series on shared x, ranges padded so single points stay visible.
#include "ui/runs/metrics_chart.hpp"

#include <QChart>
#include <QEvent>
#include <QLegend>
#include <QLineSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

#include "ui/util/chart_style.hpp"

namespace latent::ui {
namespace {

// A range that contains every y, padded by 5% (or by 1 around a single value).
std::pair<double, double> rangeOf(const QVector<QPointF>& points) {
  double lo = INFINITY, hi = -INFINITY;
  for (const auto& p : points) {
    if (!std::isfinite(p.y())) continue;
    lo = std::min(lo, p.y());
    hi = std::max(hi, p.y());
  }
  if (!std::isfinite(lo)) return {0.0, 1.0};
  const double pad = hi > lo ? (hi - lo) * 0.05 : std::max(1.0, std::abs(lo) * 0.05);
  return {lo - pad, hi + pad};
}

}  // namespace

MetricsChart::MetricsChart(QWidget* parent) : QChartView(parent) {
  setRenderHint(QPainter::Antialiasing);
  setMinimumHeight(220);
  build();
}

void MetricsChart::build() {
  auto* chart = new QChart;
  m_objectiveSeries = new QLineSeries;
  m_heldoutSeries = new QLineSeries;
  m_objectiveSeries->setName(m_objectiveName.isEmpty() ? tr("training objective") : m_objectiveName);
  m_heldoutSeries->setName(m_heldoutName.isEmpty() ? tr("held-out") : m_heldoutName);
  m_objectiveSeries->setPointsVisible(true);
  m_heldoutSeries->setPointsVisible(true);
  chart->addSeries(m_objectiveSeries);
  chart->addSeries(m_heldoutSeries);
  m_x = new QValueAxis;
  m_x->setTitleText(tr("iteration"));
  m_x->setLabelFormat(QStringLiteral("%d"));
  m_yObjective = new QValueAxis;
  m_yHeldout = new QValueAxis;
  chart->addAxis(m_x, Qt::AlignBottom);
  chart->addAxis(m_yObjective, Qt::AlignLeft);
  chart->addAxis(m_yHeldout, Qt::AlignRight);
  m_objectiveSeries->attachAxis(m_x);
  m_objectiveSeries->attachAxis(m_yObjective);
  m_heldoutSeries->attachAxis(m_x);
  m_heldoutSeries->attachAxis(m_yHeldout);
  chart->legend()->hide();
  chart->setTitle(tr("Training curve"));
  styleChart(chart, palette());
  const bool dark = isDarkPalette(palette());
  m_objectiveColour = dark ? QColor(0x6c, 0xb4, 0xf0) : QColor(0x2a, 0x6f, 0xb5);
  m_heldoutColour = dark ? QColor(0xf0, 0x9a, 0x5a) : QColor(0xd0, 0x5a, 0x1e);
  const QColor objectiveColour = m_objectiveColour, heldoutColour = m_heldoutColour;
  m_objectiveSeries->setPen(QPen(objectiveColour, 2));
  m_objectiveSeries->setColor(objectiveColour);
  m_heldoutSeries->setPen(QPen(heldoutColour, 2));
  m_heldoutSeries->setColor(heldoutColour);
  m_yObjective->setLabelsColor(objectiveColour);
  m_yHeldout->setLabelsColor(heldoutColour);
  QChart* old = this->chart();
  setChart(chart);
  delete old;
  redraw();
}

QString MetricsChart::captionHtml() const {
  auto entry = [](const QColor& colour, const QString& name, const QString& axis) {
    return QStringLiteral("<span style=\"color:%1\">&#9632;</span>&nbsp;%2 <span style=\"color:gray\">(%3)</span>")
        .arg(colour.name(), name.toHtmlEscaped(), axis);
  };
  QString html = entry(m_objectiveColour, m_objectiveName.isEmpty() ? tr("training objective") : m_objectiveName, tr("left axis"));
  if (!m_heldoutName.isEmpty()) html += QStringLiteral("<br>") + entry(m_heldoutColour, m_heldoutName, tr("right axis"));
  else html += QStringLiteral("<br><span style=\"color:gray\">%1</span>").arg(tr("No held-out metric: this run held no data out."));
  return html;
}

void MetricsChart::setNames(const QString& objectiveName, const QString& heldoutName) {
  m_objectiveName = objectiveName;
  m_heldoutName = heldoutName;
  m_objectiveSeries->setName(objectiveName);
  m_heldoutSeries->setName(heldoutName.isEmpty() ? tr("held-out (none: no data held out)") : heldoutName);
}

void MetricsChart::setRows(const std::vector<core::MetricRow>& rows) {
  m_objective.clear();
  m_heldout.clear();
  for (const auto& r : rows) {
    if (r.trainObjective) m_objective.push_back(QPointF(static_cast<double>(r.iteration), *r.trainObjective));
    if (r.heldout) m_heldout.push_back(QPointF(static_cast<double>(r.iteration), *r.heldout));
  }
  redraw();
}

void MetricsChart::append(const core::IterationReport& report) {
  if (std::isfinite(report.trainObjective))
    m_objective.push_back(QPointF(static_cast<double>(report.iteration), report.trainObjective));
  if (report.heldout) m_heldout.push_back(QPointF(static_cast<double>(report.iteration), *report.heldout));
}

void MetricsChart::redraw() {
  // replace() swaps the whole point list at once: far cheaper than clearing and appending.
  m_objectiveSeries->replace(m_objective);
  m_heldoutSeries->replace(m_heldout);
  double last = 1.0;
  for (const auto* points : {&m_objective, &m_heldout})
    if (!points->isEmpty()) last = std::max(last, points->back().x());
  m_x->setRange(last <= 1.0 ? 0.0 : 1.0, last <= 1.0 ? 2.0 : last);
  m_x->setTickCount(last <= 1.0 ? 3 : std::clamp(static_cast<int>(last), 3, 8));
  const auto [ol, oh] = rangeOf(m_objective);
  const auto [hl, hh] = rangeOf(m_heldout);
  m_yObjective->setRange(ol, oh);
  m_yHeldout->setRange(hl, hh);
  m_yHeldout->setVisible(!m_heldout.isEmpty());
  m_heldoutSeries->setVisible(!m_heldout.isEmpty());
}

void MetricsChart::changeEvent(QEvent* event) {
  QChartView::changeEvent(event);
  if (event->type() == QEvent::PaletteChange) build();
}

}  // namespace latent::ui
