// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow: the tabs, imports, the end of runs, and editing datasets from the tree.
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
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

#include "core/jobs/link_import.hpp"
#include "core/jobs/samples.hpp"
#include "core/store/run_store.hpp"
#include "ui/browsers/corpus_browser.hpp"
#include "ui/browsers/graph_browser.hpp"
#include "ui/browsers/ratings_browser.hpp"
#include "ui/import/dropped_file.hpp"
#include "ui/import/import_dialog.hpp"
#include "ui/jobs/import_task.hpp"
#include "ui/jobs/project_session.hpp"
#include "ui/jobs/run_manager.hpp"
#include "ui/main_window.hpp"
#include "ui/runs/retrieval/precision_recall_view.hpp"
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

void MainWindow::openDataset(qint64 datasetId, std::function<void(TabPage*)> then) {
  if (!then) then = [](TabPage*) {};
  if (!hasProject()) {
    then(nullptr);
    return;
  }
  const QString key = QStringLiteral("dataset:%1").arg(datasetId);
  if (const int index = findTab(key); index >= 0) {
    m_tabs->setCurrentIndex(index);
    then(qobject_cast<TabPage*>(m_tabs->widget(index)));
    return;
  }
  // The page's class depends on the dataset's kind, which only the project knows.
  m_session->read(
      this, [datasetId](core::Project& project) { return project.dataset(datasetId); },
      [this, datasetId, key, file = m_projectFile, then = std::move(then)](SessionResult<core::DatasetInfo> result) {
        if (file != m_projectFile) return then(nullptr);  // the project was closed meanwhile
        if (!result.ok()) {
          log(tr("Cannot open dataset %1: %2").arg(datasetId).arg(result.error), LogView::Level::Error);
          return then(nullptr);
        }
        if (const int index = findTab(key); index >= 0) {  // asked for twice while reading
          m_tabs->setCurrentIndex(index);
          return then(qobject_cast<TabPage*>(m_tabs->widget(index)));
        }
        const core::DatasetInfo& info = *result.value;
        TabPage* page = nullptr;
        switch (info.kind) {
          case core::DataKind::Corpus:
            page = new CorpusBrowser(m_projectFile, datasetId, m_tabs);
            break;
          case core::DataKind::Graph:
            page = new GraphBrowser(m_projectFile, datasetId, m_tabs);
            break;
          case core::DataKind::Ratings:
            page = new RatingsBrowser(m_projectFile, datasetId, m_tabs);
            break;
          case core::DataKind::Table:
            // No browser for numeric tables yet: the tree's summary is what there is to see.
            log(tr("Dataset %1 is a numeric table (%2); there is no table browser yet.")
                    .arg(qs(info.name), datasetSummaryText(info)));
            return then(nullptr);
        }
        const int index = m_tabs->addTab(page, kindIcon(info.kind), qs(info.name));
        m_tabs->setTabToolTip(index, datasetSummaryText(info));
        m_tabs->setCurrentIndex(index);
        updateActions();
        then(page);
      });
}

PrecisionRecallView* MainWindow::openPrecisionRecall(const QList<qint64>& runIds) {
  if (!hasProject() || runIds.isEmpty()) return nullptr;
  const QString key = PrecisionRecallView::keyFor(runIds);
  if (const int index = findTab(key); index >= 0) {
    m_tabs->setCurrentIndex(index);
    auto* view = qobject_cast<PrecisionRecallView*>(m_tabs->widget(index));
    if (view) view->reload();  // the runs may have finished since
    return view;
  }
  auto* view = new PrecisionRecallView(m_projectFile, runIds, m_tabs);
  QStringList ids;
  for (const qint64 id : view->runIds()) ids << QStringLiteral("#%1").arg(id);
  const int index =
      m_tabs->addTab(view, themedIcon("run"), tr("Precision–recall %1").arg(ids.join(QStringLiteral(", "))));
  m_tabs->setTabToolTip(index, tr("Document retrieval of runs %1: precision against recall, held-out documents "
                                  "as queries")
                                   .arg(ids.join(QStringLiteral(", "))));
  m_tabs->setCurrentIndex(index);
  updateActions();
  return view;
}

