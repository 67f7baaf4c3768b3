// SPDX-License-Identifier: GPL-3.0-or-later
// The project tree: datasets grouped by kind with their summaries, each dataset's runs below it.
#pragma once

#include <QPointer>
#include <QTreeWidget>

#include <vector>

#include "core/data/data_kind.hpp"
#include "core/store/project.hpp"
#include "core/store/run_store.hpp"

class QMenu;

namespace latent::ui {

class ProjectSession;

class ProjectTree final : public QTreeWidget {
  Q_OBJECT

 public:
  enum Role { ItemTypeRole = Qt::UserRole + 1, IdRole, SummaryRole, KindRole };
  enum ItemType { GroupItem = 1, DatasetItem, RunItem };

  explicit ProjectTree(QWidget* parent = nullptr);

  // None clears the tree.
  void setProject(ProjectSession* session);
  // Re-reads datasets and runs through the session, keeping what was expanded and selected;
  // refreshed() follows, or readFailed() with the tree left as it was. A refresh asked for while
  // one is under way supersedes it.
  void refresh();

  QTreeWidgetItem* groupItem(core::DataKind kind) const;
  QTreeWidgetItem* datasetItem(qint64 datasetId) const;
  QTreeWidgetItem* runItem(qint64 runId) const;
  // The dataset of the selected dataset or run, 0 when none.
  qint64 selectedDatasetId() const;
  qint64 selectedRunId() const;
  // Every selected run (the tree selects several with Ctrl or Shift), in tree order.
  QList<qint64> selectedRunIds() const;
  // The context menu of a dataset or a run (what a right click shows); false for a group.
  bool fillContextMenu(QTreeWidgetItem* item, QMenu& menu);

 Q_SIGNALS:
  void openDatasetRequested(qint64 datasetId);
  void openRunRequested(qint64 runId);
  void newRunRequested(qint64 datasetId);
  void rerunRequested(qint64 runId);
  // Precision-recall of document retrieval for these runs, overlaid (run context menu).
  void precisionRecallRequested(const QList<qint64>& runIds);
  void renameDatasetRequested(qint64 datasetId);
  // A corpus's context menu: attach links between its documents from an edge list.
  void attachLinksRequested(qint64 datasetId);
  void deleteDatasetRequested(qint64 datasetId);
  void deleteRunRequested(qint64 runId);
  // A run's menu: its name and notes; a dataset's menu: the table comparing its runs.
  void annotateRunRequested(qint64 runId);
  void compareRunsRequested(qint64 datasetId);
  void removeSnapshotsRequested(qint64 runId);
  void readFailed(const QString& message);
  void refreshed();

 protected:
  void contextMenuEvent(QContextMenuEvent* event) override;

 private:
  void activate(QTreeWidgetItem* item);
  void fill(const std::vector<core::DatasetInfo>& datasets, const std::vector<core::RunRecord>& runs);
  QTreeWidgetItem* findItem(ItemType type, qint64 id) const;

  QPointer<ProjectSession> m_session;
  int m_generation = 0;
};

}  // namespace latent::ui
