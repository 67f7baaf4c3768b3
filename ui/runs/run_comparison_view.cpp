// SPDX-License-Identifier: GPL-3.0-or-later
// RunComparisonView: reading a dataset's runs off the GUI thread, one row per run, numbers sorted
// as numbers.
#include "ui/runs/run_comparison_view.hpp"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "ui/jobs/project_session.hpp"
#include "ui/runs/metric_text.hpp"
#include "ui/runs/option_form.hpp"
#include "ui/runs/run_view.hpp"
#include "ui/util/background.hpp"
#include "ui/util/format.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/table_export.hpp"
#include "ui/util/table_style.hpp"

namespace latent::ui {
namespace {

constexpr int kComparisonSortRole = Qt::UserRole + 1;  // a number to sort by, when the cell has one
constexpr int kComparisonRunRole = Qt::UserRole + 2;   // the run of the row (on its first cell)

struct LoadedComparison {
  core::RunComparison comparison;
  QString datasetName;
  QString error;
};

// Sorts by the number behind the cell when both cells have one (so 9 comes before 10 and
// "1,234" after "987"), else by text; an empty cell goes after any value, either way round.
class ComparisonItem final : public QTableWidgetItem {
 public:
  using QTableWidgetItem::QTableWidgetItem;
  bool operator<(const QTableWidgetItem& other) const override {
    const QVariant a = data(kComparisonSortRole), b = other.data(kComparisonSortRole);
    if (a.isValid() && b.isValid()) return a.toDouble() < b.toDouble();
    if (a.isValid() != b.isValid()) return a.isValid();
    return text().localeAwareCompare(other.text()) < 0;
  }
};

ComparisonItem* comparisonCell(const QString& text, std::optional<double> sortKey = std::nullopt) {
  auto* item = new ComparisonItem(text);
  item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
  if (sortKey && std::isfinite(*sortKey)) {
    item->setData(kComparisonSortRole, *sortKey);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  }
  return item;
}

ComparisonItem* valueCell(const nlohmann::json* value) {
  if (!value) return comparisonCell(QStringLiteral("—"));
  const auto cell = metricCell(*value);
  auto* item =
      comparisonCell(cell.text, value->is_number() ? std::optional<double>(value->get<double>()) : std::nullopt);
  if (!cell.tooltip.isEmpty()) item->setToolTip(cell.tooltip);
  return item;
}

const nlohmann::json* member(const nlohmann::json& object, const std::string& key) {
  if (!object.is_object()) return nullptr;
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

}  // namespace

RunComparisonView::RunComparisonView(std::filesystem::path projectFile, qint64 datasetId, QWidget* parent)
    : TabPage(keyFor(datasetId), parent), m_projectFile(std::move(projectFile)), m_datasetId(datasetId) {
  auto* page = new QWidget(this);
  m_summary = new QLabel(page);
  m_summary->setWordWrap(true);
  m_table = new QTableWidget(page);
  m_table->setObjectName(QStringLiteral("runComparison"));
  m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_table->horizontalHeader()->setSectionsMovable(true);
  makeCompact(m_table);
  enableTableExport(m_table, [this] { return tr("runs-of-%1.csv").arg(m_datasetName); });
  connect(m_table, &QTableWidget::cellDoubleClicked, this, [this](int row, int) {
    if (const qint64 run = runAt(row)) Q_EMIT openRunRequested(run);
  });
  auto* layout = new QVBoxLayout(page);
  layout->setContentsMargins(10, 8, 10, 8);
  layout->addWidget(m_summary);
  layout->addWidget(m_table, 1);
  setContent(page);
  reload();
}

QString RunComparisonView::keyFor(qint64 datasetId) { return QStringLiteral("compare:%1").arg(datasetId); }

void RunComparisonView::reload() {
  const int generation = ++m_generation;
  if (!isLoaded()) showLoading();
  runInBackground(
      this,
      [file = m_projectFile, id = m_datasetId] {
        LoadedComparison out;
        try {
          core::Project project(offGuiThread(file), core::Project::Access::ReadOnly);
          out.datasetName = qs(project.dataset(id).name);
          out.comparison = core::compareDatasetRuns(project, id);
        } catch (const std::exception& e) {
          out.error = qs(e.what());
        }
        return out;
      },
      [this, generation](LoadedComparison loaded) {
        if (generation != m_generation) return;
        if (!loaded.error.isEmpty()) {
          showError(tr("Could not read the runs of dataset #%1: %2").arg(m_datasetId).arg(loaded.error));
          return;
        }
        m_datasetName = loaded.datasetName;
        m_comparison = std::move(loaded.comparison);
        fill();
        showContent();
        Q_EMIT reloaded();
      });
}

void RunComparisonView::fill() {
  const auto& runs = m_comparison.runs;
  // The numbers the runs are judged by (their models' held-out metrics) come first.
  std::vector<std::string> metrics = m_comparison.metrics;
  std::stable_partition(metrics.begin(), metrics.end(), [&runs](const std::string& key) {
    return std::any_of(runs.begin(), runs.end(), [&key](const core::RunRecord& run) {
      const auto* info = findModel(run.model);
      return info && info->heldoutKey == key;
    });
  });

  QStringList headers{tr("Run"), tr("Model")};
  for (const auto& key : m_comparison.differingOptions) headers << optionLabel(key);
  for (const auto& key : metrics) {
    const auto first = std::find_if(runs.begin(), runs.end(),
                                    [&key](const core::RunRecord& run) { return member(run.finalMetrics, key); });
    headers << metricName(*first, key);
  }
  headers << tr("Time") << tr("Iterations") << tr("State");

  m_table->setSortingEnabled(false);
  m_table->clear();
  m_table->setColumnCount(static_cast<int>(headers.size()));
  m_table->setHorizontalHeaderLabels(headers);
  m_table->setRowCount(static_cast<int>(runs.size()));
  for (int row = 0; row < static_cast<int>(runs.size()); ++row) {
    const auto& run = runs[static_cast<std::size_t>(row)];
    int col = 0;
    auto* first = comparisonCell(
        run.name.empty() ? QStringLiteral("#%1").arg(run.id) : QStringLiteral("#%1 %2").arg(run.id).arg(qs(run.name)),
        static_cast<double>(run.id));
    first->setTextAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    first->setData(kComparisonRunRole, static_cast<qlonglong>(run.id));
    if (!run.notes.empty()) first->setToolTip(qs(run.notes));
    m_table->setItem(row, col++, first);
    const auto* info = findModel(run.model);
    // The model's short name keeps the column narrow; its title is the tooltip.
    auto* model = comparisonCell(qs(run.model));
    if (info) model->setToolTip(qs(info->title));
    m_table->setItem(row, col++, model);
    for (const auto& key : m_comparison.differingOptions)
      m_table->setItem(row, col++, valueCell(member(run.options, key)));
    for (const auto& key : metrics) m_table->setItem(row, col++, valueCell(member(run.finalMetrics, key)));
    m_table->setItem(
        row, col++,
        run.seconds ? comparisonCell(formatSeconds(*run.seconds), *run.seconds) : comparisonCell(QString()));
    m_table->setItem(row, col++,
                     run.iterations ? comparisonCell(formatCount(*run.iterations), static_cast<double>(*run.iterations))
                                    : comparisonCell(QString()));
    auto* state = comparisonCell(statusText(run.status));
    if (!run.message.empty()) state->setToolTip(qs(run.message));
    m_table->setItem(row, col++, state);
  }
  m_table->setSortingEnabled(true);
  m_table->horizontalHeader()->setSortIndicatorShown(true);
  m_table->resizeColumnsToContents();

  const int differing = static_cast<int>(m_comparison.differingOptions.size());
  m_summary->setText(
      runs.empty() ? tr("No runs on “%1” yet.").arg(m_datasetName)
      : runs.size() == 1
          ? tr("One run on “%1”: there is nothing to compare it with yet.").arg(m_datasetName)
          : tr("%1 on “%2”; %3 between them (the rest are the same in every run). Click a column to sort by it, "
               "double-click a run to open it.")
                .arg(countOf(static_cast<std::int64_t>(runs.size()), tr("run"), tr("runs")), m_datasetName,
                     differing == 0 ? tr("no option differs")
                                    : countOf(differing, tr("option differs"), tr("options differ"))));
}

int RunComparisonView::column(const QString& title) const {
  for (int c = 0; c < m_table->columnCount(); ++c)
    if (m_table->horizontalHeaderItem(c) && m_table->horizontalHeaderItem(c)->text() == title) return c;
  return -1;
}

qint64 RunComparisonView::runAt(int row) const {
  const auto* item = m_table->item(row, 0);
  return item ? item->data(kComparisonRunRole).toLongLong() : 0;
}

}  // namespace latent::ui