RunView* MainWindow::openRun(qint64 runId) {
  if (!hasProject()) return nullptr;
  const QString key = QStringLiteral("run:%1").arg(runId);
  if (const int index = findTab(key); index >= 0) {
    m_tabs->setCurrentIndex(index);
    return qobject_cast<RunView*>(m_tabs->widget(index));
  }
  auto* view = new RunView(m_projectFile, runId, m_tabs);
  m_undoGroup->addStack(view->undoStack());
  if (auto* controller = m_runs->controllerForRun(runId);
      controller && controller->state() != JobController::State::Ended)
    view->attach(controller);
  connect(view, &RunView::rerunRequested, this, &MainWindow::rerun);
  connect(view, &RunView::annotateRequested, this, &MainWindow::annotateRunAsked);
  const int index = m_tabs->addTab(view, themedIcon("run"), QStringLiteral("#%1").arg(runId));
  m_tabs->setCurrentIndex(index);
  updateActions();
  // The view reads the run itself; the tab's title and tooltip follow from a read of their own.
  m_session->read(
      view, [runId](core::Project& project) { return core::loadRun(project, runId); },
      [this, view, runId](SessionResult<core::RunRecord> result) {
        const int at = m_tabs->indexOf(view);
        if (at < 0) return;
        if (!result.ok()) {
          log(tr("Cannot open run #%1: %2").arg(runId).arg(result.error), LogView::Level::Error);
          return;
        }
        const auto& run = *result.value;
        m_tabs->setTabText(at, run.name.empty() ? QStringLiteral("#%1 %2").arg(runId).arg(qs(run.model))
                                                : QStringLiteral("#%1 %2").arg(runId).arg(qs(run.name)));
        m_tabs->setTabToolTip(at, tr("Run #%1: %2 on %3").arg(runId).arg(qs(run.model), qs(run.datasetName)));
      });
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
  connect(dialog, &ImportDialog::importFailed, this,
          [this](const QString& message) { log(message, LogView::Level::Warning); });
  dialog->show();
  return dialog;
}

ImportTask* MainWindow::importSample(const QString& sample) {
  if (!hasProject()) {
    statusBar()->showMessage(tr("Open or create a project first."), 5000);
    return nullptr;
  }
  auto* task = new ImportTask(
      m_projectFile, tr("Importing sample %1").arg(sample),
      [sample = utf8(sample)](core::Project& project, const core::ImportControl& control) {
        // The sample's own name, or "name 2", "name 3" ... when the project has it already;
        // chosen on the import's own connection, off the GUI thread.
        std::string name = sample;
        for (int n = 2; project.findDataset(name); ++n) name = sample + " " + std::to_string(n);
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
    log(tr("Imported “%1”: %2").arg(qs(task->dataset().name), datasetSummaryText(task->dataset())),
        LogView::Level::Success);
    for (const QString& note : task->notes()) log(QStringLiteral("  %1").arg(note));
    refreshProject();
    Q_EMIT datasetImported(task->dataset().id);
  });
  task->start();
  return task;
}

void MainWindow::chooseLinksFile(qint64 datasetId) {
  const QString file = QFileDialog::getOpenFileName(this, tr("Attach Links"), QString(),
                                                    tr("Links between documents (*.csv *.tsv *.txt);;All files (*)"));
  if (!file.isEmpty()) attachLinks(datasetId, file);
}

ImportTask* MainWindow::attachLinks(qint64 datasetId, const QString& file) {
  if (!hasProject()) return nullptr;
  auto* task = new ImportTask(
      m_projectFile, tr("Attaching links"),
      [datasetId, source = toPath(file)](core::Project& project, const core::ImportControl& control) {
        core::LinksImportRequest request;
        request.corpus = std::to_string(datasetId);
        request.source = source;
        return core::importDocumentLinks(project, request, control);
      },
      this);
  ++m_importsRunning;
  updateStatus();
  log(tr("Attaching the links of %1…").arg(QFileInfo(file).fileName()));
  const auto project = m_projectFile;
  connect(task, &ImportTask::ended, this, [this, task, project] {
    --m_importsRunning;
    updateStatus();
    task->deleteLater();
    if (project != m_projectFile) return;
    if (!task->succeeded()) {
      log(task->wasCancelled() ? tr("Import cancelled.")
                               : tr("The links were not attached: %1").arg(task->errorMessage()),
          task->wasCancelled() ? LogView::Level::Warning : LogView::Level::Error);
      return;
    }
    log(tr("“%1” now has %2 links between its documents.")
            .arg(qs(task->dataset().name))
            .arg(task->dataset().summary.value("links", std::int64_t{0})),
        LogView::Level::Success);
    for (const QString& note : task->notes()) log(QStringLiteral("  %1").arg(note));
    refreshProject();
  });
  task->start();
  return task;
}

