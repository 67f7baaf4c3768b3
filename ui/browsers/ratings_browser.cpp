// SPDX-License-Identifier: GPL-3.0-or-later
// RatingsBrowser: loads and summarises off the GUI thread, then fills the form, chart and table.
#include "ui/browsers/ratings_browser.hpp"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>

#include "core/store/ratings_store.hpp"
#include "ui/jobs/project_session.hpp"
#include "ui/util/background.hpp"
#include "ui/util/chart_style.hpp"
#include "ui/util/figure_export.hpp"
#include "ui/util/format.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/table_export.hpp"
#include "ui/util/table_style.hpp"

namespace latent::ui {
namespace {

struct LoadedRatings {
  core::DatasetInfo dataset;
  RatingsStats stats;
  QString error;
};

QTableWidgetItem* rightAligned(const QString& text, const QVariant& sortValue) {
  auto* item = new QTableWidgetItem;
  item->setData(Qt::EditRole, sortValue);
  item->setData(Qt::DisplayRole, text);
  item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  return item;
}

}  // namespace

RatingsBrowser::RatingsBrowser(std::filesystem::path projectFile, qint64 datasetId, QWidget* parent)
    : TabPage(QStringLiteral("dataset:%1").arg(datasetId), parent),
      m_projectFile(std::move(projectFile)),
      m_datasetId(datasetId) {
  auto* page = new QWidget(this);
  m_title = new QLabel(page);
  m_title->setTextFormat(Qt::RichText);

  auto* summaryBox = new QGroupBox(tr("Summary"), page);
  m_form = new QFormLayout(summaryBox);
  m_form->setLabelAlignment(Qt::AlignLeft);

  m_chartView = new QChartView(page);
  enableFigureExport(m_chartView, [] { return QStringLiteral("rating-histogram"); });
  m_chartView->setRenderHint(QPainter::Antialiasing);
  m_chartView->setMinimumHeight(260);

  auto* top = new QWidget(page);
  auto* topLayout = new QHBoxLayout(top);
  topLayout->setContentsMargins(0, 0, 0, 0);
  topLayout->addWidget(summaryBox, 0);
  topLayout->addWidget(m_chartView, 1);

  auto* itemsBox = new QGroupBox(tr("Most-rated items"), page);
  m_items = new QTableWidget(0, 4, itemsBox);
  enableTableExport(m_items, [] { return QStringLiteral("items.csv"); });
  m_items->setHorizontalHeaderLabels({tr("Item"), tr("Name"), tr("Ratings"), tr("Mean rating")});
  m_items->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
  m_items->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_items->setSelectionBehavior(QAbstractItemView::SelectRows);
  makeCompact(m_items);
  auto* itemsLayout = new QVBoxLayout(itemsBox);
  itemsLayout->addWidget(m_items);

  auto* splitter = new QSplitter(Qt::Vertical, page);
  splitter->addWidget(top);
  splitter->addWidget(itemsBox);
  splitter->setStretchFactor(0, 3);
  splitter->setStretchFactor(1, 2);
  splitter->setChildrenCollapsible(false);

  auto* layout = new QVBoxLayout(page);
  layout->setContentsMargins(10, 8, 10, 8);
  layout->addWidget(m_title);
  layout->addWidget(splitter, 1);
  setContent(page);
  load();
}

void RatingsBrowser::load() {
  showLoading();
  runInBackground(
      this,
      [file = m_projectFile, id = m_datasetId] {
        LoadedRatings out;
        try {
          core::Project project(offGuiThread(file), core::Project::Access::ReadOnly);
          out.dataset = project.dataset(id);
          out.stats = computeRatingsStats(core::loadRatings(project, id));
        } catch (const std::exception& e) {
          out.error = qs(e.what());
        }
        return out;
      },
      [this](LoadedRatings loaded) {
        if (!loaded.error.isEmpty()) {
          showError(tr("Could not read these ratings: %1").arg(loaded.error));
          return;
        }
        m_dataset = loaded.dataset;
        m_stats = std::move(loaded.stats);
        m_hasStats = true;
        fill();
        showContent();
      });
}

void RatingsBrowser::fill() {
  const auto& s = m_stats;
  m_title->setText(QStringLiteral("<b>%1</b> &nbsp;<span style=\"color:gray\">%2 · %3</span>")
                       .arg(qs(m_dataset.name).toHtmlEscaped(), datasetSummaryText(m_dataset),
                            tr("format: %1").arg(qs(m_dataset.format))));
  while (m_form->rowCount() > 0) m_form->removeRow(0);
  auto addRow = [this](const QString& label, const QString& value) {
    auto* v = new QLabel(value);
    v->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    v->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_form->addRow(label, v);
  };
  addRow(tr("Users"), formatCount(s.users));
  addRow(tr("Items"), formatCount(s.items));
  addRow(tr("Ratings"), formatCount(s.ratings));
  addRow(tr("Density"), QStringLiteral("%1 %").arg(formatReal(s.density * 100.0, 3)));
  addRow(tr("Mean rating"), formatReal(s.mean, 4));
  addRow(tr("Lowest"), formatCompact(s.minimum, 6));
  addRow(tr("Highest"), formatCompact(s.maximum, 6));
  addRow(tr("Per user (mean)"), s.users > 0
                                    ? formatReal(static_cast<double>(s.ratings) / static_cast<double>(s.users), 3)
                                    : QStringLiteral("–"));
  addRow(tr("Per item (mean)"), s.items > 0
                                    ? formatReal(static_cast<double>(s.ratings) / static_cast<double>(s.items), 3)
                                    : QStringLiteral("–"));

  buildChart();

  m_items->setSortingEnabled(false);
  m_items->setRowCount(static_cast<int>(s.mostRated.size()));
  for (int row = 0; row < static_cast<int>(s.mostRated.size()); ++row) {
    const auto& item = s.mostRated[row];
    m_items->setItem(row, 0, new QTableWidgetItem(item.id));
    m_items->setItem(row, 1, new QTableWidgetItem(item.name));
    m_items->setItem(row, 2, rightAligned(formatCount(item.count), item.count));
    m_items->setItem(row, 3, rightAligned(formatReal(item.mean, 3), item.mean));
  }
  // Without an items file the names are the ids: one column is enough then.
  const bool named = std::any_of(s.mostRated.begin(), s.mostRated.end(), [](const auto& i) { return i.name != i.id; });
  m_items->setColumnHidden(1, !named);
  m_items->resizeColumnsToContents();
  m_items->horizontalHeader()->setSectionResizeMode(named ? 1 : 0, QHeaderView::Stretch);
  m_items->horizontalHeader()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
  m_items->horizontalHeader()->setSectionResizeMode(3, QHeaderView::ResizeToContents);
  m_items->setSortingEnabled(true);
  m_items->sortByColumn(2, Qt::DescendingOrder);
}

void RatingsBrowser::buildChart() {
  const auto& s = m_stats;
  auto* chart = new QChart;
  m_set = new QBarSet(tr("ratings"));
  for (const auto count : s.counts) *m_set << static_cast<qreal>(count);
  auto* series = new QBarSeries;
  series->append(m_set);
  series->setBarWidth(s.discrete ? 0.6 : 0.95);
  chart->addSeries(series);
  auto* x = new QBarCategoryAxis;
  x->append(s.labels);
  x->setTitleText(s.discrete ? tr("rating value") : tr("rating value (binned)"));
  chart->addAxis(x, Qt::AlignBottom);
  series->attachAxis(x);
  auto* y = new QValueAxis;
  qint64 highest = 0;
  for (const auto c : s.counts) highest = std::max(highest, c);
  y->setRange(0, highest > 0 ? static_cast<double>(highest) * 1.05 : 1.0);
  y->setTickCount(6);
  y->applyNiceNumbers();
  y->setLabelFormat(QStringLiteral("%.0f"));
  y->setTitleText(tr("number of ratings"));
  chart->addAxis(y, Qt::AlignLeft);
  series->attachAxis(y);
  chart->legend()->hide();
  chart->setTitle(tr("Distribution of rating values"));
  styleChart(chart, palette());
  m_set->setColor(palette().color(QPalette::Highlight));
  m_set->setBorderColor(palette().color(QPalette::Highlight).darker(130));
  QChart* old = m_chartView->chart();
  m_chartView->setChart(chart);
  delete old;
}

QStringList RatingsBrowser::histogramLabels() const {
  const auto axes = m_chartView->chart()->axes(Qt::Horizontal);
  if (axes.isEmpty()) return {};
  if (auto* categories = qobject_cast<QBarCategoryAxis*>(axes.first())) return categories->categories();
  return {};
}

void RatingsBrowser::changeEvent(QEvent* event) {
  TabPage::changeEvent(event);
  if (event->type() == QEvent::PaletteChange && m_hasStats) buildChart();
}

}  // namespace latent::ui
