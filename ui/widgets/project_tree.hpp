// SPDX-License-Identifier: GPL-3.0-or-later
// The project tree: datasets grouped by kind with their summaries, each dataset's runs below it.
#pragma once

#include <QTreeWidget>

#include <filesystem>

#include "data/data_kind.hpp"

namespace latent::ui {

class ProjectTree final : public QTreeWidget {
  Q_OBJECT

 public:
  enum Role { ItemTypeRole = Qt::UserRole + 1, IdRole, SummaryRole, KindRole };
  enum ItemType { GroupItem = 1, DatasetItem, RunItem };

  explicit ProjectTree(QWidget* parent = nullptr);

  // An empty path clears the tree.
  void setProject(const std::filesystem::path& projectFile);
  // Re-reads datasets and runs through a short read-only connection, keeping what was expanded
  // and selected. Returns false (and leaves the tree as it was) when the file cannot be read.
  bool refresh();

  QTreeWidgetItem* groupItem(core::DataKind kind) const;
  QTreeWidgetItem* datasetItem(qint64 datasetId) const;
  QTreeWidgetItem* runItem(qint64 runId) const;
  // The dataset of the selected dataset or run, 0 when none.
  qint64 selectedDatasetId() const;
  qint64 selectedRunId() const;

 Q_SIGNALS:
  void openDatasetRequested(qint64 datasetId);
  void openRunRequested(qint64 runId);
  void newRunRequested(qint64 datasetId);
  void rerunRequested(qint64 runId);
  void renameDatasetRequested(qint64 datasetId);
  void deleteDatasetRequested(qint64 datasetId);
  void readFailed(const QString& message);

 protected:
  void contextMenuEvent(QContextMenuEvent* event) override;

 private:
  void activate(QTreeWidgetItem* item);
  QTreeWidgetItem* findItem(ItemType type, qint64 id) const;

  std::filesystem::path m_projectFile;
};

}  // namespace latent::ui
