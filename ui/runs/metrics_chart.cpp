// SPDX-License-Identifier: GPL-3.0-or-later
// MetricsChart: two line series on shared x, ranges padded so single points stay visible; the
// held-out axis linear or logarithmic; other runs' held-out curves on the same axis.
#include "ui/runs/metrics_chart.hpp"

#include <QChart>
#include <QEvent>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

#include "ui/util/chart_style.hpp"
#include "ui/util/topic_colours.hpp"

namespace latent::ui {
namespace {

constexpr qsizetype kMaxMarkedPoints = 100;

struct Range {
  double lo = INFINITY, hi = -INFINITY;
  void add(const QVector<QPointF>& points) {
    for (const auto& p : points)
      if (std::isfinite(p.y())) {
        lo = std::min(lo, p.y());
        hi = std::max(hi, p.y());
      }
  }
  bool empty() const { return !std::isfinite(lo); }
  // Padded by 5% (or by 1 around a single value).
  std::pair<double, double> padded() const {
    if (empty()) return {0.0, 1.0};
    const double pad = hi > lo ? (hi - lo) * 0.05 : std::max(1.0, std::abs(lo) * 0.05);
    return {lo - pad, hi + pad};
  }
  // Padded by 5% on a log scale.
  std::pair<double, double> logPadded() const {
    if (empty()) return {1.0, 10.0};
    return hi > lo ? std::pair(lo / 1.05, hi * 1.05) : std::pair(lo / 1.5, hi * 1.5);
  }
};

}  // namespace

MetricsChart::MetricsChart(QWidget* parent) : QChartView(parent) {
  setRenderHint(QPainter::Antialiasing);
  setMinimumHeight(220);
  build();
}

QVector<MetricsChart::Sample> MetricsChart::heldoutSamples(const std::vector<core::MetricRow>& rows) {
  QVector<Sample> out;
  for (const auto& r : rows)
    if (r.heldout) out.push_back({static_cast<double>(r.iteration), r.seconds, *r.heldout});
  return out;
}

QVector<QPointF> MetricsChart::points(const QVector<Sample>& samples) const {
  QVector<QPointF> out;
  out.reserve(samples.size());
  for (const auto& s : samples) out.push_back(QPointF(m_xAxis == XAxis::Seconds ? s.seconds : s.iteration, s.value));
  return out;
}

QColor MetricsChart::overlayColour(int index) const {
  // Topic colours from the third on: the first two are close to this run's own two curves.
  return topicColour(index + 2, palette());
}

bool MetricsChart::showsLogHeldout() const {
  if (!m_logHeldout) return false;
  auto positive = [](const QVector<Sample>& samples) {
    return std::all_of(samples.begin(), samples.end(), [](const Sample& s) { return s.value > 0.0; });
  };
  return positive(m_heldout) &&
         std::all_of(m_overlays.begin(), m_overlays.end(), [&](const Overlay& o) { return positive(o.heldout); });
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
  m_overlaySeries.clear();
  for (int i = 0; i < m_overlays.size(); ++i) {
    auto* series = new QLineSeries;
    series->setName(m_overlays[i].label);
    series->setPen(QPen(overlayColour(i), 1.5));
    chart->addSeries(series);
    m_overlaySeries.push_back(series);
  }
  m_markSeries.clear();
  for (int i = 0; i < m_marks.size(); ++i) {
    auto* series = new QLineSeries;
    series->setName(m_marks[i].label);
    chart->addSeries(series);
    m_markSeries.push_back(series);
  }
  m_x = new QValueAxis;
  m_x->setTitleText(m_xAxis == XAxis::Seconds ? tr("seconds since the start") : tr("iteration"));
  m_x->setLabelFormat(m_xAxis == XAxis::Seconds ? QStringLiteral("%.3g") : QStringLiteral("%d"));
  m_yObjective = new QValueAxis;
  if (showsLogHeldout()) {
    auto* log = new QLogValueAxis;
    log->setBase(10.0);
    log->setLabelFormat(QStringLiteral("%.4g"));
    log->setMinorTickCount(-1);  // minor ticks at 2..9 times each power of ten
    m_yHeldout = log;
  } else {
    m_yHeldout = new QValueAxis;
  }
  chart->addAxis(m_x, Qt::AlignBottom);
  chart->addAxis(m_yObjective, Qt::AlignLeft);
  chart->addAxis(m_yHeldout, Qt::AlignRight);
  m_objectiveSeries->attachAxis(m_x);
  m_objectiveSeries->attachAxis(m_yObjective);
  m_heldoutSeries->attachAxis(m_x);
  m_heldoutSeries->attachAxis(m_yHeldout);
  for (auto* series : m_overlaySeries) {
    series->attachAxis(m_x);
    series->attachAxis(m_yHeldout);
  }
  for (auto* series : m_markSeries) {
    series->attachAxis(m_x);
    series->attachAxis(m_yObjective);
  }
  chart->legend()->hide();
  chart->setTitle(tr("Training curve"));
  styleChart(chart, palette());
  const bool dark = isDarkPalette(palette());
  m_objectiveColour = dark ? QColor(0x6c, 0xb4, 0xf0) : QColor(0x2a, 0x6f, 0xb5);
  m_heldoutColour = dark ? QColor(0xf0, 0x9a, 0x5a) : QColor(0xd0, 0x5a, 0x1e);
  m_objectiveSeries->setPen(QPen(m_objectiveColour, 2));
  m_objectiveSeries->setColor(m_objectiveColour);
  m_heldoutSeries->setPen(QPen(m_heldoutColour, 2));
  m_heldoutSeries->setColor(m_heldoutColour);
  for (int i = 0; i < m_overlaySeries.size(); ++i) m_overlaySeries[i]->setPen(QPen(overlayColour(i), 1.5));
  for (auto* series : m_markSeries) series->setPen(QPen(palette().color(QPalette::PlaceholderText), 1.2, Qt::DashLine));
  m_yObjective->setLabelsColor(m_objectiveColour);
  m_yHeldout->setLabelsColor(m_heldoutColour);
  titleAxes();
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
  QString html =
      entry(m_objectiveColour, m_objectiveName.isEmpty() ? tr("training objective") : m_objectiveName, tr("left axis"));
  const QString heldoutAxis = showsLogHeldout() ? tr("right axis, log scale") : tr("right axis");
  if (!m_heldoutName.isEmpty())
    html += QStringLiteral("<br>") + entry(m_heldoutColour, m_heldoutName, heldoutAxis);
  else
    html += QStringLiteral("<br><span style=\"color:gray\">%1</span>")
                .arg(tr("No held-out metric: this run held no data out."));
  for (int i = 0; i < m_overlays.size(); ++i)
    html += QStringLiteral("<br>") + entry(overlayColour(i), m_overlays[i].label, heldoutAxis);
  for (const auto& mark : m_marks)
    html += QStringLiteral("<br><span style=\"color:gray\">%1</span>")
                .arg(tr("Dashed line at iteration %1: %2").arg(mark.iteration).arg(mark.label.toHtmlEscaped()));
  return html;
}

void MetricsChart::titleAxes() {
  if (!m_yObjective || !m_yHeldout) return;
  m_yObjective->setTitleText(m_objectiveName.isEmpty() ? tr("training objective") : m_objectiveName);
  m_yObjective->setTitleBrush(m_objectiveColour);
  m_yHeldout->setTitleText(m_heldoutName);
  m_yHeldout->setTitleBrush(m_heldoutColour);
}

void MetricsChart::setNames(const QString& objectiveName, const QString& heldoutName) {
  m_objectiveName = objectiveName;
  m_heldoutName = heldoutName;
  titleAxes();
  m_objectiveSeries->setName(objectiveName);
  m_heldoutSeries->setName(heldoutName.isEmpty() ? tr("held-out (none: no data held out)") : heldoutName);
}

void MetricsChart::setRows(const std::vector<core::MetricRow>& rows) {
  m_objective.clear();
  for (const auto& r : rows)
    if (r.trainObjective) m_objective.push_back({static_cast<double>(r.iteration), r.seconds, *r.trainObjective});
  const bool wasLog = showsLogHeldout();
  m_heldout = heldoutSamples(rows);
  if (wasLog != showsLogHeldout())
    build();  // a stored value the log scale cannot show, or the reverse
  else
    redraw();
}

void MetricsChart::append(const core::IterationReport& report) {
  const auto iteration = static_cast<double>(report.iteration);
  if (std::isfinite(report.trainObjective)) m_objective.push_back({iteration, report.seconds, report.trainObjective});
  if (report.heldout) {
    const bool wasLog = showsLogHeldout();
    m_heldout.push_back({iteration, report.seconds, *report.heldout});
    if (wasLog && !showsLogHeldout()) build();
  }
}

void MetricsChart::setXAxis(XAxis axis) {
  if (axis == m_xAxis) return;
  m_xAxis = axis;
  build();
  Q_EMIT appearanceChanged();
}

void MetricsChart::setLogHeldout(bool log) {
  if (log == m_logHeldout) return;
  m_logHeldout = log;
  build();
  Q_EMIT appearanceChanged();
}

void MetricsChart::setPlaceholder(const QString& text) { m_placeholder = text; }

QVector<QPointF> MetricsChart::markPoints(int index) const {
  return index >= 0 && index < m_markSeries.size() ? m_markSeries[index]->points() : QVector<QPointF>{};
}

void MetricsChart::setMarks(QVector<Mark> marks) {
  m_marks = std::move(marks);
  build();
  Q_EMIT appearanceChanged();
}

void MetricsChart::setOverlays(QVector<Overlay> overlays) {
  m_overlays = std::move(overlays);
  build();
  Q_EMIT appearanceChanged();
}

void MetricsChart::redraw() {
  // replace() swaps the whole point list at once: far cheaper than clearing and appending.
  const auto objective = objectivePoints(), heldout = heldoutPoints();
  m_objectiveSeries->replace(objective);
  m_heldoutSeries->replace(heldout);
  // Markers help read a short curve; on thousands of points they only cost drawing time.
  m_objectiveSeries->setPointsVisible(objective.size() <= kMaxMarkedPoints);
  m_heldoutSeries->setPointsVisible(heldout.size() <= kMaxMarkedPoints);
  Range heldoutRange;
  heldoutRange.add(heldout);
  double last = m_xAxis == XAxis::Seconds ? 0.0 : 1.0;
  for (const auto* p : {&objective, &heldout})
    if (!p->isEmpty()) last = std::max(last, p->back().x());
  for (int i = 0; i < m_overlaySeries.size(); ++i) {
    const auto overlay = overlayPoints(i);
    m_overlaySeries[i]->replace(overlay);
    heldoutRange.add(overlay);
    if (!overlay.isEmpty()) last = std::max(last, overlay.back().x());
  }
  if (m_xAxis == XAxis::Seconds) {
    m_x->setRange(0.0, last > 0.0 ? last * 1.02 : 1.0);
    m_x->setTickCount(6);
  } else {
    m_x->setRange(last <= 1.0 ? 0.0 : 1.0, last <= 1.0 ? 2.0 : last);
    m_x->setTickCount(last <= 1.0 ? 3 : std::clamp(static_cast<int>(last), 3, 8));
  }
  Range objectiveRange;
  objectiveRange.add(objective);
  const auto [ol, oh] = objectiveRange.padded();
  m_yObjective->setRange(ol, oh);
  const auto [hl, hh] = showsLogHeldout() ? heldoutRange.logPadded() : heldoutRange.padded();
  // A log axis ticks at powers of its base: over less than a factor of ten, base 10 would leave
  // it without a single label, so the base becomes the fourth root of the range (about four ticks).
  if (auto* log = qobject_cast<QLogValueAxis*>(m_yHeldout))
    log->setBase(hh / hl >= 10.0 ? 10.0 : std::pow(hh / hl, 0.25));
  m_yHeldout->setRange(hl, hh);
  const bool anyHeldout = !heldoutRange.empty();
  m_yHeldout->setVisible(anyHeldout);
  m_heldoutSeries->setVisible(!heldout.isEmpty());

  // A mark is drawn once the curve has reached it, across the objective's range; on the seconds
  // axis at the time of the first report at or after it.
  for (int i = 0; i < m_markSeries.size(); ++i) {
    QVector<QPointF> line;
    const double at = m_marks[i].iteration;
    const auto reached = std::find_if(m_objective.begin(), m_objective.end(),
                                      [at](const Sample& sample) { return sample.iteration >= at; });
    if (reached != m_objective.end()) {
      const double x = m_xAxis == XAxis::Seconds ? reached->seconds : at;
      line = {QPointF(x, ol), QPointF(x, oh)};
    }
    m_markSeries[i]->replace(line);
  }

  // Before the first point, the placeholder instead of empty 0..1 axes.
  const bool waiting = objective.isEmpty() && heldout.isEmpty() && !m_placeholder.isEmpty();
  m_x->setVisible(!waiting);
  m_yObjective->setVisible(!waiting);
  if (waiting) m_yHeldout->setVisible(false);
  chart()->setTitle(waiting ? m_placeholder : tr("Training curve"));
}

void MetricsChart::changeEvent(QEvent* event) {
  QChartView::changeEvent(event);
  if (event->type() == QEvent::PaletteChange) build();
}

}  // namespace latent::ui
