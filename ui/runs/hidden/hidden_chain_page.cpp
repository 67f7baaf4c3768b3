// SPDX-License-Identifier: GPL-3.0-or-later
// HiddenChainPage: the trace chart (Qt Charts, styled like the other charts), the posterior table
// and the texts that say what they show.
#include "ui/runs/hidden/hidden_chain_page.hpp"

#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

#include "ui/runs/hidden/hidden_posterior_model.hpp"
#include "ui/runs/hidden/hidden_run_data.hpp"
#include "ui/runs/hidden/hidden_unit_model.hpp"
#include "ui/util/chart_style.hpp"
#include "ui/util/figure_export.hpp"
#include "ui/util/format.hpp"
#include "ui/util/table_export.hpp"
#include "ui/util/table_style.hpp"
#include "ui/util/topic_colours.hpp"

namespace latent::ui {
namespace {

// The traced weights' places in W (004 Fig. 3): (visible, hidden), 0-based.
constexpr int kTracedWeights[4][2] = {{0, 0}, {0, 1}, {1, 0}, {1, 1}};

// The run's burn-in when it sampled by Langevin, else 0.
int chainBurnIn(const HiddenRunData& data) {
  const auto& o = data.run.options;
  if (!o.is_object()) return 0;
  if (const auto it = o.find("inference"); it != o.end() && it->is_string() && it->get<std::string>() != "langevin")
    return 0;
  if (const auto it = o.find("burn_in"); it != o.end() && it->is_number())
    return std::max(0, static_cast<int>(it->get<double>()));
  return 0;
}

bool chainIsLangevin(const HiddenRunData& data) {
  const auto& o = data.run.options;
  if (!o.is_object()) return true;
  const auto it = o.find("inference");
  return it == o.end() || !it->is_string() || it->get<std::string>() == "langevin";
}

}  // namespace

HiddenChainPage::HiddenChainPage(QWidget* parent) : QWidget(parent) {
  m_header = new QLabel(this);
  m_header->setTextFormat(Qt::RichText);
  m_header->setWordWrap(true);
  m_view = new QChartView(this);
  m_view->setRenderHint(QPainter::Antialiasing);
  m_view->setMinimumHeight(180);
  enableFigureExport(m_view,
                     [this] { return QStringLiteral("run-%1-langevin-chain").arg(m_data ? m_data->run.id : 0); });
  auto* top = new QWidget(this);
  auto* topLayout = new QVBoxLayout(top);
  topLayout->setContentsMargins(0, 0, 0, 0);
  topLayout->addWidget(m_header);
  topLayout->addWidget(m_view, 1);

  m_tableHeader = new QLabel(this);
  m_tableHeader->setTextFormat(Qt::RichText);
  m_tableHeader->setWordWrap(true);
  m_model = new HiddenPosteriorModel(this);
  m_sort = new QSortFilterProxyModel(this);
  m_sort->setSourceModel(m_model);
  m_sort->setSortRole(kHiddenSortRole);
  m_table = new QTableView(this);
  m_table->setModel(m_sort);
  makeCompact(m_table);
  m_table->setSortingEnabled(true);
  m_table->sortByColumn(HiddenPosteriorModel::VisibleColumn, Qt::AscendingOrder);
  m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
  m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_table->setTextElideMode(Qt::ElideRight);
  auto* header = m_table->horizontalHeader();
  header->setSectionResizeMode(QHeaderView::Interactive);
  header->setSectionResizeMode(HiddenPosteriorModel::VisibleColumn, QHeaderView::Stretch);
  for (int c = HiddenPosteriorModel::UnitColumn; c < HiddenPosteriorModel::ColumnCount; ++c)
    m_table->setColumnWidth(c, 110);
  enableTableExport(m_table, [this] { return m_data ? tr("run-%1-posterior.csv").arg(m_data->run.id) : QString(); });
  m_hint = new QLabel(this);
  m_hint->setWordWrap(true);
  m_hint->setForegroundRole(QPalette::PlaceholderText);
  auto* bottom = new QWidget(this);
  auto* bottomLayout = new QVBoxLayout(bottom);
  bottomLayout->setContentsMargins(0, 0, 0, 0);
  bottomLayout->addWidget(m_tableHeader);
  bottomLayout->addWidget(m_table, 1);
  bottomLayout->addWidget(m_hint);

  auto* splitter = new QSplitter(Qt::Vertical, this);
  splitter->addWidget(top);
  splitter->addWidget(bottom);
  // The chart and the table share the height.
  splitter->setStretchFactor(0, 1);
  splitter->setStretchFactor(1, 1);
  splitter->setChildrenCollapsible(false);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 6, 0, 0);
  layout->addWidget(splitter, 1);
}

QString HiddenChainPage::headerText() const { return m_header->text(); }

int HiddenChainPage::traceSeriesCount() const { return static_cast<int>(m_series.size()); }

QList<QPointF> HiddenChainPage::tracePoints(int series) const {
  return series >= 0 && series < m_series.size() ? m_series[series]->points() : QList<QPointF>();
}

void HiddenChainPage::changeEvent(QEvent* event) {
  if (event->type() == QEvent::PaletteChange && m_data) rebuild();
  QWidget::changeEvent(event);
}

