// SPDX-License-Identifier: GPL-3.0-or-later
// TopicTimeView's charts: the chosen words' lines, the stacked shares with the chosen topic at the
// bottom, the chosen slice's marker on both; SliceChartView: clicks on a chart in its values.
#include <QAreaSeries>
#include <QChart>
#include <QCursor>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QMouseEvent>
#include <QToolTip>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

#include "ui/runs/topics/topic_run_data.hpp"
#include "ui/runs/topics/topic_time_data.hpp"
#include "ui/runs/topics/topic_time_view.hpp"
#include "ui/util/chart_style.hpp"
#include "ui/util/format.hpp"
#include "ui/util/topic_colours.hpp"

namespace latent::ui {
namespace {

const TopicTimeData& chartTimeOf(const TopicRunData& data) { return *data.overTime; }

// Ticks on slice starts a round number of slices apart, at most about eight of them.
void setYearAxis(QValueAxis* axis, const TopicTimeData& time) {
  const double first = time.slices.starts.front(), last = time.slices.starts.back(), width = time.slices.width;
  if (last > first)
    axis->setRange(first, last);
  else
    axis->setRange(first - width / 2, first + width / 2);
  const double span = (last - first) / width;
  double every = 1;
  for (const double step : {1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0, 2000.0}) {
    every = step;
    if (span / step <= 8) break;
  }
  const double interval = every * width;
  axis->setTickType(QValueAxis::TicksDynamic);
  axis->setTickAnchor(std::ceil(first / interval) * interval);
  axis->setTickInterval(interval);
  const bool whole = std::abs(width - std::round(width)) < 1e-9 && std::abs(first - std::round(first)) < 1e-9;
  axis->setLabelFormat(whole ? QStringLiteral("%.0f") : QStringLiteral("%g"));
}

}  // namespace

SliceChartView::SliceChartView(QWidget* parent) : QChartView(parent) {
  setRenderHint(QPainter::Antialiasing);
  setMinimumSize(240, 220);
}

QPoint SliceChartView::viewportPosition(const QPointF& value) const {
  if (!chart()) return {};
  return mapFromScene(chart()->mapToScene(chart()->mapToPosition(value)));
}

void SliceChartView::mouseReleaseEvent(QMouseEvent* event) {
  QChartView::mouseReleaseEvent(event);
  if (event->button() != Qt::LeftButton || !chart()) return;
  const QPointF at = chart()->mapFromScene(mapToScene(event->position().toPoint()));
  if (chart()->plotArea().contains(at)) Q_EMIT clickedAt(chart()->mapToValue(at));
}

QLineSeries* TopicTimeView::wordSeries(const QString& word) const {
  if (!m_wordChart->chart()) return nullptr;
  for (auto* series : m_wordChart->chart()->series())
    if (series != m_wordMarker && series->name() == word) return qobject_cast<QLineSeries*>(series);
  return nullptr;
}

void TopicTimeView::rebuildWordChart() {
  auto* chart = new QChart;
  m_wordMarker = nullptr;
  if (m_data) {
    const auto& time = chartTimeOf(*m_data);
    chart->setTitle(tr("Words within topic %1").arg(m_topic + 1));
    auto* x = new QValueAxis;
    setYearAxis(x, time);
    auto* y = new QValueAxis;
    y->setTitleText(tr("probability"));
    y->setLabelFormat(QStringLiteral("%.3g"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    const auto slices = drawnSlices();
    double highest = 0;
    std::vector<QLineSeries*> lines;
    for (const auto& charted : m_words) {
      auto* series = new QLineSeries;
      series->setName(m_data->wordText(charted.word));
      series->setPointsVisible(true);
      QList<QPointF> points;
      for (const int t : slices) {
        const double p = time.probability(t, m_topic, charted.word);
        points << QPointF(time.slices.starts[static_cast<std::size_t>(t)], p);
        highest = std::max(highest, p);
      }
      series->replace(points);
      chart->addSeries(series);
      series->attachAxis(x);
      series->attachAxis(y);
      lines.push_back(series);
      const std::int32_t word = charted.word;
      connect(series, &QLineSeries::hovered, this, [this, word](const QPointF& point, bool state) {
        if (!state || !m_data) return;
        const auto& t = chartTimeOf(*m_data);
        const int slice = t.sliceNear(point.x());
        QToolTip::showText(QCursor::pos(),
                           tr("<b>%1</b> in %2: %3 of topic %4's words")
                               .arg(m_data->wordText(word).toHtmlEscaped(), t.sliceLabels.value(slice),
                                    formatPercent(t.probability(slice, m_topic, word)))
                               .arg(m_topic + 1),
                           m_wordChart);
      });
    }
    y->setRange(0, highest > 0 ? highest * 1.05 : 1.0);
    y->applyNiceNumbers();
    m_wordMarker = new QLineSeries;
    chart->addSeries(m_wordMarker);
    m_wordMarker->attachAxis(x);
    m_wordMarker->attachAxis(y);
    chart->legend()->setAlignment(Qt::AlignBottom);
    for (auto* marker : chart->legend()->markers(m_wordMarker)) marker->setVisible(false);
    styleChart(chart, palette());
    // styleChart follows the palette; the lines keep their words' colours.
    for (std::size_t i = 0; i < lines.size(); ++i) {
      const QColor colour = topicColour(m_words[i].colour, palette());
      lines[i]->setPen(QPen(colour, 2));
      lines[i]->setColor(colour);
    }
    for (auto* marker : chart->legend()->markers()) {
      if (marker->series() == m_wordMarker) continue;
      marker->setShape(QLegend::MarkerShapeRectangle);
      const QString word = marker->label();
      connect(marker, &QLegendMarker::clicked, this, [this, word] {
        // Not while the legend is still delivering the click.
        QMetaObject::invokeMethod(
            this, [this, word] { removeWord(word); }, Qt::QueuedConnection);
      });
    }
    if (m_words.empty()) chart->setTitle(tr("Words within topic %1: type a word below to draw it").arg(m_topic + 1));
  } else {
    styleChart(chart, palette());
  }
  QChart* old = m_wordChart->chart();
  m_wordChart->setChart(chart);
  delete old;
  updateMarkers();
  updateWordColours();
}

void TopicTimeView::rebuildShareChart() {
  auto* chart = new QChart;
  m_areas.clear();
  m_shareMarker = nullptr;
  if (m_data) {
    const auto& time = chartTimeOf(*m_data);
    chart->setTitle(tr("Each topic's share over time"));
    auto* x = new QValueAxis;
    setYearAxis(x, time);
    auto* y = new QValueAxis;
    y->setRange(0, 100);
    y->setTitleText(tr("share (%)"));
    y->setLabelFormat(QStringLiteral("%.0f"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (int k = 0; k < time.topicCount(); ++k) {
      auto* area = new QAreaSeries;
      area->setUpperSeries(new QLineSeries(area));
      area->setLowerSeries(new QLineSeries(area));
      area->setName(tr("Topic %1").arg(k + 1));
      chart->addSeries(area);
      area->attachAxis(x);
      area->attachAxis(y);
      m_areas.push_back(area);
      connect(area, &QAreaSeries::hovered, this, [this, k](const QPointF& point, bool state) {
        if (!state || !m_data) return;
        const auto& t = chartTimeOf(*m_data);
        const int slice = t.sliceNear(point.x());
        QToolTip::showText(
            QCursor::pos(),
            tr("<b>%1</b><br>%2: %3 of the words")
                .arg(topicName(k).toHtmlEscaped(), t.sliceLabels.value(slice), formatPercent(t.shareBySlice(slice, k))),
            m_shareChart);
      });
    }
    m_shareMarker = new QLineSeries;
    chart->addSeries(m_shareMarker);
    m_shareMarker->attachAxis(x);
    m_shareMarker->attachAxis(y);
    chart->legend()->setVisible(false);  // K entries would crowd it: the chooser and the tooltips name them
    styleChart(chart, palette());
  } else {
    styleChart(chart, palette());
  }
  QChart* old = m_shareChart->chart();
  m_shareChart->setChart(chart);
  delete old;
  updateShareChart();
  updateMarkers();
}

void TopicTimeView::updateShareChart() {
  if (!m_data || m_areas.empty()) return;
  const auto& time = chartTimeOf(*m_data);
  const auto slices = drawnSlices();
  // The chosen topic at the bottom, so that its share reads off the axis; the others above it in order.
  std::vector<int> order{m_topic};
  for (int k = 0; k < time.topicCount(); ++k)
    if (k != m_topic) order.push_back(k);
  std::vector<double> below(slices.size(), 0.0);
  for (const int k : order) {
    QList<QPointF> lower, upper;
    for (std::size_t i = 0; i < slices.size(); ++i) {
      const double start = time.slices.starts[static_cast<std::size_t>(slices[i])];
      lower << QPointF(start, below[i]);
      below[i] += 100.0 * std::max(0.0, time.shareBySlice(slices[i], k));
      upper << QPointF(start, below[i]);
    }
    auto* area = m_areas[static_cast<std::size_t>(k)];
    area->lowerSeries()->replace(lower);
    area->upperSeries()->replace(upper);
    const QColor colour = topicColour(k, palette());
    const bool chosen = k == m_topic;
    QColor fill = chosen ? colour : topicTint(colour, palette(), 0.35);
    area->setBrush(fill);
    area->setPen(QPen(chosen ? palette().color(QPalette::Text) : colour, chosen ? 1.5 : 0.5));
  }
}

int TopicTimeView::topicAtShare(const QPointF& value) const {
  if (!m_data || m_areas.empty()) return -1;
  const auto& time = chartTimeOf(*m_data);
  const auto slices = drawnSlices();
  // Where x falls between the drawn slices, and how far between them: the bands are straight there.
  std::size_t left = 0, right = 0;
  double along = 0;
  for (std::size_t i = 0; i < slices.size(); ++i) {
    const double start = time.slices.starts[static_cast<std::size_t>(slices[i])];
    if (start <= value.x()) left = right = i;
    if (start > value.x()) {
      right = i;
      break;
    }
  }
  if (right != left) {
    const double a = time.slices.starts[static_cast<std::size_t>(slices[left])];
    const double b = time.slices.starts[static_cast<std::size_t>(slices[right])];
    along = (value.x() - a) / (b - a);
  }
  std::vector<int> order{m_topic};
  for (int k = 0; k < time.topicCount(); ++k)
    if (k != m_topic) order.push_back(k);
  double low = 0;
  for (const int k : order) {
    const double share = (1 - along) * time.shareBySlice(slices[left], k) + along * time.shareBySlice(slices[right], k);
    const double high = low + 100.0 * std::max(0.0, share);
    if (value.y() >= low && value.y() < high) return k;
    low = high;
  }
  return -1;
}

void TopicTimeView::updateMarkers() {
  if (!m_data || m_slice < 0) return;
  const double start = chartTimeOf(*m_data).slices.starts[static_cast<std::size_t>(m_slice)];
  QPen pen(palette().color(QPalette::Text), 1.5, Qt::DashLine);
  if (m_wordMarker) {
    const auto* y = qobject_cast<QValueAxis*>(m_wordChart->chart()->axes(Qt::Vertical).value(0));
    m_wordMarker->replace({QPointF(start, 0), QPointF(start, y ? y->max() : 1.0)});
    m_wordMarker->setPen(pen);
  }
  if (m_shareMarker) {
    m_shareMarker->replace({QPointF(start, 0), QPointF(start, 100)});
    m_shareMarker->setPen(pen);
  }
}

}  // namespace latent::ui
