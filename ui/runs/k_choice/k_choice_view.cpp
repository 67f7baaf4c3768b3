// SPDX-License-Identifier: GPL-3.0-or-later
// KChoiceView: scatter of runs and the line through the mean per K, ICL on a second axis.
#include "ui/runs/k_choice/k_choice_view.hpp"

#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <set>

#include "core/store/project.hpp"
#include "ui/jobs/project_session.hpp"
#include "ui/util/chart_style.hpp"
#include "ui/util/figure_export.hpp"
#include "ui/util/format.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/topic_colours.hpp"

namespace latent::ui {
namespace {

// One criterion's means per K (core::meansPerK), as a line.
QList<QPointF> line(const std::vector<std::pair<std::int64_t, double>>& means) {
  QList<QPointF> points;
  for (const auto& [k, mean] : means) points << QPointF(double(k), mean);
  return points;
}

// The values' range with room for the ringed dot at either end, widened to round numbers so the
// ticks read 900, 950, 1000 rather than 938.7, 1118.9.
void fitAxis(QValueAxis* axis, double lo, double hi) {
  const double pad = hi > lo ? (hi - lo) * 0.08 : std::max(1e-3, std::abs(lo) * 0.05);
  axis->setRange(lo - pad, hi + pad);
  axis->applyNiceNumbers();
}

}  // namespace

KChoiceData loadKChoice(const std::filesystem::path& projectFile, std::int64_t runId) {
  core::Project project(offGuiThread(projectFile), core::Project::Access::ReadOnly);
  KChoiceData data;
  data.run = core::loadRun(project, runId);
  const auto* info = findModel(data.run.model);
  if (!info || info->heldoutKey.empty()) return data;
  data.heldoutName = qs(data.run.heldoutName.empty() ? info->heldoutName : data.run.heldoutName);
  const auto runs = core::listRuns(project, data.run.datasetId);
  data.points = core::comparableRuns(runs, data.run, info->heldoutKey);
  data.otherModels = core::otherModelsByK(runs, data.run, info->heldoutKey);
  std::set<std::int64_t> ks;
  for (const auto& p : data.points) ks.insert(p.k);
  data.distinctK = static_cast<int>(ks.size());
  return data;
}

KChoiceView::KChoiceView(QWidget* parent) : QWidget(parent) {
  m_view = new QChartView(this);
  m_view->setRenderHint(QPainter::Antialiasing);
  m_view->setMinimumHeight(240);
  enableFigureExport(m_view, [this] { return tr("run-%1-choosing-k").arg(m_data.run.id); });
  m_caption = new QLabel(this);
  m_caption->setWordWrap(true);
  m_caption->setTextFormat(Qt::RichText);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 6, 0, 0);
  layout->addWidget(m_view, 1);
  layout->addWidget(m_caption);
}

void KChoiceView::setData(KChoiceData data) {
  m_data = std::move(data);
  rebuild();
}

void KChoiceView::changeEvent(QEvent* event) {
  if (event->type() == QEvent::PaletteChange) rebuild();
  QWidget::changeEvent(event);
}