void HiddenChainPage::setData(std::shared_ptr<const HiddenRunData> data) {
  m_data = std::move(data);
  m_model->setData(m_data);
  m_burnIn = m_data ? chainBurnIn(*m_data) : 0;
  rebuild();
  if (!m_data) {
    m_header->clear();
    m_tableHeader->clear();
    m_hint->clear();
    return;
  }
  const auto& d = *m_data;
  m_table->setColumnHidden(HiddenPosteriorModel::SdColumn, !d.hasPosteriorSd());
  m_table->setColumnHidden(HiddenPosteriorModel::PriorMeanColumn, !d.hasPrior());
  m_table->setColumnHidden(HiddenPosteriorModel::PriorSdColumn, !d.hasPrior());
  const QString iterations = countOf(d.weightTrace.rows(), tr("iteration"), tr("iterations"));
  if (chainIsLangevin(d)) {
    QString text = tr("<b>The Langevin chain</b>: four weights of W after each of the %1, as in 004 Fig. 3.")
                       .arg(iterations.toHtmlEscaped());
    if (m_burnIn > 0)
      text += QLatin1Char(' ') + tr("The first %1 are burn-in (left of the dashed line); the draws after it make the "
                                    "posterior below. A chain that has settled wanders around one level.")
                                     .arg(formatCount(m_burnIn));
    m_header->setText(text);
  } else {
    m_header->setText(tr("<b>The path of maximum likelihood</b>: four weights of W after each of the %1 gradient "
                         "steps (no posterior draws: the run used inference ml).")
                          .arg(iterations.toHtmlEscaped()));
  }
  const QString pairs = countOf(static_cast<std::int64_t>(d.wordCount()) * d.unitCount(), tr("weight"), tr("weights"));
  m_tableHeader->setText(
      d.hasPosteriorSd()
          ? tr("<b>All %1</b>: the posterior mean of each and its spread over the draws%2.")
                .arg(pairs.toHtmlEscaped(),
                     d.hasPrior() ? tr(", with the prior on the %1's weights").arg(d.visibleNoun().toHtmlEscaped())
                                  : QString())
          : tr("<b>All %1</b> of the fit.").arg(pairs.toHtmlEscaped()));
  m_hint->setText(
      tr("The hidden units are identified only up to a rotation, so each draw was rotated onto the first "
         "before averaging. Click a column's title to sort by it (by spread: the least certain weights); "
         "right-click to copy rows or export the table as CSV."));
}

void HiddenChainPage::rebuild() {
  auto* chart = new QChart;
  m_series.clear();
  QList<QColor> colours;
  QLineSeries* burnLine = nullptr;
  if (m_data && m_data->hasTrace()) {
    const auto& d = *m_data;
    const auto& trace = d.weightTrace;
    double lo = INFINITY, hi = -INFINITY;
    auto* x = new QValueAxis;
    x->setTitleText(tr("iteration"));
    x->setLabelFormat(QStringLiteral("%d"));
    x->setRange(0.0, static_cast<double>(std::max<Eigen::Index>(1, trace.rows())));
    auto* y = new QValueAxis;
    y->setTitleText(tr("weight"));
    // Three significant digits whatever the size: a diverged chain has no readable numbers.
    y->setLabelFormat(QStringLiteral("%.3g"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (int s = 0; s < 4; ++s) {
      const int v = kTracedWeights[s][0], k = kTracedWeights[s][1];
      if (v >= d.wordCount() || k >= d.unitCount()) continue;
      auto* series = new QLineSeries;
      series->setName(tr("W%1%2 (%3, unit %4)").arg(v + 1).arg(k + 1).arg(d.wordText(v)).arg(k + 1));
      QList<QPointF> points;
      points.reserve(static_cast<qsizetype>(trace.rows()));
      for (Eigen::Index t = 0; t < trace.rows(); ++t) {
        const double w = trace(t, s);
        if (!std::isfinite(w)) continue;
        points << QPointF(static_cast<double>(t + 1), w);
        lo = std::min(lo, w);
        hi = std::max(hi, w);
      }
      series->replace(points);
      chart->addSeries(series);
      series->attachAxis(x);
      series->attachAxis(y);
      m_series << series;
      colours << topicColour(s, palette());
    }
    if (std::isfinite(lo)) {
      const double pad = hi > lo ? (hi - lo) * 0.08 : std::max(1e-3, std::abs(lo) * 0.05);
      y->setRange(lo - pad, hi + pad);
      y->applyNiceNumbers();
      if (m_burnIn > 0 && m_burnIn < trace.rows()) {
        auto* line = new QLineSeries;
        line->setName(tr("end of burn-in"));
        line->append(m_burnIn, y->min());
        line->append(m_burnIn, y->max());
        chart->addSeries(line);
        line->attachAxis(x);
        line->attachAxis(y);
        for (auto* marker : chart->legend()->markers(line)) marker->setVisible(false);
        burnLine = line;
      }
    }
    chart->legend()->setAlignment(Qt::AlignBottom);
  }
  styleChart(chart, palette());
  // styleChart follows the palette; the series keep their own colours.
  for (int s = 0; s < m_series.size(); ++s) m_series[s]->setPen(QPen(colours[s], 1.5));
  if (burnLine) {
    QColor quiet = palette().color(QPalette::Text);
    quiet.setAlphaF(0.6f);
    burnLine->setPen(QPen(quiet, 1.5, Qt::DashLine));
  }
  QChart* old = m_view->chart();
  m_view->setChart(chart);
  delete old;
}

}  // namespace latent::ui
