// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow: managing the runs a project keeps (name and notes, comparing a dataset's runs, delete
// a run, remove its snapshots, compact the file).
#include <QStatusBar>
#include <QTabWidget>

#include "core/store/run_maintenance.hpp"
#include "core/store/run_notes.hpp"
#include "core/store/run_store.hpp"
#include "ui/jobs/job_controller.hpp"
#include "ui/jobs/project_session.hpp"
#include "ui/jobs/run_manager.hpp"
#include "ui/main_window.hpp"
#include "ui/runs/run_comparison_view.hpp"
#include "ui/runs/run_notes_dialog.hpp"
#include "ui/runs/run_view.hpp"
#include "ui/util/format.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/widgets/project_tree.hpp"

namespace latent::ui {
namespace {

struct RunAndStorage {
  core::RunRecord run;
  core::RunStorage storage;
};

}  // namespace

void MainWindow::annotateRunAsked(qint64 runId) {
  if (!hasProject()) return;
  m_session->read(
      this, [runId](core::Project& project) { return core::loadRun(project, runId); },
      [this, runId, file = m_projectFile](SessionResult<core::RunRecord> result) {
        if (file != m_projectFile) return;
        if (!result.ok()) {
          log(tr("Cannot read run #%1: %2").arg(runId).arg(result.error), LogView::Level::Error);
          return;
        }
        auto* dialog = new RunNotesDialog(runId, qs(result.value->name), qs(result.value->notes), this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(dialog, &QDialog::accepted, this, [this, dialog, file] {
          if (file == m_projectFile) annotateRun(dialog->runId(), dialog->name(), dialog->notes());
        });
        dialog->open();
        Q_EMIT runNotesDialogOpened(dialog);
      });
}

void MainWindow::annotateRun(qint64 runId, const QString& name, const QString& notes) {
  if (!hasProject()) return;
  m_session->write(
      this,
      [runId, name = name.toStdString(), notes = notes.toStdString()](core::Project& project) {
        core::Transaction tx(project.db());
        const auto stored = core::setRunName(project, runId, name);
        core::setRunNotes(project, runId, notes);
        tx.commit();
        return stored;
      },
      [this, runId](SessionResult<std::string> result) {
        if (!result.ok()) {
          log(tr("Cannot change the name and notes of run #%1: %2").arg(runId).arg(result.error),
              LogView::Level::Error);
          Q_EMIT runAnnotated(runId, false);
          return;
        }
        log(result.value->empty() ? tr("Run #%1 has no name; its notes are kept.").arg(runId)
                                  : tr("Run #%1 is now called “%2”.").arg(runId).arg(qs(*result.value)));
        if (const int tab = findTab(QStringLiteral("run:%1").arg(runId)); tab >= 0) {
          if (auto* view = qobject_cast<RunView*>(m_tabs->widget(tab))) {
            // The tab says the name, or the model as a run without one.
            m_tabs->setTabText(tab, QStringLiteral("#%1 %2").arg(runId).arg(
                                        result.value->empty() ? qs(view->run().model) : qs(*result.value)));
            view->reload();
          }
        }
        refreshProject();
        Q_EMIT runAnnotated(runId, true);
      });
}

RunComparisonView* MainWindow::openRunComparison(qint64 datasetId) {
  if (!hasProject()) return nullptr;
  if (const int index = findTab(RunComparisonView::keyFor(datasetId)); index >= 0) {
    m_tabs->setCurrentIndex(index);
    auto* view = qobject_cast<RunComparisonView*>(m_tabs->widget(index));
    if (view) view->reload();
    return view;
  }
  auto* view = new RunComparisonView(m_projectFile, datasetId, m_tabs);
  connect(view, &RunComparisonView::openRunRequested, this, &MainWindow::openRun);
  const int index = m_tabs->addTab(view, themedIcon("run"), tr("Runs compared"));
  m_tabs->setTabToolTip(index, tr("The runs of dataset #%1 side by side").arg(datasetId));
  connect(view, &RunComparisonView::reloaded, this, [this, view] {
    if (const int at = m_tabs->indexOf(view); at >= 0 && !view->comparison().runs.empty())
      m_tabs->setTabText(at, tr("Runs of %1").arg(qs(view->comparison().runs.front().datasetName)));
  });
  m_tabs->setCurrentIndex(index);
  updateActions();
  return view;
}

void MainWindow::deleteRunAsked(qint64 runId) {
  if (!hasProject()) return;
  if (auto* c = m_runs->controllerForRun(runId); c && c->state() != JobController::State::Ended) {
    log(tr("Run #%1 is still going: stop it before deleting it.").arg(runId), LogView::Level::Warning);
    return;
  }
  m_session->read(
      this,
      [runId](core::Project& project) {
        return RunAndStorage{core::loadRun(project, runId), core::runStorage(project, runId)};
      },
      [this, runId, file = m_projectFile](SessionResult<RunAndStorage> result) {
        if (file != m_projectFile) return;
        if (!result.ok()) {
          log(tr("Cannot delete run #%1: %2").arg(runId).arg(result.error), LogView::Level::Error);
          return;
        }
        const auto& run = result.value->run;
        const auto answer =
            m_question(tr("Delete Run"),
                       tr("Delete run #%1 (%2 on “%3”) and all it stored (%4)? This cannot be undone.")
                           .arg(runId)
                           .arg(qs(run.model), qs(run.datasetName), formatBytes(result.value->storage.matrixBytes)),
                       QMessageBox::Yes | QMessageBox::Cancel);
        if (answer != QMessageBox::Yes || file != m_projectFile) return;
        // Its tab closes first: the view must not read what is being deleted.
        if (const int tab = findTab(QStringLiteral("run:%1").arg(runId)); tab >= 0) closeTab(tab);
        m_session->write(
            this, [runId](core::Project& project) { core::deleteRun(project, runId); },
            [this, runId](SessionResult<std::monostate> deleted) {
              const QString outcome = deleted.ok() ? tr("Deleted run #%1.").arg(runId)
                                                   : tr("Cannot delete run #%1: %2").arg(runId).arg(deleted.error);
              log(outcome, deleted.ok() ? LogView::Level::Success : LogView::Level::Error);
              refreshProject();
              Q_EMIT projectMaintained(outcome);
            });
      });
}

void MainWindow::removeSnapshotsAsked(qint64 runId) {
  if (!hasProject()) return;
  m_session->read(
      this, [runId](core::Project& project) { return core::runStorage(project, runId); },
      [this, runId, file = m_projectFile](SessionResult<core::RunStorage> result) {
        if (file != m_projectFile) return;
        if (!result.ok()) {
          log(tr("Cannot read run #%1: %2").arg(runId).arg(result.error), LogView::Level::Error);
          return;
        }
        if (result.value->snapshots == 0) {
          const QString outcome = tr("Run #%1 keeps no snapshots beside its final results.").arg(runId);
          log(outcome);
          Q_EMIT projectMaintained(outcome);
          return;
        }
        const auto answer = m_question(tr("Remove Snapshots"),
                                       tr("Remove the %1 of run #%2 (%3)? Its final results, curves and metrics stay.")
                                           .arg(countOf(result.value->snapshots, tr("snapshot"), tr("snapshots")))
                                           .arg(runId)
                                           .arg(formatBytes(result.value->snapshotBytes)),
                                       QMessageBox::Yes | QMessageBox::Cancel);
        if (answer != QMessageBox::Yes || file != m_projectFile) return;
        m_session->write(
            this, [runId](core::Project& project) { return core::removeSnapshots(project, runId); },
            [this, runId](SessionResult<std::int64_t> removed) {
              const QString outcome =
                  removed.ok() ? tr("Removed the snapshots of run #%1: %2 freed in the project (File ▸ Compact "
                                    "Project gives the space back to the disk).")
                                     .arg(runId)
                                     .arg(formatBytes(*removed.value))
                               : tr("Cannot remove the snapshots of run #%1: %2").arg(runId).arg(removed.error);
              log(outcome, removed.ok() ? LogView::Level::Success : LogView::Level::Error);
              Q_EMIT projectMaintained(outcome);
            });
      });
}

void MainWindow::compactProject() {
  if (!hasProject()) return;
  log(tr("Compacting the project…"));
  m_session->write(
      this, [](core::Project& project) { return core::compactProject(project); },
      [this](SessionResult<core::CompactOutcome> result) {
        const QString outcome =
            result.ok() ? tr("Compacted the project: %1 → %2.")
                              .arg(formatBytes(result.value->bytesBefore), formatBytes(result.value->bytesAfter))
                        : tr("Cannot compact the project: %1").arg(result.error);
        log(outcome, result.ok() ? LogView::Level::Success : LogView::Level::Error);
        statusBar()->showMessage(outcome, 8000);
        Q_EMIT projectMaintained(outcome);
      });
}

}  // namespace latent::ui