QString KChoiceView::captionText() const {
  const auto choice = core::chooseK(m_data.points);
  QStringList parts;
  parts << tr("Each dot is a finished run of %1 on this dataset with the same options as this run except K "
              "(several seeds of one K give several dots; the line joins their means); the ringed dot is this run.")
               .arg(qs(m_data.run.model));
  if (choice.byHeldout)
    parts << tr("Lower %1 is better: lowest at <b>K = %2</b>.")
                 .arg(m_data.heldoutName.toHtmlEscaped())
                 .arg(*choice.byHeldout);
  if (choice.byIcl)
    parts << tr("ICL (integrated completed likelihood) is higher for better models: highest at <b>K = %1</b>.")
                 .arg(*choice.byIcl);
  // The optimism of full folding-in (003): how far below the fair number it reads at the largest K.
  const auto last = std::find_if(m_data.points.rbegin(), m_data.points.rend(),
                                 [](const auto& p) { return p.fullFoldingIn.has_value(); });
  if (last != m_data.points.rend())
    parts << tr("The dashed curve scores the same held-out documents by full folding-in, which fits each document's "
                "mixture to the very words it then scores (003): it reads %1% lower at K = %2 and keeps falling as K "
                "grows, so it would always pick the largest K.")
                 .arg(QString::number(100.0 * (1.0 - *last->fullFoldingIn / last->heldout), 'f', 0))
                 .arg(last->k);
  if (!m_data.otherModels.empty()) {
    QStringList models;
    for (const auto& curve : m_data.otherModels) models << qs(curve.model);
    parts << tr("Also drawn, each in its own colour: the runs of %1 on the same held-out documents (the same fraction "
                "and seed), their means per K, dashed where scored by full folding-in.")
                 .arg(models.join(QStringLiteral(", ")).toHtmlEscaped());
  }
  parts << tr("Use “Run again with changes” with another K, or <tt>latent-cli sweep</tt>, to add points.");
  return parts.join(QLatin1Char(' '));
}

