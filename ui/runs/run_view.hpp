// SPDX-License-Identifier: GPL-3.0-or-later
// The tab of one run: what was run (model, dataset, options, seed, threads, held-out fraction),
// how it went (status, time, final metrics with their names), the per-iteration metrics as a
// table and a chart (live while the run goes), and the pages of its results, each added by the
// family of results it belongs to (ui/runs/run_pages_registry.cpp).
#pragma once

#include <QPointer>
#include <QTabWidget>
#include <QTimer>

#include <filesystem>
#include <vector>

#include "core/store/run_store.hpp"
#include "ui/widgets/tab_page.hpp"

class QLabel;
class QPushButton;
class QTableWidget;
class QUndoStack;

namespace latent::ui {

class JobController;
class CurveControls;
class MetricsChart;
class RunPages;
class RunExportDialog;

class RunView final : public TabPage {
  Q_OBJECT

 public:
  RunView(std::filesystem::path projectFile, qint64 runId, QWidget* parent = nullptr);

  // Follows a running run: reports go to the table and chart (redrawn at most 30 times a
  // second), and the view reloads from the project when the run ends.
  void attach(JobController* controller);
  void reload();

  qint64 runId() const noexcept { return m_runId; }
  const core::RunRecord& run() const noexcept { return m_run; }
  MetricsChart* chart() const noexcept { return m_chart; }
  CurveControls* curveControls() const noexcept { return m_curveControls; }
  QTableWidget* metricsTable() const noexcept { return m_metrics; }
  QTableWidget* finalMetricsTable() const noexcept { return m_final; }
  QTabWidget* pages() const noexcept { return m_pages; }
  // The first page of type Page among the run's pages (a family makes its pages when it first
  // has something to show, and keeps them when it takes them out of the tabs), or null:
  // page<TopicTableView>(), page<BlockMatrixPage>(), page<KChoiceView>(), ...
  template <typename Page>
  Page* page() const {
    return m_pages->findChild<Page*>();
  }
  // Loaded, not running, and nothing more on its way (no family of result pages loading).
  bool isSettled() const noexcept;
  // The edits made on the run's pages, such as topic labels (the main window's Edit menu follows
  // the current tab's).
  QUndoStack* undoStack() const;
  // The title (the run's name when it has one), facts, notes and options, as text.
  QString headerText() const;
  // While the run goes, where it is ("iteration 120 / 500 · 14 s · about 45 s left"); else empty.
  QString progressLine() const;
  // Export Results…: the dialog that writes the run's tables to files (shown, deleted on close).
  RunExportDialog* openExportDialog();

 Q_SIGNALS:
  void rerunRequested(qint64 runId);
  // The header's Name and Notes… button.
  void annotateRequested(qint64 runId);
  // After each (re)load from the project.
  void reloaded();
  // When isSettled() becomes true: after the reload that follows the run's end, and its result pages.
  void settled();

 private:
  void appendMetricRow(qint64 iteration, double seconds, std::optional<double> objective,
                       std::optional<double> heldout);
  void flushLive();
  void appendFactsError(const QString& message);
  void emitIfSettled();

  std::filesystem::path m_projectFile;
  qint64 m_runId;
  core::RunRecord m_run;
  QPointer<JobController> m_controller;
  QTimer m_frame;
  bool m_dirty = false;
  int m_generation = 0;
  bool m_reloadPending = false;

  QLabel* m_title = nullptr;
  QLabel* m_facts = nullptr;
  QLabel* m_progress = nullptr;
  qint64 m_planned = 0;  // the iterations the run was asked for
  QLabel* m_optionsLabel = nullptr;
  QLabel* m_notes = nullptr;
  QPushButton* m_annotate = nullptr;
  QLabel* m_keyResult = nullptr;
  QLabel* m_caption = nullptr;
  QPushButton* m_again = nullptr;
  QPushButton* m_exportResults = nullptr;
  QTableWidget* m_final = nullptr;
  QTableWidget* m_metrics = nullptr;
  MetricsChart* m_chart = nullptr;
  CurveControls* m_curveControls = nullptr;
  QTabWidget* m_pages = nullptr;
  QWidget* m_training = nullptr;
  QUndoStack* m_undo = nullptr;
  std::vector<RunPages*> m_families;  // children of this view, in the registry's order
};

// A person's name for a final-metrics key: the run's held-out name for its held-out key, the
// objective's for train objectives, words for the rest ("heldout_documents" -> "held-out documents").
QString metricName(const core::RunRecord& run, const std::string& key);

}  // namespace latent::ui
