// SPDX-License-Identifier: GPL-3.0-or-later
// The tab of one run: what was run (model, dataset, options, seed, threads, held-out fraction),
// how it went (status, time, final metrics with their names), the per-iteration metrics as a
// table and a chart (live while the run goes), and for a topic model its results: the
// topic-word table and the annotated document reader, each on a page of its own.
#pragma once

#include <QPointer>
#include <QTimer>

#include <filesystem>

#include "store/run_store.hpp"
#include "ui/widgets/tab_page.hpp"

class QLabel;
class QPushButton;
class QTabWidget;
class QTableWidget;
class QUndoStack;

namespace latent::ui {

class BlockMatrixPage;
class FactorPage;
class JobController;
class CurveControls;
class GibbsStateView;
class KChoiceView;
class MembershipPage;
class MetricsChart;
class TopicDocumentView;
class TopicTableView;

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
  TopicTableView* topicTable() const noexcept { return m_topicTable; }
  TopicDocumentView* documentReader() const noexcept { return m_documents; }
  // The "Choosing K" page: shown once two or more finished runs differ from this one only in K.
  KChoiceView* kChoiceView() const noexcept { return m_kChoice; }
  // The "Gibbs sampler" page (000 Fig. 27.8): lda-gibbs runs on small corpora with nothing held out.
  GibbsStateView* gibbsStateView() const noexcept { return m_gibbs; }
  QTabWidget* pages() const noexcept { return m_pages; }
  // The factor page of a finished pmf run; null until it is loaded.
  FactorPage* factorPage() const noexcept { return m_factors; }
  // The block-model pages of a graph run (Blocks once it ended; Memberships also while it runs);
  // null until they are loaded.
  BlockMatrixPage* blockPage() const noexcept { return m_blockPage; }
  MembershipPage* membershipPage() const noexcept { return m_memberships; }
  // The topic pages show this run's results (a finished topic model on a corpus).
  bool showsTopics() const noexcept { return m_topicsShown; }
  // Loaded, not running, and nothing more on its way (the topic results included).
  bool isSettled() const noexcept;
  // The label edits of the topic table (the main window's Edit menu follows the current tab's).
  QUndoStack* undoStack() const;
  QString headerText() const;

 Q_SIGNALS:
  void rerunRequested(qint64 runId);
  // After each (re)load from the project.
  void reloaded();
  // When isSettled() becomes true: after the reload that follows the run's end, and its topics.
  void settled();

 private:
  void appendMetricRow(qint64 iteration, double seconds, std::optional<double> objective, std::optional<double> heldout);
  void flushLive();
  void loadTopics();
  void loadFactors();
  void loadBlocks();
  void loadChoiceOfK();
  void loadGibbsState();
  void followBlocks();

  std::filesystem::path m_projectFile;
  qint64 m_runId;
  core::RunRecord m_run;
  QPointer<JobController> m_controller;
  QTimer m_frame;
  bool m_dirty = false;
  int m_generation = 0;
  int m_topicGeneration = 0;
  bool m_reloadPending = false;
  bool m_topicsPending = false;
  bool m_topicsShown = false;
  int m_factorGeneration = 0;
  bool m_factorsPending = false;
  int m_blockGeneration = 0;
  int m_kGeneration = 0;
  bool m_kPending = false;
  int m_gibbsGeneration = 0;
  bool m_gibbsPending = false;
  bool m_blocksPending = false;

  QLabel* m_title = nullptr;
  QLabel* m_facts = nullptr;
  QLabel* m_optionsLabel = nullptr;
  QLabel* m_keyResult = nullptr;
  QLabel* m_caption = nullptr;
  QPushButton* m_again = nullptr;
  QTableWidget* m_final = nullptr;
  QTableWidget* m_metrics = nullptr;
  MetricsChart* m_chart = nullptr;
  CurveControls* m_curveControls = nullptr;
  QTabWidget* m_pages = nullptr;
  QWidget* m_training = nullptr;
  TopicTableView* m_topicTable = nullptr;
  TopicDocumentView* m_documents = nullptr;
  FactorPage* m_factors = nullptr;
  BlockMatrixPage* m_blockPage = nullptr;
  MembershipPage* m_memberships = nullptr;
  KChoiceView* m_kChoice = nullptr;
  GibbsStateView* m_gibbs = nullptr;
};

// A person's name for a final-metrics key: the run's held-out name for its held-out key, the
// objective's for train objectives, words for the rest ("heldout_documents" -> "held-out documents").
QString metricName(const core::RunRecord& run, const std::string& key);

}  // namespace latent::ui
