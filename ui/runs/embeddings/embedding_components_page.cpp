// SPDX-License-Identifier: GPL-3.0-or-later
// EmbeddingComponentsPage: the scree plot and the table of components.
#include "ui/runs/embeddings/embedding_components_page.hpp"

#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>
#include <QValueAxis>

#include <cmath>

#include "ui/runs/embeddings/embedding_run_data.hpp"
#include "ui/util/chart_style.hpp"
#include "ui/util/figure_export.hpp"
#include "ui/util/format.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/table_export.hpp"
#include "ui/util/table_style.hpp"
#include "ui/util/topic_colours.hpp"

namespace latent::ui {
namespace {

QString componentWordList(const EmbeddingRunData& data, int k, bool positive) {
  QStringList words;
  for (const int v : componentExtremes(data.words, k, kComponentWords, positive))
    words << qs(data.wordNames[static_cast<std::size_t>(v)]);
  return words.join(QStringLiteral(", "));
}

// A number shown as text and sorted as a number.
QStandardItem* numberItem(double value, const QString& text) {
  auto* item = new QStandardItem(text);
  item->setData(value, Qt::UserRole);
  item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  return item;
}

}  // namespace

EmbeddingComponentsPage::EmbeddingComponentsPage(QWidget* parent) : QWidget(parent) {
  m_header = new QLabel(this);
  m_header->setTextFormat(Qt::RichText);
  m_header->setWordWrap(true);
  m_chart = new QChartView(this);
  m_chart->setRenderHint(QPainter::Antialiasing);
  m_chart->setMinimumHeight(180);
  enableFigureExport(m_chart, [this] { return QStringLiteral("run-%1-scree").arg(m_data ? m_data->run.id : 0); });
  m_model = new QStandardItemModel(this);
  m_model->setSortRole(Qt::UserRole);
  m_table = new QTableView(this);
  m_table->setModel(m_model);
  makeCompact(m_table);
  m_table->setSortingEnabled(true);
  m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_table->setTextElideMode(Qt::ElideRight);
  m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  enableTableExport(m_table, [this] { return m_data ? tr("run-%1-components.csv").arg(m_data->run.id) : QString(); });
  auto* hint = new QLabel(tr("A component is a direction in word space: the words at its positive end tend to occur "
                             "together, and apart from those at its negative end. Right-click the table to export it, "
                             "the chart to save it."),
                          this);
  hint->setWordWrap(true);
  hint->setForegroundRole(QPalette::PlaceholderText);

  auto* splitter = new QSplitter(Qt::Vertical, this);
  splitter->addWidget(m_chart);
  splitter->addWidget(m_table);
  splitter->setStretchFactor(0, 2);
  splitter->setStretchFactor(1, 3);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 6, 0, 0);
  layout->addWidget(m_header);
  layout->addWidget(splitter, 1);
  layout->addWidget(hint);
}

QString EmbeddingComponentsPage::headerText() const { return m_header->text(); }

