// SPDX-License-Identifier: GPL-3.0-or-later
// RunView: loading the record, metrics and topic results off the GUI thread; live updates.
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
#include "ui/runs/curve_controls.hpp"
#include "ui/runs/block_matrix_page.hpp"
#include "ui/runs/block_run_data.hpp"
#include "ui/runs/factor_page.hpp"
#include "ui/runs/factor_run_data.hpp"
#include "ui/runs/gibbs_state_view.hpp"
#include "ui/runs/k_choice_view.hpp"
#include "ui/runs/membership_page.hpp"
#include "ui/runs/metrics_chart.hpp"
#include "ui/runs/option_form.hpp"
#include "ui/runs/topic_document_view.hpp"
#include "ui/runs/topic_run_data.hpp"
#include "ui/runs/topic_table_view.hpp"
#include "ui/util/background.hpp"
#include "ui/util/format.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/table_style.hpp"
#include "ui/util/figure_export.hpp"
#include "ui/util/table_export.hpp"

namespace latent::ui {
namespace {

struct Loaded {
  core::RunRecord run;
  std::vector<core::MetricRow> metrics;
  bool hasTopicWord = false;  // a corpus run with a topic-word result (final or snapshot)
  bool hasItemFactors = false;  // a ratings run with item factors (final or snapshot)
  bool isGraph = false;
  bool hasBlocks = false;  // a graph run with memberships and a block matrix (final or snapshot)
  QString error;
};

QTableWidgetItem* cell(const QString& text, bool number = false) {
  auto* item = new QTableWidgetItem(text);
  if (number) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  return item;
}

QString jsonValueText(const nlohmann::json& v) {
  if (v.is_number_integer()) return formatCount(v.get<std::int64_t>());
  if (v.is_number()) return formatCompact(v.get<double>(), 6);
  if (v.is_string()) return qs(v.get<std::string>());
  if (v.is_boolean()) return v.get<bool>() ? QObject::tr("yes") : QObject::tr("no");
  return qs(v.dump());
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
  m_optionsLabel = new QLabel(page);
  m_optionsLabel->setWordWrap(true);
  m_optionsLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_again = new QPushButton(tr("Run Again with Changes"), page);
  connect(m_again, &QPushButton::clicked, this, [this] { Q_EMIT rerunRequested(m_runId); });
  auto* titleRow = new QHBoxLayout;
  titleRow->addWidget(m_title, 1);
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

  // A topic model's results get pages of their own once the run has them.
  m_topicTable = new TopicTableView(page);
  m_documents = new TopicDocumentView(page);
  m_topicTable->hide();
  m_documents->hide();
  connect(m_topicTable, &TopicTableView::labelsChanged, m_documents, &TopicDocumentView::setLabels);

  m_pages = new QTabWidget(page);
  m_pages->setDocumentMode(true);
  m_pages->setTabBarAutoHide(true);
  m_pages->addTab(m_training, tr("Training"));

  auto* layout = new QVBoxLayout(page);
  layout->setContentsMargins(10, 8, 10, 8);
  layout->addLayout(titleRow);
  layout->addWidget(m_facts);
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
  return isLoaded() && !m_reloadPending && !m_topicsPending && !m_factorsPending && !m_blocksPending && !m_kPending && !m_gibbsPending &&
         m_run.status != core::RunStatus::Running;
}

QUndoStack* RunView::undoStack() const { return m_topicTable->undoStack(); }

QString RunView::headerText() const { return m_title->text() + QLatin1Char('\n') + m_facts->text() + QLatin1Char('\n') + m_optionsLabel->text(); }

void RunView::attach(JobController* controller) {
  m_controller = controller;
  if (!controller) return;
  connect(controller, &JobController::report, this, [this](const core::IterationReport& r) {
    if (m_run.status != core::RunStatus::Running) return;  // the stored metrics are shown
    if (!r.inChain()) return;  // the progress row shows those; they are not in the series
    m_chart->append(r);
    appendMetricRow(r.iteration, r.seconds, std::isfinite(r.trainObjective) ? std::optional<double>(r.trainObjective) : std::nullopt,
                    r.heldout);
    m_dirty = true;
  });
  connect(controller, &JobController::ended, this, [this] {
    m_frame.stop();
    reload();
  });
  if (controller->state() != JobController::State::Ended) m_frame.start();
}

void RunView::flushLive() {
  if (!m_dirty) return;
  m_dirty = false;
  m_chart->redraw();
  m_metrics->scrollToBottom();
}

void RunView::appendMetricRow(qint64 iteration, double seconds, std::optional<double> objective, std::optional<double> heldout) {
  const int row = m_metrics->rowCount();
  m_metrics->insertRow(row);
  m_metrics->setItem(row, 0, cell(QString::number(iteration), true));
  m_metrics->setItem(row, 1, cell(QLocale().toString(seconds, 'f', 3), true));
  m_metrics->setItem(row, 2, cell(objective ? formatReal(*objective, 6) : QString(), true));
  m_metrics->setItem(row, 3, cell(heldout ? formatReal(*heldout, 6) : QString(), true));
}

void RunView::reload() {
  const int generation = ++m_generation;
  m_reloadPending = true;
  if (!isLoaded()) showLoading();
  runInBackground(
      this,
      [file = m_projectFile, id = m_runId] {
        Loaded out;
        try {
          core::Project project(file, core::Project::Access::ReadOnly);
          out.run = core::loadRun(project, id);
          out.metrics = core::loadMetrics(project, id);
          if (project.dataset(out.run.datasetId).kind == core::DataKind::Corpus)
            for (const auto& [name, iteration] : core::listMatrices(project, id))
              if (name == "topic_word") out.hasTopicWord = true;
          if (project.dataset(out.run.datasetId).kind == core::DataKind::Ratings)
            for (const auto& [name, iteration] : core::listMatrices(project, id))
              if (name == core::kItemFactors) out.hasItemFactors = true;
          if (project.dataset(out.run.datasetId).kind == core::DataKind::Graph) {
            out.isGraph = true;
            out.hasBlocks = hasBlockResults(project, id);
          }
        } catch (const std::exception& e) {
          out.error = qs(e.what());
        }
        return out;
      },
      [this, generation](Loaded loaded) {
        if (generation != m_generation) return;
        m_reloadPending = false;
        if (!loaded.error.isEmpty()) {
          showError(tr("Could not read run #%1: %2").arg(m_runId).arg(loaded.error));
          return;
        }
        m_run = loaded.run;
        const auto* info = findModel(m_run.model);
        m_title->setText(tr("Run #%1 — %2").arg(m_run.id).arg(info ? qs(info->title) : qs(m_run.model)));

        QStringList facts;
        auto fact = [&facts](const QString& name, const QString& value) {
          facts << QStringLiteral("<span style=\"color:gray\">%1</span>&nbsp;%2").arg(name.toHtmlEscaped(), value.toHtmlEscaped());
        };
        fact(tr("dataset"), qs(m_run.datasetName));
        fact(tr("status"), statusText(m_run.status));
        fact(tr("seed"), QString::number(m_run.seed));
        fact(tr("threads"), QString::number(m_run.threads));
        fact(tr("held-out fraction"), m_run.heldout > 0 ? formatReal(m_run.heldout, 3) : tr("none"));
        if (m_run.seconds) fact(tr("time"), formatSeconds(*m_run.seconds));
        if (m_run.iterations) fact(tr("iterations"), formatCount(*m_run.iterations));
        fact(tr("started"), qs(m_run.createdAt));
        QString factsHtml = facts.join(QStringLiteral(" &nbsp;·&nbsp; "));
        if (!m_run.message.empty())
          factsHtml += QStringLiteral("<br><span style=\"color:%1\">%2</span>")
                           .arg(m_run.status == core::RunStatus::Failed ? QStringLiteral("#d0443a") : QStringLiteral("gray"),
                                qs(m_run.message).toHtmlEscaped());
        m_facts->setText(factsHtml);

        QStringList options;
        for (const auto& [key, value] : m_run.options.items()) options << QStringLiteral("%1 = %2").arg(optionLabel(key), jsonValueText(value));
        m_optionsLabel->setText(tr("Options: %1").arg(options.isEmpty() ? tr("none") : options.join(QStringLiteral(", "))));
        m_again->setEnabled(m_run.status != core::RunStatus::Running);

        // Final metrics, the held-out protocol named wherever the held-out number appears.
        m_final->setRowCount(0);
        if (info && info->heldoutKey.size() && m_run.finalMetrics.contains(info->heldoutKey)) {
          m_final->insertRow(0);
          m_final->setItem(0, 0, cell(metricName(m_run, info->heldoutKey)));
          m_final->setItem(0, 1, cell(jsonValueText(m_run.finalMetrics[info->heldoutKey]), true));
          QFont bold = m_final->font();
          bold.setBold(true);
          m_final->item(0, 0)->setFont(bold);
          m_final->item(0, 1)->setFont(bold);
        }
        for (const auto& [key, value] : m_run.finalMetrics.items()) {
          if (info && key == info->heldoutKey) continue;
          const int row = m_final->rowCount();
          m_final->insertRow(row);
          m_final->setItem(row, 0, cell(metricName(m_run, key)));
          m_final->setItem(row, 1, cell(jsonValueText(value), true));
        }
        if (m_final->rowCount() == 0) {
          m_final->insertRow(0);
          m_final->setItem(0, 0, cell(m_run.status == core::RunStatus::Running ? tr("(the run is still going)") : tr("(none recorded)")));
        }
        m_final->resizeColumnToContents(1);

        const auto key = heldoutValue(m_run);
        m_keyResult->setVisible(key.has_value());
        if (key)
          m_keyResult->setText(QStringLiteral("<span style=\"font-size:large\">%1: <b>%2</b></span>")
                                   .arg(qs(m_run.heldoutName).toHtmlEscaped(), formatReal(*key, 6)));

        m_chart->setNames(qs(m_run.objectiveName), qs(m_run.heldoutName));
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

        // The topic pages once the run has ended: during the run the matrices are snapshots
        // and the assignments are not written yet.
        m_topicsPending = loaded.hasTopicWord && m_run.status != core::RunStatus::Running;
        m_factorsPending = loaded.hasItemFactors && m_run.status != core::RunStatus::Running;
        m_blocksPending = loaded.hasBlocks && m_run.status != core::RunStatus::Running;
        showContent();
        Q_EMIT reloaded();
        if (m_topicsPending) loadTopics();
        if (m_factorsPending) loadFactors();
        if (m_run.status == core::RunStatus::Finished) loadChoiceOfK();
        if (m_run.status == core::RunStatus::Finished && m_run.model == "lda-gibbs" && m_run.heldout <= 0) loadGibbsState();
        if (m_blocksPending) loadBlocks();
        else if (loaded.isGraph && m_run.status == core::RunStatus::Running) followBlocks();
        if (isSettled()) Q_EMIT settled();
      });
}

void RunView::loadTopics() {
  const int generation = ++m_topicGeneration;
  m_topicsPending = true;
  runInBackground(
      this, [file = m_projectFile, id = m_runId] { return loadTopicRun(file, id); },
      [this, generation](TopicRunLoad loaded) {
        if (generation != m_topicGeneration) return;
        m_topicsPending = false;
        if (!loaded.error.isEmpty()) {
          m_facts->setText(m_facts->text() + QStringLiteral("<br><span style=\"color:#d0443a\">%1</span>")
                                                  .arg(tr("The topics could not be read: %1").arg(loaded.error).toHtmlEscaped()));
        } else if (loaded.data) {
          const bool several = loaded.data->topicCount() > 1;
          const bool documents = loaded.data->hasDocTopic() || loaded.data->hasAssignments();
          m_topicTable->setData(m_projectFile, loaded.data);
          m_documents->setData(m_projectFile, documents ? loaded.data : nullptr);
          const bool first = !m_topicsShown;
          if (m_pages->indexOf(m_topicTable) < 0) m_pages->insertTab(0, m_topicTable, QString());
          m_pages->setTabText(m_pages->indexOf(m_topicTable), several ? tr("Topics") : tr("Words"));
          if (documents && m_pages->indexOf(m_documents) < 0) m_pages->insertTab(1, m_documents, tr("Documents"));
          if (!documents && m_pages->indexOf(m_documents) >= 0) m_pages->removeTab(m_pages->indexOf(m_documents));
          m_topicsShown = true;
          // A finished run is read for its results: the topics come first.
          if (first) m_pages->setCurrentWidget(m_topicTable);
        }
        if (isSettled()) Q_EMIT settled();
      });
}

// The "Choosing K" page, when other finished runs differ from this one only in K (a sweep, or runs
// made again with another K): read in the background, shown after the Training page.
void RunView::loadChoiceOfK() {
  const auto* info = findModel(m_run.model);
  const bool hasK = info && std::any_of(info->options.begin(), info->options.end(), [](const auto& o) { return o.name == "k"; });
  if (!hasK || info->heldoutKey.empty() || m_run.heldout <= 0) return;
  const int generation = ++m_kGeneration;
  m_kPending = true;
  runInBackground(
      this,
      [file = m_projectFile, id = m_runId]() -> std::optional<KChoiceData> {
        try {
          return loadKChoice(file, id);
        } catch (const std::exception&) {
          return std::nullopt;  // the page is an extra: without it the run's own pages still show
        }
      },
      [this, generation](std::optional<KChoiceData> data) {
        if (generation != m_kGeneration) return;
        m_kPending = false;
        if (data && data->distinctK >= 2) {
          if (!m_kChoice) m_kChoice = new KChoiceView(m_pages);
          m_kChoice->setData(std::move(*data));
          if (m_pages->indexOf(m_kChoice) < 0) m_pages->insertTab(m_pages->indexOf(m_training) + 1, m_kChoice, tr("Choosing K"));
        } else if (m_kChoice && m_pages->indexOf(m_kChoice) >= 0) {
          m_pages->removeTab(m_pages->indexOf(m_kChoice));
        }
        if (isSettled()) Q_EMIT settled();
      });
}

// The Gibbs sampler page (000 Fig. 27.8), when the run kept its random start (small corpora).
void RunView::loadGibbsState() {
  const int generation = ++m_gibbsGeneration;
  m_gibbsPending = true;
  runInBackground(
      this,
      [file = m_projectFile, id = m_runId]() -> std::shared_ptr<const GibbsStateData> {
        try {
          return latent::ui::loadGibbsState(file, id);
        } catch (const std::exception&) {
          return nullptr;  // an extra page: without it the run's other pages still show
        }
      },
      [this, generation](std::shared_ptr<const GibbsStateData> data) {
        if (generation != m_gibbsGeneration) return;
        m_gibbsPending = false;
        if (data) {
          if (!m_gibbs) {
            m_gibbs = new GibbsStateView(m_pages);
            enableFigureExport(m_gibbs, [this] { return tr("run-%1-gibbs-sampler").arg(m_runId); });
          }
          m_gibbs->setData(std::move(data));
          if (m_pages->indexOf(m_gibbs) < 0) m_pages->insertTab(m_pages->indexOf(m_training), m_gibbs, tr("Gibbs sampler"));
        }
        if (isSettled()) Q_EMIT settled();
      });
}

// The factor page once a pmf run has ended (a stopped or failed run shows its latest snapshot).
void RunView::loadFactors() {
  const int generation = ++m_factorGeneration;
  m_factorsPending = true;
  runInBackground(
      this, [file = m_projectFile, id = m_runId] { return loadFactorRun(file, id); },
      [this, generation](FactorRunLoad loaded) {
        if (generation != m_factorGeneration) return;
        m_factorsPending = false;
        if (!loaded.error.isEmpty()) {
          m_facts->setText(m_facts->text() + QStringLiteral("<br><span style=\"color:#d0443a\">%1</span>")
                                                  .arg(tr("The factors could not be read: %1").arg(loaded.error).toHtmlEscaped()));
        } else if (loaded.data) {
          const bool first = !m_factors;
          if (first) m_factors = new FactorPage(m_pages);
          m_factors->setData(loaded.data);
          if (m_pages->indexOf(m_factors) < 0) m_pages->insertTab(0, m_factors, tr("Factors"));
          // A finished run is read for its results: the factors come first.
          if (first) m_pages->setCurrentWidget(m_factors);
        }
        if (isSettled()) Q_EMIT settled();
      });
}

// The block-model pages once a graph run has ended (a stopped run shows its final matrices, an
// interrupted one its latest snapshot): Memberships first for mmsb, Blocks first otherwise.
void RunView::loadBlocks() {
  const int generation = ++m_blockGeneration;
  m_blocksPending = true;
  runInBackground(
      this, [file = m_projectFile, id = m_runId] { return loadBlockRun(file, id); },
      [this, generation](BlockRunLoad loaded) {
        if (generation != m_blockGeneration) return;
        m_blocksPending = false;
        if (!loaded.error.isEmpty()) {
          m_facts->setText(m_facts->text() + QStringLiteral("<br><span style=\"color:#d0443a\">%1</span>")
                                                  .arg(tr("The blocks could not be read: %1").arg(loaded.error)
                                                           .toHtmlEscaped()));
        } else if (loaded.data) {
          const bool first = !m_blockPage;
          if (first) m_blockPage = new BlockMatrixPage(m_pages);
          if (!m_memberships) m_memberships = new MembershipPage(m_pages);
          m_blockPage->setData(loaded.data);
          m_memberships->setData(loaded.data);
          if (m_pages->indexOf(m_blockPage) < 0) m_pages->insertTab(0, m_blockPage, tr("Blocks"));
          if (m_pages->indexOf(m_memberships) < 0) m_pages->insertTab(1, m_memberships, tr("Memberships"));
          QWidget* opening = loaded.data->run.model == "mmsb" ? static_cast<QWidget*>(m_memberships) : m_blockPage;
          if (first) m_pages->setCurrentWidget(opening);
        }
        if (isSettled()) Q_EMIT settled();
      });
}

// While a graph run goes, its Memberships page follows the latest snapshot; the page appears
// with the first one.
void RunView::followBlocks() {
  if (!m_controller) return;
  if (!m_memberships) {
    m_memberships = new MembershipPage(m_pages);
    m_memberships->hide();
    connect(m_memberships, &MembershipPage::snapshotShown, this, [this] {
      if (m_pages->indexOf(m_memberships) < 0) m_pages->insertTab(0, m_memberships, tr("Memberships"));
    });
  }
  if (!m_memberships->isFollowing()) m_memberships->follow(m_projectFile, m_runId, m_controller);
}

}  // namespace latent::ui
