// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow: the tabs, imports, the end of runs, and editing datasets from the tree.
#include <QComboBox>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QDockWidget>
#include <QFileInfo>
#include <QInputDialog>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QUndoGroup>
#include <QUrl>

#include <algorithm>

#include "jobs/samples.hpp"
#include "store/run_store.hpp"
#include "ui/browsers/corpus_browser.hpp"
#include "ui/browsers/graph_browser.hpp"
#include "ui/browsers/ratings_browser.hpp"
#include "ui/import/dropped_file.hpp"
#include "ui/import/import_dialog.hpp"
#include "ui/jobs/import_task.hpp"
#include "ui/jobs/run_manager.hpp"
#include "ui/main_window.hpp"
#include "ui/runs/run_panel.hpp"
#include "ui/runs/run_view.hpp"
#include "ui/util/format.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/widgets/project_tree.hpp"

namespace latent::ui {

// --- Tabs -------------------------------------------------------------------------------------

int MainWindow::findTab(const QString& key) const {
  for (int i = 0; i < m_tabs->count(); ++i)
    if (auto* page = qobject_cast<TabPage*>(m_tabs->widget(i)); page && page->key() == key) return i;
  return -1;
}

void MainWindow::closeTab(int index) {
  if (index < 0 || index >= m_tabs->count()) return;
  QWidget* page = m_tabs->widget(index);
  m_tabs->removeTab(index);
  page->deleteLater();
  updateActions();
}

TabPage* MainWindow::openDataset(qint64 datasetId) {
  if (!hasProject()) return nullptr;
  const QString key = QStringLiteral("dataset:%1").arg(datasetId);
  if (const int index = findTab(key); index >= 0) {
    m_tabs->setCurrentIndex(index);
    return qobject_cast<TabPage*>(m_tabs->widget(index));
  }
  core::DatasetInfo info;
  try {
    core::Project project(m_projectFile, core::Project::Access::ReadOnly);
    info = project.dataset(datasetId);
  } catch (const std::exception& e) {
    log(tr("Cannot open dataset %1: %2").arg(datasetId).arg(qs(e.what())), LogView::Level::Error);
    return nullptr;
  }
  TabPage* page = nullptr;
  switch (info.kind) {
    case core::DataKind::Corpus: page = new CorpusBrowser(m_projectFile, datasetId, m_tabs); break;
    case core::DataKind::Graph: page = new GraphBrowser(m_projectFile, datasetId, m_tabs); break;
    case core::DataKind::Ratings: page = new RatingsBrowser(m_projectFile, datasetId, m_tabs); break;
  }
  const int index = m_tabs->addTab(page, kindIcon(info.kind), qs(info.name));
  m_tabs->setTabToolTip(index, datasetSummaryText(info));
  m_tabs->setCurrentIndex(index);
  updateActions();
  return page;
}

RunView* MainWindow::openRun(qint64 runId) {
  if (!hasProject()) return nullptr;
  const QString key = QStringLiteral("run:%1").arg(runId);
  if (const int index = findTab(key); index >= 0) {
    m_tabs->setCurrentIndex(index);
    return qobject_cast<RunView*>(m_tabs->widget(index));
  }
  core::RunRecord run;
  try {
    core::Project project(m_projectFile, core::Project::Access::ReadOnly);
    run = core::loadRun(project, runId);
  } catch (const std::exception& e) {
    log(tr("Cannot open run #%1: %2").arg(runId).arg(qs(e.what())), LogView::Level::Error);
    return nullptr;
  }
  auto* view = new RunView(m_projectFile, runId, m_tabs);
  m_undoGroup->addStack(view->undoStack());
  if (auto* controller = m_runs->controllerForRun(runId); controller && controller->state() != JobController::State::Ended)
    view->attach(controller);
  connect(view, &RunView::rerunRequested, this, &MainWindow::rerun);
  const int index = m_tabs->addTab(view, themedIcon("run"), QStringLiteral("#%1 %2").arg(runId).arg(qs(run.model)));
  m_tabs->setTabToolTip(index, tr("Run #%1: %2 on %3").arg(runId).arg(qs(run.model), qs(run.datasetName)));
  m_tabs->setCurrentIndex(index);
  updateActions();
  return view;
}

void MainWindow::updateSelectedRun() {
  qint64 runId = m_tree->selectedRunId();
  if (auto* view = qobject_cast<RunView*>(m_tabs->currentWidget()); view && (runId == 0 || m_tabs->hasFocus()))
    runId = view->runId();
  m_runPanel->setSelectedRun(runId);
}

// --- Imports ----------------------------------------------------------------------------------

ImportDialog* MainWindow::showImportDialog(core::DataKind kind) {
  if (!hasProject()) {
    statusBar()->showMessage(tr("Open or create a project first."), 5000);
    return nullptr;
  }
  auto* dialog = new ImportDialog(m_projectFile, kind, this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  connect(dialog, &ImportDialog::imported, this, [this](qint64 id, const QString& name, const QStringList& notes) {
    log(tr("Imported “%1”").arg(name), LogView::Level::Success);
    for (const QString& note : notes) log(QStringLiteral("  %1").arg(note));
    refreshProject();
    Q_EMIT datasetImported(id);
    openDataset(id);
  });
  connect(dialog, &ImportDialog::importFailed, this, [this](const QString& message) { log(message, LogView::Level::Warning); });
  dialog->show();
  return dialog;
}

ImportTask* MainWindow::importSample(const QString& sample) {
  if (!hasProject()) {
    statusBar()->showMessage(tr("Open or create a project first."), 5000);
    return nullptr;
  }
  // The sample's own name, or "name 2", "name 3" ... when the project has it already.
  QString name = sample;
  try {
    core::Project project(m_projectFile, core::Project::Access::ReadOnly);
    for (int n = 2; project.findDataset(utf8(name)); ++n) name = QStringLiteral("%1 %2").arg(sample).arg(n);
  } catch (const std::exception&) {
  }
  auto* task = new ImportTask(
      m_projectFile, tr("Importing sample %1").arg(sample),
      [sample = utf8(sample), name = utf8(name)](core::Project& project, const core::ImportControl& control) {
        return core::importSample(project, sample, name, control);
      },
      this);
  ++m_importsRunning;
  updateStatus();
  log(tr("Importing the sample “%1”…").arg(sample));
  const auto file = m_projectFile;
  connect(task, &ImportTask::ended, this, [this, task, file] {
    --m_importsRunning;
    updateStatus();
    task->deleteLater();
    if (file != m_projectFile) return;  // the project was closed meanwhile
    if (!task->succeeded()) {
      log(task->wasCancelled() ? tr("Import cancelled.") : tr("Import failed: %1").arg(task->errorMessage()),
          task->wasCancelled() ? LogView::Level::Warning : LogView::Level::Error);
      return;
    }
    log(tr("Imported “%1”: %2").arg(qs(task->dataset().name), datasetSummaryText(task->dataset())), LogView::Level::Success);
    for (const QString& note : task->notes()) log(QStringLiteral("  %1").arg(note));
    refreshProject();
    Q_EMIT datasetImported(task->dataset().id);
  });
  task->start();
  return task;
}

// --- Runs -------------------------------------------------------------------------------------

void MainWindow::focusRunPanel(qint64 datasetId) {
  m_runDock->show();
  m_runDock->raise();
  if (datasetId != 0) m_runPanel->selectDataset(datasetId);
  m_runPanel->modelCombo()->setFocus();
}

void MainWindow::rerun(qint64 runId) {
  try {
    core::Project project(m_projectFile, core::Project::Access::ReadOnly);
    m_runPanel->fillFromRun(core::loadRun(project, runId));
    focusRunPanel();
    log(tr("The run panel holds the settings of run #%1: change what you like and press Start.").arg(runId));
  } catch (const std::exception& e) {
    log(qs(e.what()), LogView::Level::Error);
  }
}

void MainWindow::onRunCreated(JobController* controller) {
  const auto& run = controller->run();
  const QString threads = run.threads == 1 ? tr("1 thread") : tr("%1 threads").arg(run.threads);
  log(tr("Run #%1 started: %2 on “%3” (seed %4, %5, held-out fraction %6)")
          .arg(run.id)
          .arg(qs(run.model), qs(run.datasetName))
          .arg(run.seed)
          .arg(threads)
          .arg(formatReal(run.heldout, 3)));
  m_tree->refresh();
  updateStatus();
}

void MainWindow::onRunEnded(JobController* controller) {
  updateStatus();
  if (!controller->hasRun()) {
    log(tr("The run could not start: %1").arg(controller->error()), LogView::Level::Error);
    return;
  }
  const auto& run = controller->run();
  QString line = tr("Run #%1 %2 on “%3” %4").arg(run.id).arg(qs(run.model), qs(run.datasetName), statusText(run.status));
  if (const auto v = heldoutValue(run)) line += QStringLiteral(": %1 = %2").arg(qs(run.heldoutName), formatReal(*v, 6));
  if (run.seconds) line += QStringLiteral(" (%1)").arg(formatSeconds(*run.seconds));
  if (!controller->error().isEmpty()) line += QStringLiteral(" — ") + controller->error();
  log(line, run.status == core::RunStatus::Failed ? LogView::Level::Error
            : run.status == core::RunStatus::Stopped ? LogView::Level::Warning
                                                     : LogView::Level::Success);
  if (!hasProject()) return;
  m_tree->refresh();
  openRun(run.id);
  Q_EMIT runEnded(run.id);
}

// --- Editing datasets -------------------------------------------------------------------------

void MainWindow::renameDataset(qint64 datasetId) {
  try {
    core::Project project(m_projectFile, core::Project::Access::ReadWrite);
    const auto info = project.dataset(datasetId);
    bool ok = false;
    const QString name = QInputDialog::getText(this, tr("Rename Dataset"), tr("New name for “%1”:").arg(qs(info.name)),
                                               QLineEdit::Normal, qs(info.name), &ok).trimmed();
    if (!ok || name.isEmpty() || name == qs(info.name)) return;
    project.renameDataset(datasetId, utf8(name));
    log(tr("Renamed dataset “%1” to “%2”").arg(qs(info.name), name));
    if (const int index = findTab(QStringLiteral("dataset:%1").arg(datasetId)); index >= 0) m_tabs->setTabText(index, name);
  } catch (const std::exception& e) {
    log(tr("Cannot rename: %1").arg(qs(e.what())), LogView::Level::Error);
    QMessageBox::warning(this, tr("Rename Dataset"), qs(e.what()));
  }
  refreshProject();
}

void MainWindow::deleteDataset(qint64 datasetId) {
  for (auto* c : m_runs->controllers())
    if (c->state() != JobController::State::Ended && c->run().datasetId == datasetId) {
      QMessageBox::information(this, tr("Delete Dataset"), tr("A run on this dataset is still going. Stop it first."));
      return;
    }
  try {
    core::Project project(m_projectFile, core::Project::Access::ReadWrite);
    const auto info = project.dataset(datasetId);
    const auto runs = core::listRuns(project, datasetId);
    const auto answer = QMessageBox::question(
        this, tr("Delete Dataset"),
        tr("Delete “%1” and its %2 from the project? This cannot be undone.")
            .arg(qs(info.name), countOf(static_cast<std::int64_t>(runs.size()), tr("run"), tr("runs"))),
        QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
    if (answer != QMessageBox::Yes) return;
    for (const auto& r : runs)
      if (const int index = findTab(QStringLiteral("run:%1").arg(r.id)); index >= 0) closeTab(index);
    if (const int index = findTab(QStringLiteral("dataset:%1").arg(datasetId)); index >= 0) closeTab(index);
    project.removeDataset(datasetId);
    log(tr("Deleted dataset “%1”").arg(qs(info.name)));
  } catch (const std::exception& e) {
    log(tr("Cannot delete: %1").arg(qs(e.what())), LogView::Level::Error);
  }
  refreshProject();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  const auto urls = event->mimeData()->urls();
  if (!urls.isEmpty() && std::all_of(urls.begin(), urls.end(), [](const QUrl& u) { return u.isLocalFile(); }))
    event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  QStringList paths;
  for (const QUrl& url : event->mimeData()->urls())
    if (url.isLocalFile()) paths << url.toLocalFile();
  if (paths.isEmpty()) return;
  event->acceptProposedAction();
  // After the drop has finished: a modal dialog inside the drop handler would block the source.
  QTimer::singleShot(0, this, [this, paths, where = mapToGlobal(event->position().toPoint())] { openDroppedFiles(paths, where); });
}

QMenu* MainWindow::openDroppedFiles(const QStringList& paths, const QPoint& where) {
  if (paths.isEmpty()) return nullptr;
  const QString path = paths.first();
  if (paths.size() > 1) log(tr("Only the first dropped file is imported: %1").arg(QDir::toNativeSeparators(path)), LogView::Level::Warning);
  if (isProjectFile(path)) {
    QString error;
    if (!openProject(path, &error)) QMessageBox::warning(this, tr("Open Project"), error);
    return nullptr;
  }
  if (!hasProject()) {
    statusBar()->showMessage(tr("Open or create a project first, then drop the file again to import it."), 6000);
    return nullptr;
  }
  if (const auto kind = guessDataKind(path)) {
    if (auto* dialog = showImportDialog(*kind)) dialog->setSource(path);
    return nullptr;
  }
  // Delimited text whose header does not say what it holds: ask.
  auto* menu = new QMenu(this);
  menu->setAttribute(Qt::WA_DeleteOnClose);
  menu->addSection(tr("Import %1 as").arg(QFileInfo(path).fileName()));
  for (const auto kind : {core::DataKind::Corpus, core::DataKind::Graph, core::DataKind::Ratings}) {
    QAction* action = menu->addAction(kindIcon(kind), tr("A %1…").arg(kindNoun(kind)));
    connect(action, &QAction::triggered, this, [this, kind, path] {
      if (auto* dialog = showImportDialog(kind)) dialog->setSource(path);
    });
  }
  menu->popup(where.isNull() ? mapToGlobal(rect().center()) : where);
  return menu;
}

}  // namespace latent::ui