void EmbeddingComponentsPage::setData(std::shared_ptr<const EmbeddingRunData> data) {
  m_data = std::move(data);
  m_model->clear();
  if (!m_data) {
    m_header->clear();
    rebuildChart();
    return;
  }
  const auto& d = *m_data;
  m_model->setHorizontalHeaderLabels({tr("Component"), tr("Singular value"), tr("Share"), tr("Cumulative share"),
                                      tr("Words at the positive end"), tr("Words at the negative end")});
  double cumulative = 0.0;
  for (int k = 0; k < d.componentCount(); ++k) {
    const double share = d.share(k);
    cumulative += share;
    QList<QStandardItem*> row;
    row << numberItem(k + 1, QString::number(k + 1));
    row << numberItem(d.singularValues[k], formatReal(d.singularValues[k]));
    row << numberItem(share, std::isfinite(share) ? formatPercent(share) : QString());
    row << numberItem(cumulative, std::isfinite(cumulative) ? formatPercent(cumulative) : QString());
    for (const bool positive : {true, false}) {
      auto* words = new QStandardItem(componentWordList(d, k, positive));
      words->setData(words->text(), Qt::UserRole);
      row << words;
    }
    m_model->appendRow(row);
  }
  // Shares only where the run recorded what they are of (lsa's weighted counts).
  m_table->setColumnHidden(ShareColumn, d.squaredNorm <= 0.0);
  m_table->setColumnHidden(CumulativeColumn, d.squaredNorm <= 0.0);
  // The word lists share what the numbers leave.
  m_table->horizontalHeader()->setSectionResizeMode(PositiveColumn, QHeaderView::Stretch);
  m_table->horizontalHeader()->setSectionResizeMode(NegativeColumn, QHeaderView::Stretch);
  QString captured;
  if (std::isfinite(cumulative))
    captured = tr(", which together capture %1 of the weighted counts' squared norm").arg(formatPercent(cumulative));
  // lsa decomposes the weighted counts themselves; epca the low-rank part of its logits.
  const QString what = d.run.model == "lsa"
                           ? tr("of a truncated SVD of the tf-idf weighted counts (the first component mostly measures "
                                "how much a document says)")
                           : tr("of the low-rank part of the word logits, Z W\u1d40, in SVD form");
  m_header->setText(tr("<b>%1</b> %2%3.")
                        .arg(countOf(d.componentCount(), tr("component"), tr("components")), what.toHtmlEscaped(),
                             captured.toHtmlEscaped()));
  rebuildChart();
}

void EmbeddingComponentsPage::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  if (event->type() == QEvent::PaletteChange) rebuildChart();
}

void EmbeddingComponentsPage::rebuildChart() {
  auto* chart = new QChart;
  QLineSeries* shares = nullptr;
  QLineSeries* running = nullptr;
  QScatterSeries* dots = nullptr;
  if (m_data && m_data->componentCount() > 0) {
    const auto& d = *m_data;
    const bool known = d.squaredNorm > 0.0;
    shares = new QLineSeries;
    dots = new QScatterSeries;
    running = known ? new QLineSeries : nullptr;
    shares->setName(known ? tr("share of each component") : tr("singular value"));
    if (running) running->setName(tr("cumulative share"));
    double cumulative = 0.0, top = 0.0;
    for (int k = 0; k < d.componentCount(); ++k) {
      const double value = known ? d.share(k) * 100.0 : d.singularValues[k];
      cumulative += known ? value : 0.0;
      shares->append(k + 1, value);
      dots->append(k + 1, value);
      if (running) running->append(k + 1, cumulative);
      top = std::max({top, value, running ? cumulative : 0.0});
    }
    auto* x = new QValueAxis;
    x->setTitleText(tr("component"));
    x->setLabelFormat(QStringLiteral("%d"));
    x->setRange(0.5, d.componentCount() + 0.5);
    // Whole components only: a tick at 1 and then every 1, 2, 5, 10, ... components.
    double step = 1.0;
    for (const double candidate : {1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0, 2000.0, 5000.0}) {
      step = candidate;
      if (d.componentCount() / candidate <= 12.0) break;
    }
    x->setTickType(QValueAxis::TicksDynamic);
    x->setTickAnchor(step > 1.0 ? 0.0 : 1.0);
    x->setTickInterval(step);
    auto* y = new QValueAxis;
    y->setTitleText(known ? tr("share (%)") : tr("singular value"));
    y->setRange(0.0, top > 0 ? top * 1.05 : 1.0);
    y->applyNiceNumbers();
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (QXYSeries* series : std::initializer_list<QXYSeries*>{shares, dots, running}) {
      if (!series) continue;
      chart->addSeries(series);
      series->attachAxis(x);
      series->attachAxis(y);
    }
    for (auto* marker : chart->legend()->markers(dots)) marker->setVisible(false);
    chart->legend()->setAlignment(Qt::AlignBottom);
  }
  styleChart(chart, palette());
  if (shares) {
    const QColor main = topicColour(0, palette());
    shares->setPen(QPen(main, 1.5));
    dots->setColor(main);
    dots->setBorderColor(main);
    dots->setMarkerSize(6.0);
    if (running) running->setPen(QPen(topicColour(1, palette()), 1.5, Qt::DashLine));
  }
  QChart* old = m_chart->chart();
  m_chart->setChart(chart);
  delete old;
}

}  // namespace latent::ui