// --- Runs -------------------------------------------------------------------------------------

void MainWindow::focusRunPanel(qint64 datasetId) {
  m_runDock->show();
  m_runDock->raise();
  if (datasetId != 0) m_runPanel->selectDataset(datasetId);
  m_runPanel->scrollToForm();
  m_runPanel->modelCombo()->setFocus();
}

void MainWindow::rerun(qint64 runId) {
  if (!hasProject()) return;
  m_session->read(
      this, [runId](core::Project& project) { return core::loadRun(project, runId); },
      [this, runId, file = m_projectFile](SessionResult<core::RunRecord> result) {
        if (file != m_projectFile) return;
        if (!result.ok()) {
          log(result.error, LogView::Level::Error);
          return;
        }
        m_runPanel->fillFromRun(*result.value);
        focusRunPanel();
        log(tr("The run panel holds the settings of run #%1: change what you like and press Start.").arg(runId));
      });
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
  // The run opens as it starts, so its curves are watched from the first report.
  if (hasProject()) openRun(run.id);
}

void MainWindow::onRunEnded(JobController* controller) {
  updateStatus();
  if (!controller->hasRun()) {
    log(tr("The run could not start: %1").arg(controller->error()), LogView::Level::Error);
    return;
  }
  const auto& run = controller->run();
  QString line =
      tr("Run #%1 %2 on “%3” %4").arg(run.id).arg(qs(run.model), qs(run.datasetName), statusText(run.status));
  if (const auto v = heldoutValue(run)) line += QStringLiteral(": %1 = %2").arg(qs(run.heldoutName), formatReal(*v, 6));
  if (run.seconds) line += QStringLiteral(" (%1)").arg(formatSeconds(*run.seconds));
  if (!controller->error().isEmpty()) line += QStringLiteral(" — ") + controller->error();
  log(line, run.status == core::RunStatus::Failed    ? LogView::Level::Error
            : run.status == core::RunStatus::Stopped ? LogView::Level::Warning
                                                     : LogView::Level::Success);
  if (!hasProject()) return;
  m_tree->refresh();
  // A run opened at its start reloads itself; the tab is not brought forward again, since the
  // user may have moved on to another.
  if (findTab(QStringLiteral("run:%1").arg(run.id)) < 0) openRun(run.id);
  Q_EMIT runEnded(run.id);
}

// --- Editing datasets -------------------------------------------------------------------------

void MainWindow::renameDataset(qint64 datasetId) {
  if (!hasProject()) return;
  m_session->read(
      this, [datasetId](core::Project& project) { return project.dataset(datasetId); },
      [this, datasetId, file = m_projectFile](SessionResult<core::DatasetInfo> result) {
        if (file != m_projectFile) return;
        if (!result.ok()) {
          log(tr("Cannot rename: %1").arg(result.error), LogView::Level::Error);
          return;
        }
        const QString old = qs(result.value->name);
        bool ok = false;
        const QString name = QInputDialog::getText(this, tr("Rename Dataset"), tr("New name for “%1”:").arg(old),
                                                   QLineEdit::Normal, old, &ok)
                                 .trimmed();
        if (!ok || name.isEmpty() || name == old || file != m_projectFile) return;
        renameDatasetTo(datasetId, name);
      });
}

void MainWindow::renameDatasetTo(qint64 datasetId, const QString& name) {
  if (!hasProject()) return;
  m_session->write(
      this,
      [datasetId, name = utf8(name)](core::Project& project) {
        const std::string old = project.dataset(datasetId).name;
        project.renameDataset(datasetId, name);
        return old;
      },
      [this, datasetId, name, file = m_projectFile](SessionResult<std::string> result) {
        if (file != m_projectFile) return;
        if (!result.ok()) {
          log(tr("Cannot rename: %1").arg(result.error), LogView::Level::Error);
          statusBar()->showMessage(tr("Cannot rename: %1").arg(result.error), 10000);
          return;
        }
        log(tr("Renamed dataset “%1” to “%2”").arg(qs(*result.value), name));
        if (const int index = findTab(QStringLiteral("dataset:%1").arg(datasetId)); index >= 0)
          m_tabs->setTabText(index, name);
        Q_EMIT datasetRenamed(datasetId, name);
      });
}