void KChoiceView::rebuild() {
  auto* chart = new QChart;
  chart->setTitle(tr("Choosing K"));
  const bool dark = isDarkPalette(palette());
  const QColor heldoutColour = dark ? QColor(0xf0, 0x9a, 0x5a) : QColor(0xd0, 0x5a, 0x1e);
  const QColor iclColour = dark ? QColor(0x6c, 0xb4, 0xf0) : QColor(0x2a, 0x6f, 0xb5);

  auto* runs = new QScatterSeries;
  runs->setName(m_data.heldoutName);
  runs->setMarkerSize(9);
  runs->setColor(heldoutColour);
  runs->setBorderColor(heldoutColour);
  auto* current = new QScatterSeries;
  current->setName(tr("this run"));
  current->setMarkerSize(17);
  current->setColor(Qt::transparent);
  current->setBorderColor(palette().color(QPalette::Text));
  current->setPen(QPen(palette().color(QPalette::Text), 2));
  auto* mean = new QLineSeries;
  mean->setName(tr("%1, mean per K").arg(m_data.heldoutName));
  mean->setPen(QPen(heldoutColour, 2));
  auto* icl = new QLineSeries;
  icl->setName(tr("ICL, mean per K"));
  icl->setPen(QPen(iclColour, 2, Qt::DashLine));
  icl->setPointsVisible(true);

  auto* full = new QLineSeries;
  full->setName(tr("full folding-in (optimistic), mean per K"));
  full->setPen(QPen(heldoutColour, 2, Qt::DashLine));
  full->setPointsVisible(true);

  double lo = INFINITY, hi = -INFINITY, iclLo = INFINITY, iclHi = -INFINITY, kLo = INFINITY, kHi = -INFINITY;
  for (const auto& p : m_data.points) {
    runs->append(double(p.k), p.heldout);
    if (p.runId == m_data.run.id) current->append(double(p.k), p.heldout);
    lo = std::min(lo, p.heldout);
    hi = std::max(hi, p.heldout);
    kLo = std::min(kLo, double(p.k));
    kHi = std::max(kHi, double(p.k));
    if (p.fullFoldingIn) {
      lo = std::min(lo, *p.fullFoldingIn);
      hi = std::max(hi, *p.fullFoldingIn);
    }
    if (p.icl) {
      iclLo = std::min(iclLo, *p.icl);
      iclHi = std::max(iclHi, *p.icl);
    }
  }
  const auto means = core::meansPerK(m_data.points);
  mean->append(line(means.heldout));
  const bool hasIcl = std::isfinite(iclLo);
  full->append(line(means.fullFoldingIn));
  const bool hasFull = full->count() > 0;
  if (hasIcl) icl->append(line(means.icl));

  chart->addSeries(mean);
  chart->addSeries(runs);
  chart->addSeries(current);
  auto* x = new QValueAxis;
  x->setTitleText(tr("K"));
  x->setLabelFormat(QStringLiteral("%d"));
  if (std::isfinite(kLo)) {
    x->setRange(kLo - 0.5, kHi + 0.5);
    x->setTickType(QValueAxis::TicksDynamic);
    // Ticks on round numbers (1, 2 or 5 times a power of ten), at most about ten of them.
    const double raw = std::max(1.0, (kHi - kLo) / 10.0);
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    const double step = raw <= power ? power : raw <= 2 * power ? 2 * power : raw <= 5 * power ? 5 * power : 10 * power;
    x->setTickAnchor(0.0);
    x->setTickInterval(step);
  }
  auto* y = new QValueAxis;
  // The axis title is the metric's short name ("held-out perplexity"); the caption names the protocol.
  y->setTitleText(m_data.heldoutName.section(QLatin1Char(','), 0, 0).section(QStringLiteral(" ("), 0, 0));
  y->setLabelsColor(heldoutColour);
  if (std::isfinite(lo)) fitAxis(y, lo, hi);
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  for (auto* s : {static_cast<QAbstractSeries*>(mean), static_cast<QAbstractSeries*>(runs),
                  static_cast<QAbstractSeries*>(current)}) {
    s->attachAxis(x);
    s->attachAxis(y);
  }
  if (hasFull) {
    chart->addSeries(full);
    full->attachAxis(x);
    full->attachAxis(y);
  } else {
    delete full;
  }
  if (hasIcl) {
    chart->addSeries(icl);
    auto* yIcl = new QValueAxis;
    yIcl->setTitleText(tr("ICL"));
    yIcl->setLabelsColor(iclColour);
    fitAxis(yIcl, iclLo, iclHi);
    chart->addAxis(yIcl, Qt::AlignRight);
    icl->attachAxis(x);
    icl->attachAxis(yIcl);
  } else {
    delete icl;
  }
  // Other models on the same held-out documents: their means per K under both protocols.
  struct OtherSeries {
    QLineSeries* series;
    int model;
    Qt::PenStyle style;
  };
  std::vector<OtherSeries> others;
  for (std::size_t i = 0; i < m_data.otherModels.size(); ++i) {
    const auto& curve = m_data.otherModels[i];
    const auto means = core::meansPerK(curve.points);
    for (const bool full : {false, true}) {
      const auto& values = full ? means.fullFoldingIn : means.heldout;
      if (values.empty()) continue;
      auto* series = new QLineSeries;
      series->setName(full ? tr("%1, full folding-in").arg(qs(curve.model)) : qs(curve.model));
      series->append(line(values));
      series->setPointsVisible(true);
      for (const auto& [k, value] : values) {
        lo = std::min(lo, value);
        hi = std::max(hi, value);
        kLo = std::min(kLo, double(k));
        kHi = std::max(kHi, double(k));
      }
      chart->addSeries(series);
      series->attachAxis(x);
      series->attachAxis(y);
      others.push_back({series, static_cast<int>(i), full ? Qt::DashLine : Qt::SolidLine});
    }
  }
  if (!others.empty() && std::isfinite(lo)) {
    fitAxis(y, lo, hi);
    x->setRange(kLo - 0.5, kHi + 0.5);
  }
  chart->legend()->setAlignment(Qt::AlignBottom);
  // A short stroke of each line, dashed or solid, instead of a square that hides the difference.
  chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
  // The dots and their line share a name: one legend entry for both.
  for (auto* marker : chart->legend()->markers(mean)) marker->setVisible(false);
  styleChart(chart, palette());
  // styleChart follows the palette; the series keep their own colours.
  mean->setPen(QPen(heldoutColour, 2));
  if (hasFull) full->setPen(QPen(heldoutColour, 2, Qt::DashLine));
  // Colours after the first two, which the reference model's curves and ICL resemble.
  for (const auto& other : others)
    other.series->setPen(QPen(topicColour(other.model + 2, palette()), 1.5, other.style));
  QChart* old = m_view->chart();
  m_view->setChart(chart);
  delete old;
  m_caption->setText(captionText());
}

}  // namespace latent::ui
