// SPDX-License-Identifier: GPL-3.0-or-later
// Compare Runs: the runs of one dataset side by side in a sortable table: model, the options that
// differ between them (not all options), every final metric, time taken and state. A row's double
// click opens its run.
#pragma once

#include <QString>

#include <filesystem>

#include "core/store/run_comparison.hpp"
#include "ui/widgets/tab_page.hpp"

class QLabel;
class QTableWidget;

namespace latent::ui {

class RunComparisonView final : public TabPage {
  Q_OBJECT

 public:
  RunComparisonView(std::filesystem::path projectFile, qint64 datasetId, QWidget* parent = nullptr);

  static QString keyFor(qint64 datasetId);
  qint64 datasetId() const noexcept { return m_datasetId; }
  // Reads the dataset's runs again off the GUI thread (they may have changed): reloaded() follows.
  void reload();

  QTableWidget* table() const noexcept { return m_table; }
  const core::RunComparison& comparison() const noexcept { return m_comparison; }
  // The column of a header title ("Model", "Topics", "Perplexity", "Time"), -1 when none.
  int column(const QString& title) const;
  // The run of a table row as it is sorted now.
  qint64 runAt(int row) const;

 Q_SIGNALS:
  void openRunRequested(qint64 runId);
  void reloaded();

 private:
  void fill();

  std::filesystem::path m_projectFile;
  qint64 m_datasetId;
  int m_generation = 0;
  QString m_datasetName;
  core::RunComparison m_comparison;
  QLabel* m_summary = nullptr;
  QTableWidget* m_table = nullptr;
};

}  // namespace latent::ui