namespace {
struct DatasetAndRuns {
  core::DatasetInfo info;
  std::vector<core::RunRecord> runs;
};
}  // namespace

void MainWindow::deleteDataset(qint64 datasetId) {
  if (!hasProject()) return;
  for (auto* c : m_runs->controllers())
    if (c->state() != JobController::State::Ended && c->run().datasetId == datasetId) {
      QMessageBox::information(this, tr("Delete Dataset"), tr("A run on this dataset is still going. Stop it first."));
      return;
    }
  m_session->read(
      this,
      [datasetId](core::Project& project) {
        return DatasetAndRuns{project.dataset(datasetId), core::listRuns(project, datasetId)};
      },
      [this, datasetId, file = m_projectFile](SessionResult<DatasetAndRuns> result) {
        if (file != m_projectFile) return;
        if (!result.ok()) {
          log(tr("Cannot delete: %1").arg(result.error), LogView::Level::Error);
          return;
        }
        const auto answer = QMessageBox::question(
            this, tr("Delete Dataset"),
            tr("Delete “%1” and its %2 from the project? This cannot be undone.")
                .arg(qs(result.value->info.name),
                     countOf(static_cast<std::int64_t>(result.value->runs.size()), tr("run"), tr("runs"))),
            QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
        if (answer == QMessageBox::Yes && file == m_projectFile) removeDataset(datasetId);
      });
}

void MainWindow::removeDataset(qint64 datasetId) {
  if (!hasProject()) return;
  for (auto* c : m_runs->controllers())
    if (c->state() != JobController::State::Ended && c->run().datasetId == datasetId) {
      log(tr("Cannot delete: a run on this dataset is still going. Stop it first."), LogView::Level::Warning);
      return;
    }
  // The dataset's tabs close first: their views must not read what is being deleted. The tree
  // stays disabled until the delete, which cascades through every token, has gone through.
  for (int i = m_tabs->count() - 1; i >= 0; --i) {
    auto* view = qobject_cast<RunView*>(m_tabs->widget(i));
    if (view && view->run().datasetId == datasetId) closeTab(i);
  }
  if (const int index = findTab(QStringLiteral("dataset:%1").arg(datasetId)); index >= 0) closeTab(index);
  m_tree->setEnabled(false);
  statusBar()->showMessage(tr("Deleting the dataset…"));
  m_session->write(
      this,
      [datasetId](core::Project& project) {
        DatasetAndRuns gone{project.dataset(datasetId), core::listRuns(project, datasetId)};
        project.removeDataset(datasetId);
        return gone;
      },
      [this, datasetId, file = m_projectFile](SessionResult<DatasetAndRuns> result) {
        m_tree->setEnabled(true);
        statusBar()->clearMessage();
        if (file != m_projectFile) return;
        if (!result.ok()) {
          log(tr("Cannot delete: %1").arg(result.error), LogView::Level::Error);
          return;
        }
        // Run tabs opened while the delete was queued.
        for (const auto& r : result.value->runs)
          if (const int index = findTab(QStringLiteral("run:%1").arg(r.id)); index >= 0) closeTab(index);
        log(tr("Deleted dataset “%1”").arg(qs(result.value->info.name)));
        Q_EMIT datasetDeleted(datasetId);
      });
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
  QTimer::singleShot(
      0, this, [this, paths, where = mapToGlobal(event->position().toPoint())] { openDroppedFiles(paths, where); });
}

QMenu* MainWindow::openDroppedFiles(const QStringList& paths, const QPoint& where) {
  if (paths.isEmpty()) return nullptr;
  const QString path = paths.first();
  if (paths.size() > 1)
    log(tr("Only the first dropped file is imported: %1").arg(QDir::toNativeSeparators(path)), LogView::Level::Warning);
  if (isProjectFile(path)) {
    QString error;
    m_warnOpenFailures = true;
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
  for (const auto kind :
       {core::DataKind::Corpus, core::DataKind::Graph, core::DataKind::Ratings, core::DataKind::Table}) {
    QAction* action = menu->addAction(kindIcon(kind), tr("A %1…").arg(kindNoun(kind)));
    connect(action, &QAction::triggered, this, [this, kind, path] {
      if (auto* dialog = showImportDialog(kind)) dialog->setSource(path);
    });
  }
  menu->popup(where.isNull() ? mapToGlobal(rect().center()) : where);
  return menu;
}

}  // namespace latent::ui
