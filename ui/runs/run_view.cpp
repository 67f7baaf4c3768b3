// SPDX-License-Identifier: GPL-3.0-or-later
// RunView: loading the record and metrics off the GUI thread, handing the run to the families of
// result pages, live updates.
#include "ui/runs/run_view.hpp"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <optional>

#include "ui/jobs/job_controller.hpp"
#include "ui/jobs/project_session.hpp"
#include "ui/runs/curve_controls.hpp"
#include "ui/runs/metric_text.hpp"
#include "ui/runs/metrics_chart.hpp"
#include "ui/runs/option_form.hpp"
#include "ui/runs/run_export_dialog.hpp"
#include "ui/runs/run_pages_registry.hpp"
#include "ui/runs/run_progress_text.hpp"
#include "ui/util/background.hpp"
#include "ui/util/figure_export.hpp"
#include "ui/util/format.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/table_export.hpp"
#include "ui/util/table_style.hpp"

namespace latent::ui {
namespace {

struct LoadedRun {
  core::RunRecord run;
  std::vector<core::MetricRow> metrics;
  RunHoldings holdings;  // what the families of result pages decide from
  QString error;
};

QTableWidgetItem* tableCell(const QString& text, bool number = false) {
  auto* item = new QTableWidgetItem(text);
  if (number) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  return item;
}

}  // namespace

QString metricName(const core::RunRecord& run, const std::string& key) {
  const auto* info = findModel(run.model);
  if (info && key == info->heldoutKey && !run.heldoutName.empty()) return qs(run.heldoutName);
  QString name = qs(key);
  name.replace(QLatin1Char('_'), QLatin1Char(' '));
  name.replace(QStringLiteral("heldout"), QStringLiteral("held-out"));
  name.replace(QStringLiteral("train "), QStringLiteral("training "));
  return name;
}

namespace {

// Where a run with a burn-in (optimize_burn_in) starts re-estimating its hyperparameters every
// optimize_every iterations; none when it never does.
QVector<MetricsChart::Mark> hyperparameterMarks(const nlohmann::json& options) {
  if (!options.is_object()) return {};
  const auto burnIn = options.find("optimize_burn_in");
  const auto every = options.find("optimize_every");
  if (burnIn == options.end() || every == options.end() || !burnIn->is_number() || !every->is_number() ||
      every->get<double>() <= 0)
    return {};
  return {{burnIn->get<double>(), QObject::tr("the hyperparameters are re-estimated from here on, every %1 iterations")
                                      .arg(every->get<double>())}};
}

}  // namespace

RunView::RunView(std::filesystem::path projectFile, qint64 runId, QWidget* parent)
    : TabPage(QStringLiteral("run:%1").arg(runId), parent), m_projectFile(std::move(projectFile)), m_runId(runId) {
  auto* page = new QWidget(this);

  // Header: title, facts, options, and the way to run it again.
  m_title = new QLabel(page);
  QFont tf = m_title->font();
  tf.setPointSizeF(tf.pointSizeF() * 1.35);
  tf.setBold(true);
  m_title->setFont(tf);
  m_facts = new QLabel(page);
  m_facts->setTextFormat(Qt::RichText);
  m_facts->setWordWrap(true);
  m_facts->setTextInteractionFlags(Qt::TextSelectableByMouse);
  // While the run goes: where it is and how long it may still take (the facts say what was stored).
  m_progress = new QLabel(page);
  m_progress->setObjectName(QStringLiteral("liveProgress"));
  m_progress->hide();
  // The user's notes on the run, when it has some (Name and Notes… edits them).
  m_notes = new QLabel(page);
  m_notes->setObjectName(QStringLiteral("runNotes"));
  m_notes->setWordWrap(true);
  m_notes->setTextFormat(Qt::PlainText);
  m_notes->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_notes->hide();
  m_optionsLabel = new QLabel(page);
  m_optionsLabel->setWordWrap(true);
  m_optionsLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_again = new QPushButton(tr("Run Again with Changes"), page);
  connect(m_again, &QPushButton::clicked, this, [this] { Q_EMIT rerunRequested(m_runId); });
  m_exportResults = new QPushButton(tr("Export Results…"), page);
  m_exportResults->setToolTip(tr("Write the run's tables to files: matrices, assignments, MALLET's files, ..."));
  connect(m_exportResults, &QPushButton::clicked, this, [this] { openExportDialog(); });
  m_annotate = new QPushButton(tr("Name and Notes…"), page);
  m_annotate->setToolTip(tr("Give the run a name of its own and write notes on it; both are kept in the project"));
  connect(m_annotate, &QPushButton::clicked, this, [this] { Q_EMIT annotateRequested(m_runId); });
  auto* titleRow = new QHBoxLayout;
  titleRow->addWidget(m_title, 1);
  titleRow->addWidget(m_annotate, 0, Qt::AlignTop);
  titleRow->addWidget(m_exportResults, 0, Qt::AlignTop);
  titleRow->addWidget(m_again, 0, Qt::AlignTop);

  // The number the run is judged by, named with its protocol.
  m_keyResult = new QLabel(page);
  m_keyResult->setTextFormat(Qt::RichText);
  m_keyResult->setWordWrap(true);
  m_keyResult->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_keyResult->hide();

  // Curves, with a caption naming both series (the names are too long for a legend).
  m_chart = new MetricsChart(page);
  enableFigureExport(m_chart, [this] { return tr("run-%1-training").arg(m_runId); });
  // The caption is the chart's legend: a saved image carries it.
  setFigureLegend(m_chart, [this] { return m_chart->captionHtml(); });
  m_caption = new QLabel(page);
  m_caption->setTextFormat(Qt::RichText);
  m_caption->setWordWrap(true);
  auto* chartBox = new QWidget(page);
  auto* chartLayout = new QVBoxLayout(chartBox);
  chartLayout->setContentsMargins(0, 0, 0, 0);
  m_curveControls = new CurveControls(m_chart, chartBox);
  chartLayout->addWidget(m_curveControls);
  chartLayout->addWidget(m_chart, 1);
  connect(m_chart, &MetricsChart::appearanceChanged, this, [this] { m_caption->setText(m_chart->captionHtml()); });
  chartLayout->addWidget(m_caption);

  // The per-iteration metrics and every final metric, as tables.
  m_metrics = new QTableWidget(0, 4, page);
  m_metrics->setHorizontalHeaderLabels({tr("Iteration"), tr("Seconds"), tr("Objective"), tr("Held-out")});
  m_metrics->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
  m_metrics->setEditTriggers(QAbstractItemView::NoEditTriggers);
  makeCompact(m_metrics);
  m_final = new QTableWidget(0, 2, page);
  m_final->setHorizontalHeaderLabels({tr("Metric"), tr("Value")});
  m_final->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
  m_final->setEditTriggers(QAbstractItemView::NoEditTriggers);
  makeCompact(m_final);
  enableTableExport(m_metrics, [this] { return tr("run-%1-metrics.csv").arg(m_runId); });
  enableTableExport(m_final, [this] { return tr("run-%1-final-metrics.csv").arg(m_runId); });
  m_final->setWordWrap(true);  // long metric names wrap instead of being cut
  m_final->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  auto* tables = new QTabWidget(page);
  tables->addTab(m_final, tr("Final metrics"));
  tables->addTab(m_metrics, tr("Metrics per iteration"));

  // Training: the curves beside the tables.
  auto* training = new QSplitter(Qt::Horizontal, page);
  m_training = training;
  training->addWidget(chartBox);
  training->addWidget(tables);
  training->setStretchFactor(0, 3);
  training->setStretchFactor(1, 2);
  training->setChildrenCollapsible(false);

  m_pages = new QTabWidget(page);
  m_pages->setDocumentMode(true);
  m_pages->setTabBarAutoHide(true);
  m_pages->addTab(m_training, tr("Training"));

  // The run's results get pages of their own once it has them, each family its own.
  m_undo = new QUndoStack(this);
  m_families = makeRunPages({m_projectFile, m_runId, m_pages, m_training, m_undo}, this);
  for (auto* family : m_families) {
    connect(family, &RunPages::failed, this, &RunView::appendFactsError);
    connect(family, &RunPages::settled, this, &RunView::emitIfSettled);
  }

  auto* layout = new QVBoxLayout(page);
  layout->setContentsMargins(10, 8, 10, 8);
  layout->addLayout(titleRow);
  layout->addWidget(m_facts);
  layout->addWidget(m_notes);
  layout->addWidget(m_progress);
  layout->addWidget(m_optionsLabel);
  layout->addWidget(m_keyResult);
  layout->addSpacing(4);
  layout->addWidget(m_pages, 1);
  setContent(page);

  m_frame.setInterval(33);
  connect(&m_frame, &QTimer::timeout, this, &RunView::flushLive);
  reload();
}

bool RunView::isSettled() const noexcept {
  return isLoaded() && !m_reloadPending && m_run.status != core::RunStatus::Running &&
         std::none_of(m_families.begin(), m_families.end(), [](const RunPages* f) { return f->isPending(); });
}

void RunView::emitIfSettled() {
  if (isSettled()) Q_EMIT settled();
}

void RunView::appendFactsError(const QString& message) {
  m_facts->setText(m_facts->text() +
                   QStringLiteral("<br><span style=\"color:#d0443a\">%1</span>").arg(message.toHtmlEscaped()));
}

QUndoStack* RunView::undoStack() const { return m_undo; }

RunExportDialog* RunView::openExportDialog() {
  auto* dialog = new RunExportDialog(m_projectFile, m_runId, this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->show();
  return dialog;
}

QString RunView::progressLine() const { return m_progress->isHidden() ? QString() : m_progress->text(); }

QString RunView::headerText() const {
  return m_title->text() + QLatin1Char('\n') + m_facts->text() + QLatin1Char('\n') +
         (m_notes->isHidden() ? QString() : m_notes->text() + QLatin1Char('\n')) + m_optionsLabel->text();
}

void RunView::attach(JobController* controller) {
  m_controller = controller;
  for (auto* family : m_families) family->setController(controller);
  if (!controller) return;
  m_planned = plannedIterations(controller->request());
  connect(controller, &JobController::report, this, [this](const core::IterationReport& r) {
    m_dirty = true;                                        // the progress line follows every report
    if (m_run.status != core::RunStatus::Running) return;  // the stored metrics are shown
    if (!r.inChain()) return;                              // the progress line shows those; they are not in the series
    m_chart->append(r);
    appendMetricRow(r.iteration, r.seconds,
                    std::isfinite(r.trainObjective) ? std::optional<double>(r.trainObjective) : std::nullopt,
                    r.heldout);
    m_dirty = true;
  });
  connect(controller, &JobController::ended, this, [this] {
    m_frame.stop();
    m_progress->hide();
    m_chart->setPlaceholder({});
    reload();
  });
  if (controller->state() != JobController::State::Ended) {
    m_frame.start();
    m_dirty = true;
  }
}

void RunView::flushLive() {
  if (!m_dirty) return;
  m_dirty = false;
  if (m_controller && m_controller->state() != JobController::State::Ended) {
    const auto& reports = m_controller->reports();
    m_progress->setText(progressText(reports, m_planned, m_controller->elapsedSeconds()));
    m_progress->show();
    // Until the chain's first iteration the curves are empty: say what the run is doing instead.
    const bool chainStarted = std::any_of(reports.begin(), reports.end(), [](const auto& r) { return r.inChain(); });
    m_chart->setPlaceholder(
        chainStarted ? QString()
        : reports.isEmpty()
            ? tr("Waiting for the first iteration…")
            : tr("Trying starts (%1): the curves begin with the chain the run keeps.").arg(phaseText(reports.back())));
  }
  m_chart->redraw();
  m_metrics->scrollToBottom();
}

void RunView::appendMetricRow(qint64 iteration, double seconds, std::optional<double> objective,
                              std::optional<double> heldout) {
  const int row = m_metrics->rowCount();
  m_metrics->insertRow(row);
  m_metrics->setItem(row, 0, tableCell(QString::number(iteration), true));
  m_metrics->setItem(row, 1, tableCell(QLocale().toString(seconds, 'f', 3), true));
  m_metrics->setItem(row, 2, tableCell(objective ? formatReal(*objective, 6) : QString(), true));
  m_metrics->setItem(row, 3, tableCell(heldout ? formatReal(*heldout, 6) : QString(), true));
}

void RunView::reload() {
  const int generation = ++m_generation;
  m_reloadPending = true;
  if (!isLoaded()) showLoading();
  runInBackground(
      this,
      [file = m_projectFile, id = m_runId] {
        LoadedRun out;
        try {
          core::Project project(offGuiThread(file), core::Project::Access::ReadOnly);
          out.run = core::loadRun(project, id);
          out.metrics = core::loadMetrics(project, id);
          out.holdings.kind = project.dataset(out.run.datasetId).kind;
          out.holdings.matrices = core::listMatrices(project, id);
        } catch (const std::exception& e) {
          out.error = qs(e.what());
        }
        return out;
      },
      [this, generation](LoadedRun loaded) {
        if (generation != m_generation) return;
        m_reloadPending = false;
        if (!loaded.error.isEmpty()) {
          showError(tr("Could not read run #%1: %2").arg(m_runId).arg(loaded.error));
          return;
        }
        m_run = loaded.run;
        const auto* info = findModel(m_run.model);
        const QString model = info ? qs(info->title) : qs(m_run.model);
        m_title->setText(m_run.name.empty() ? tr("Run #%1 — %2").arg(m_run.id).arg(model)
                                            : tr("%1 — run #%2, %3").arg(qs(m_run.name)).arg(m_run.id).arg(model));
        m_notes->setText(qs(m_run.notes));
        m_notes->setVisible(!m_run.notes.empty());

        QStringList facts;
        auto fact = [&facts](const QString& name, const QString& value) {
          facts << QStringLiteral("<span style=\"color:gray\">%1</span>&nbsp;%2")
                       .arg(name.toHtmlEscaped(), value.toHtmlEscaped());
        };
        fact(tr("dataset"), qs(m_run.datasetName));
        fact(tr("status"), statusText(m_run.status));
        fact(tr("seed"), QString::number(m_run.seed));
        fact(tr("threads"), QString::number(m_run.threads));
        fact(tr("held-out fraction"), m_run.heldout > 0 ? formatReal(m_run.heldout, 3) : tr("none"));
        if (m_run.seconds) fact(tr("time"), formatSeconds(*m_run.seconds));
        // While the run goes the stored count lags: the progress line under the facts has it.
        if (m_run.iterations && m_run.status != core::RunStatus::Running)
          fact(tr("iterations"), formatCount(*m_run.iterations));
        fact(tr("started"), qs(m_run.createdAt));
        QString factsHtml = facts.join(QStringLiteral(" &nbsp;·&nbsp; "));
        if (!m_run.message.empty())
          factsHtml +=
              QStringLiteral("<br><span style=\"color:%1\">%2</span>")
                  .arg(m_run.status == core::RunStatus::Failed ? QStringLiteral("#d0443a") : QStringLiteral("gray"),
                       qs(m_run.message).toHtmlEscaped());
        m_facts->setText(factsHtml);

        QStringList options;
        for (const auto& [key, value] : m_run.options.items())
          options << QStringLiteral("%1 = %2").arg(optionLabel(key), jsonValueText(value));
        m_optionsLabel->setText(
            tr("Options: %1").arg(options.isEmpty() ? tr("none") : options.join(QStringLiteral(", "))));
        m_again->setEnabled(m_run.status != core::RunStatus::Running);
        m_exportResults->setEnabled(m_run.status != core::RunStatus::Running);

        // Final metrics, the held-out protocol named wherever the held-out number appears.
        m_final->setRowCount(0);
        if (info && info->heldoutKey.size() && m_run.finalMetrics.contains(info->heldoutKey)) {
          m_final->insertRow(0);
          m_final->setItem(0, 0, tableCell(metricName(m_run, info->heldoutKey)));
          m_final->setItem(0, 1, tableCell(jsonValueText(m_run.finalMetrics[info->heldoutKey]), true));
          QFont bold = m_final->font();
          bold.setBold(true);
          m_final->item(0, 0)->setFont(bold);
          m_final->item(0, 1)->setFont(bold);
        }
        const auto addRow = [this](const QString& name, const nlohmann::json& value) {
          const int row = m_final->rowCount();
          m_final->insertRow(row);
          m_final->setItem(row, 0, tableCell(name));
          const auto cell = metricCell(value);
          m_final->setItem(row, 1, tableCell(cell.text, true));
          if (!cell.tooltip.isEmpty()) m_final->item(row, 1)->setToolTip(cell.tooltip);
        };
        for (const auto& [key, value] : m_run.finalMetrics.items()) {
          if (info && key == info->heldoutKey) continue;
          // A metric by part (dtm's held-out perplexity by time slice): a row per part.
          if (value.is_object()) {
            for (const auto& [part, partValue] : value.items())
              addRow(QStringLiteral("%1, %2").arg(metricName(m_run, key), qs(part)), partValue);
            continue;
          }
          addRow(metricName(m_run, key), value);
        }
        if (m_final->rowCount() == 0) {
          m_final->insertRow(0);
          m_final->setItem(0, 0,
                           tableCell(m_run.status == core::RunStatus::Running ? tr("(the run is still going)")
                                                                              : tr("(none recorded)")));
        }
        m_final->resizeColumnToContents(1);

        const auto key = heldoutValue(m_run);
        m_keyResult->setVisible(key.has_value());
        if (key)
          m_keyResult->setText(QStringLiteral("<span style=\"font-size:large\">%1: <b>%2</b></span>")
                                   .arg(qs(m_run.heldoutName).toHtmlEscaped(), formatReal(*key, 6)));

        m_chart->setNames(qs(m_run.objectiveName), qs(m_run.heldoutName));
        // A run that starts re-estimating its hyperparameters after a burn-in changes its objective
        // there: the chart marks where and says why.
        const QVector<MetricsChart::Mark> marks = hyperparameterMarks(m_run.options);
        if (marks.size() != m_chart->marks().size() ||
            (!marks.isEmpty() && marks.front().iteration != m_chart->marks().front().iteration))
          m_chart->setMarks(marks);
        // While the run goes, the controller holds every report so far (the store lags by up to
        // half a second); afterwards the store has them all.
        if (m_controller && m_run.status == core::RunStatus::Running) {
          loaded.metrics.clear();
          for (const auto& r : m_controller->reports()) {
            if (!r.inChain()) continue;
            core::MetricRow row;
            row.iteration = r.iteration;
            row.seconds = r.seconds;
            if (std::isfinite(r.trainObjective)) row.trainObjective = r.trainObjective;
            row.heldout = r.heldout;
            loaded.metrics.push_back(row);
          }
        }
        m_chart->setRows(loaded.metrics);
        m_caption->setText(m_chart->captionHtml());
        m_curveControls->setRun(m_projectFile, m_run);
        m_metrics->setRowCount(0);
        m_metrics->horizontalHeaderItem(2)->setToolTip(qs(m_run.objectiveName));
        m_metrics->horizontalHeaderItem(3)->setToolTip(qs(m_run.heldoutName));
        for (const auto& r : loaded.metrics) appendMetricRow(r.iteration, r.seconds, r.trainObjective, r.heldout);

        showContent();
        // Every family says whether it is loading before anyone hears of the reload.
        for (auto* family : m_families) family->update(m_run, loaded.holdings);
        Q_EMIT reloaded();
        emitIfSettled();
      });
}

}  // namespace latent::ui
