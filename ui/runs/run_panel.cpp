// SPDX-License-Identifier: GPL-3.0-or-later
// RunPanel: the form (from the model catalogue), validation, starting and stopping, progress rows.
#include "ui/runs/run_panel.hpp"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QThread>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>

#include "core/jobs/fit_job.hpp"
#include "core/store/project.hpp"
#include "core/store/run_store.hpp"
#include "ui/jobs/job_controller.hpp"
#include "ui/jobs/project_session.hpp"
#include "ui/jobs/run_manager.hpp"
#include "ui/runs/option_form.hpp"
#include "ui/runs/run_progress_row.hpp"
#include "ui/util/format.hpp"
#include "ui/util/preferences.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/wheel_guard.hpp"

namespace latent::ui {
namespace {

constexpr int kKindRole = Qt::UserRole + 1;
constexpr int kNameRole = Qt::UserRole + 2;
// How many of a reopened project's runs the panel lists (the project tree has them all).
constexpr std::size_t kEarlierRunsShown = 6;

QLabel* greyNote(const QString& text, QWidget* parent) {
  auto* label = new QLabel(text, parent);
  label->setWordWrap(true);
  label->setForegroundRole(QPalette::PlaceholderText);
  QFont small = label->font();
  small.setPointSizeF(small.pointSizeF() * 0.9);
  label->setFont(small);
  return label;
}

// The model a new run on this kind of data starts from: the workhorse of its family, not the
// baseline the catalogue lists first.
const char* preferredModel(core::DataKind kind) {
  switch (kind) {
    case core::DataKind::Corpus:
      return "lda-gibbs";
    case core::DataKind::Graph:
      return "sbm";
    case core::DataKind::Ratings:
      return "pmf";
    case core::DataKind::Table:
      return "rbm-gaussian";
  }
  return "";
}

}  // namespace

RunPanel::RunPanel(RunManager* runs, QWidget* parent) : QWidget(parent), m_runs(runs) {
  auto* content = new QWidget;

  // --- What to fit.
  auto* what = new QGroupBox(tr("New run"), content);
  m_dataset = new QComboBox(what);
  m_model = new QComboBox(what);
  m_dataset->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  m_model->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  m_dataset->setMinimumContentsLength(12);
  m_model->setMinimumContentsLength(12);
  m_description = new QLabel(what);
  m_description->setWordWrap(true);
  m_description->setMinimumHeight(m_description->fontMetrics().height() * 3);
  m_description->setAlignment(Qt::AlignLeft | Qt::AlignTop);
  auto* whatForm = new QFormLayout(what);
  whatForm->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  whatForm->addRow(tr("Dataset"), m_dataset);
  whatForm->addRow(tr("Model"), m_model);
  whatForm->addRow(m_description);

  // --- The model's options, from its OptionSpec list.
  auto* optionsBox = new QGroupBox(tr("Model options"), content);
  m_optionsBox = optionsBox;
  m_options = new OptionForm(optionsBox);
  auto* optionsLayout = new QVBoxLayout(optionsBox);
  optionsLayout->addWidget(m_options);

  // --- Settings every run has.
  auto* settings = new QGroupBox(tr("Run settings"), content);
  m_seed = new QSpinBox(settings);
  m_seed->setRange(0, INT_MAX);
  m_seed->setToolTip(tr("Same seed, same threads, same data: the same numbers."));
  m_threads = new QSpinBox(settings);
  m_threads->setRange(1, 1024);
  m_threads->setToolTip(tr("Worker threads for this run; one core is left for the window by default."));
  m_heldout = new QDoubleSpinBox(settings);
  m_heldout->setRange(0.0, 0.9);
  m_heldout->setDecimals(2);
  m_heldout->setSingleStep(0.05);
  m_heldout->setValue(0.1);
  m_heldout->setToolTip(
      tr("Fraction of documents (or dyads, or ratings) kept aside, chosen with the seed, to "
         "score the model on data it did not see."));
  m_evalEvery = new QSpinBox(settings);
  m_evalEvery->setRange(1, 1000000);
  m_evalEvery->setValue(10);
  m_evalEvery->setToolTip(tr("Compute the held-out metric every this many iterations (and at the end)."));
  for (QWidget* field :
       std::initializer_list<QWidget*>{m_dataset, m_model, m_seed, m_threads, m_heldout, m_evalEvery}) {
    guardWheel(field);
    field->setMinimumWidth(kOptionFieldMinimumWidth);
  }
  auto* settingsForm = new QFormLayout(settings);
  settingsForm->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  settingsForm->addRow(tr("Seed"), m_seed);
  settingsForm->addRow(tr("Threads"), m_threads);
  applyPreferences(loadPreferences());
  settingsForm->addRow(tr("Held-out fraction"), m_heldout);
  settingsForm->addRow(tr("Evaluate every"), m_evalEvery);
  m_evalEvery->setSuffix(tr(" iterations"));

  // --- Buttons and the inline error.
  m_start = new QPushButton(themedIcon("start"), tr("Start"), content);
  m_start->setDefault(true);
  m_stop = new QPushButton(themedIcon("stop"), tr("Stop"), content);
  m_again = new QPushButton(tr("Run Again with Changes"), content);
  m_again->setToolTip(tr("Fill the form from the selected run, to change something and run it again."));
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(m_start);
  buttons->addWidget(m_stop);
  buttons->addStretch(1);
  m_error = new QLabel(content);
  m_error->setWordWrap(true);
  m_error->setStyleSheet(QStringLiteral("color: #d0443a;"));
  m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_error->hide();

  // --- Runs in progress and recently ended.
  auto* runsBox = new QGroupBox(tr("Runs"), content);
  m_rowLayout = new QVBoxLayout(runsBox);
  m_rowLayout->setSpacing(6);
  m_noRuns =
      greyNote(tr("No runs in this session yet. Runs go on in the background; several can run at once."), runsBox);
  m_rowLayout->addWidget(m_noRuns);
  // The project's latest runs from before this session, so a reopened project does not look empty.
  m_earlier = new QWidget(runsBox);
  m_earlierLayout = new QVBoxLayout(m_earlier);
  m_earlierLayout->setContentsMargins(0, 0, 0, 0);
  m_earlierLayout->setSpacing(0);
  m_earlier->hide();
  m_rowLayout->addWidget(m_earlier);

  auto* layout = new QVBoxLayout(content);
  layout->setContentsMargins(8, 8, 8, 8);
  layout->addWidget(what);
  layout->addWidget(optionsBox);
  layout->addWidget(settings);
  layout->addLayout(buttons);
  layout->addWidget(m_again, 0, Qt::AlignLeft);
  layout->addWidget(m_error);
  layout->addWidget(runsBox);
  layout->addStretch(1);

  auto* scroll = m_scroll = new QScrollArea(this);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  scroll->setWidget(content);
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  outer->addWidget(scroll);

  connect(m_dataset, &QComboBox::currentIndexChanged, this, &RunPanel::onDatasetChanged);
  connect(m_model, &QComboBox::currentIndexChanged, this, &RunPanel::onModelChanged);
  connect(m_start, &QPushButton::clicked, this, [this] { start(); });
  connect(m_stop, &QPushButton::clicked, this, &RunPanel::stopCurrent);
  connect(m_again, &QPushButton::clicked, this, [this] {
    if (m_selectedRun == 0 || !m_session) return;
    m_again->setEnabled(false);  // until the run's settings are back
    m_session->read(
        this, [runId = m_selectedRun](core::Project& project) { return core::loadRun(project, runId); },
        [this](SessionResult<core::RunRecord> result) {
          updateButtons();
          if (result.ok()) {
            fillFromRun(*result.value);
            scrollToForm();
          } else
            showError(result.error);
        });
  });
  connect(m_runs, &RunManager::started, this, &RunPanel::addRow);
  m_frame.setInterval(33);
  connect(&m_frame, &QTimer::timeout, this, &RunPanel::tick);
  setProject({});
}

void RunPanel::setProject(ProjectSession* session) {
  // The lines of the previous project's runs go (its runs were stopped when it closed).
  for (auto* row : m_rows) delete row;
  m_rows.clear();
  m_noRuns->show();
  m_session = session;
  m_projectFile = session ? session->file() : std::filesystem::path();
  m_selectedRun = 0;
  showError({});
  refreshDatasets();
  fillEarlierRuns({});
  if (!m_session) return;
  m_session->read(
      this, [](core::Project& project) { return core::listRuns(project); },
      [this, file = m_projectFile](SessionResult<std::vector<core::RunRecord>> result) {
        if (file == m_projectFile && result.ok()) fillEarlierRuns(*result.value);
      });
}

void RunPanel::fillEarlierRuns(std::vector<core::RunRecord> runs) {
  while (QLayoutItem* item = m_earlierLayout->takeAt(0)) {
    delete item->widget();
    delete item;
  }
  std::sort(runs.begin(), runs.end(), [](const auto& a, const auto& b) { return a.id > b.id; });
  if (runs.size() > kEarlierRunsShown) runs.resize(kEarlierRunsShown);
  if (!runs.empty()) m_earlierLayout->addWidget(greyNote(tr("Latest runs in this project:"), m_earlier));
  for (const auto& run : runs) {
    auto* button = new QPushButton(QStringLiteral("#%1 %2 on “%3” · %4")
                                       .arg(run.id)
                                       .arg(qs(run.model), qs(run.datasetName), statusText(run.status)),
                                   m_earlier);
    button->setObjectName(QStringLiteral("earlierRun"));
    button->setProperty("runId", static_cast<qlonglong>(run.id));
    button->setFlat(true);
    button->setStyleSheet(QStringLiteral("text-align: left; padding: 2px 4px;"));
    button->setToolTip(tr("Open run #%1").arg(run.id));
    connect(button, &QPushButton::clicked, this, [this, id = run.id] { Q_EMIT openRunRequested(id); });
    m_earlierLayout->addWidget(button);
  }
  m_earlier->setVisible(!runs.empty());
  m_noRuns->setVisible(m_rows.isEmpty() && runs.empty());
}

void RunPanel::refreshDatasets() {
  const int generation = ++m_generation;
  if (!m_session) {
    fillDatasets({});
    return;
  }
  m_session->read(
      this, [](core::Project& project) { return project.datasets(); },
      [this, generation](SessionResult<std::vector<core::DatasetInfo>> result) {
        if (generation != m_generation) return;  // a later refresh or another project
        if (!result.ok()) showError(result.error);
        fillDatasets(result.ok() ? *result.value : std::vector<core::DatasetInfo>{});
        Q_EMIT datasetsRefreshed();
      });
}

void RunPanel::fillDatasets(const std::vector<core::DatasetInfo>& datasets) {
  const qint64 previous = m_dataset->currentData().toLongLong();
  {
    const QSignalBlocker block(m_dataset);
    m_dataset->clear();
    for (const auto& d : datasets) {
      m_dataset->addItem(kindIcon(d.kind), qs(d.name), static_cast<qlonglong>(d.id));
      m_dataset->setItemData(m_dataset->count() - 1, static_cast<int>(d.kind), kKindRole);
      m_dataset->setItemData(m_dataset->count() - 1, qs(d.name), kNameRole);
      m_dataset->setItemData(m_dataset->count() - 1, datasetSummaryText(d), Qt::ToolTipRole);
    }
    if (datasets.empty())
      m_dataset->setPlaceholderText(m_projectFile.empty() ? tr("open a project first") : tr("import a dataset first"));
    int index = m_dataset->findData(static_cast<qlonglong>(previous));
    // Otherwise the first dataset some model of the catalogue can fit.
    for (int i = 0; index < 0 && i < m_dataset->count(); ++i) {
      const auto kind = static_cast<core::DataKind>(m_dataset->itemData(i, kKindRole).toInt());
      for (const auto* info : core::modelCatalogue())
        if (info->fits(kind)) index = i;
    }
    m_dataset->setCurrentIndex(index >= 0 ? index : (datasets.empty() ? -1 : 0));
  }
  onDatasetChanged();
}

bool RunPanel::selectDataset(qint64 datasetId) {
  const int index = m_dataset->findData(static_cast<qlonglong>(datasetId));
  if (index < 0) return false;
  m_dataset->setCurrentIndex(index);
  return true;
}

bool RunPanel::selectModel(const QString& name) {
  const int index = m_model->findData(name);
  if (index < 0) return false;
  m_model->setCurrentIndex(index);
  return true;
}

void RunPanel::onDatasetChanged() {
  // Only models that fit this kind of data, straight from the catalogue.
  const QString previous = m_model->currentData().toString();
  const bool haveDataset = m_dataset->currentIndex() >= 0;
  const auto kind = static_cast<core::DataKind>(m_dataset->currentData(kKindRole).toInt());
  {
    const QSignalBlocker block(m_model);
    m_model->clear();
    if (haveDataset)
      for (const auto* info : core::modelCatalogue())
        if (info->fits(kind)) {
          m_model->addItem(qs(info->title), qs(info->name));
          m_model->setItemData(m_model->count() - 1, qs(info->description), Qt::ToolTipRole);
        }
    m_model->setPlaceholderText(haveDataset ? tr("no model for %1 data yet").arg(kindNoun(kind)) : QString());
    int index = m_model->findData(previous);
    if (index < 0) index = m_model->findData(m_lastModel.value(static_cast<int>(kind)));
    if (index < 0) index = m_model->findData(QString::fromLatin1(preferredModel(kind)));
    m_model->setCurrentIndex(index >= 0 ? index : (m_model->count() > 0 ? 0 : -1));
  }
  onModelChanged();
}

void RunPanel::onModelChanged() {
  const auto* info = m_model->currentIndex() >= 0 ? findModel(utf8(m_model->currentData().toString())) : nullptr;
  m_options->setModel(info);
  m_optionsBox->setVisible(info != nullptr);
  if (info && m_dataset->currentIndex() >= 0)
    m_lastModel.insert(m_dataset->currentData(kKindRole).toInt(), m_model->currentData().toString());
  if (info) {
    // The first sentence in the panel, the whole description on hover: a long one pushed the
    // options and Start down.
    const QString description = qs(info->description);
    const qsizetype end = description.indexOf(QLatin1String(". "));
    m_description->setText(end > 0 ? description.left(end + 1) : description);
    m_description->setToolTip(description);
  } else if (m_dataset->currentIndex() >= 0) {
    const auto kind = static_cast<core::DataKind>(m_dataset->currentData(kKindRole).toInt());
    m_description->setToolTip({});
    m_description->setText(tr("This build has no model for %1 data yet; the models of the catalogue that fit it will "
                              "appear here.")
                               .arg(kindNoun(kind)));
  } else {
    m_description->setText(m_projectFile.empty() ? tr("Open or create a project to fit models.")
                                                 : tr("Import a dataset to fit models to it."));
  }
  updateButtons();
}

void RunPanel::scrollToForm() { m_scroll->verticalScrollBar()->setValue(0); }

void RunPanel::setSelectedRun(qint64 runId) {
  m_selectedRun = runId;
  updateButtons();
}

void RunPanel::applyPreferences(const Preferences& preferences) {
  m_seed->setValue(static_cast<int>(std::min<std::uint32_t>(preferences.seed, INT_MAX)));
  m_threads->setValue(preferredThreads(preferences));
}

void RunPanel::fillFromRun(const core::RunRecord& run) {
  if (!selectDataset(run.datasetId)) {
    showError(tr("The dataset of run #%1 is no longer in the project.").arg(run.id));
    return;
  }
  if (!selectModel(qs(run.model))) {
    showError(tr("This build has no model named %1.").arg(qs(run.model)));
    return;
  }
  m_options->setValues(run.options);
  m_seed->setValue(static_cast<int>(std::min<std::uint64_t>(run.seed, INT_MAX)));
  m_threads->setValue(run.threads);
  m_heldout->setValue(run.heldout);
  showError({});
}

JobController* RunPanel::start() {
  showError({});
  if (m_projectFile.empty() || m_dataset->currentIndex() < 0 || m_model->currentIndex() < 0) {
    showError(tr("Choose a dataset and a model first."));
    return nullptr;
  }
  core::RunRequest request;
  request.model = utf8(m_model->currentData().toString());
  request.dataset = utf8(m_dataset->currentData(kNameRole).toString());
  request.options = m_options->values();
  request.seed = static_cast<std::uint64_t>(m_seed->value());
  request.threads = m_threads->value();
  request.heldout = m_heldout->value();
  request.evalEvery = m_evalEvery->value();
  // runFit validates the request against the project on the run's worker.
  auto* controller = m_runs->start(m_projectFile, request);
  connect(controller, &JobController::ended, this, [this, controller] {
    if (!controller->hasRun()) showError(controller->error());
  });
  return controller;
}

void RunPanel::stopCurrent() {
  JobController* target = nullptr;
  for (auto* c : m_runs->controllers()) {
    if (c->state() == JobController::State::Ended) continue;
    if (m_selectedRun != 0 && c->runId() == m_selectedRun) {
      target = c;
      break;
    }
    target = c;  // the most recently started one wins otherwise
  }
  if (target) target->requestStop();
  tick();
}

void RunPanel::addRow(JobController* controller) {
  auto* row = new RunProgressRow(controller, this);
  m_rows.push_back(row);
  m_rowLayout->insertWidget(0, row);  // newest first
  m_noRuns->hide();
  connect(row, &RunProgressRow::openRequested, this, &RunPanel::openRunRequested);
  connect(row, &RunProgressRow::dismissRequested, this, [this, row] {
    m_rows.removeAll(row);
    row->deleteLater();
    m_noRuns->setVisible(m_rows.isEmpty() && m_earlier->isHidden());
  });
  // The row is the context: a row removed with its project no longer hears from the run.
  connect(controller, &JobController::ended, row, [this, row] {
    row->refresh();
    updateButtons();
  });
  connect(controller, &JobController::created, row, &RunProgressRow::refresh);
  if (!m_frame.isActive()) m_frame.start();
  updateButtons();
}

void RunPanel::tick() {
  bool active = false;
  for (auto* row : m_rows) {
    if (row->controller()->state() != JobController::State::Ended) {
      row->refresh();
      active = true;
    }
  }
  if (!active) m_frame.stop();
  updateButtons();
}

void RunPanel::updateButtons() {
  const bool ready = !m_projectFile.empty() && m_dataset->currentIndex() >= 0 && m_model->currentIndex() >= 0;
  m_start->setEnabled(ready);
  m_stop->setEnabled(m_runs->activeCount() > 0);
  bool selectedEnded = m_selectedRun != 0;
  if (auto* c = m_runs->controllerForRun(m_selectedRun)) selectedEnded = c->state() == JobController::State::Ended;
  m_again->setEnabled(!m_projectFile.empty() && selectedEnded);
}

void RunPanel::showError(const QString& message) {
  m_error->setText(message);
  m_error->setVisible(!message.isEmpty());
}

QString RunPanel::errorText() const { return m_error->isHidden() ? QString() : m_error->text(); }

}  // namespace latent::ui
