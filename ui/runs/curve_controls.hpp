// SPDX-License-Identifier: GPL-3.0-or-later
// The row above a run's training chart: x axis (iteration or wall time), log scale for the
// held-out metric, and "Compare with" other runs of the same dataset, whose held-out curves the
// chart overlays (only runs scored by the same held-out metric on the same held-out fraction).
#pragma once

#include <QWidget>

#include <filesystem>
#include <map>
#include <vector>

#include "core/store/run_store.hpp"

class QCheckBox;
class QComboBox;
class QMenu;
class QPushButton;

namespace latent::ui {

class MetricsChart;

// "#12 lda-vb · k 20, alpha 0.1": the model and the options that differ from `reference`'s
// (at most three), so overlaid runs can be told apart.
QString comparisonLabel(const core::RunRecord& run, const core::RunRecord& reference);

// Runs whose held-out curves can share an axis with `reference`'s: same dataset and held-out
// fraction, a model with the same held-out metric, not `reference` itself, with a held-out value.
std::vector<core::RunRecord> comparableCurves(const std::vector<core::RunRecord>& runs,
                                              const core::RunRecord& reference);

class CurveControls final : public QWidget {
  Q_OBJECT

 public:
  CurveControls(MetricsChart* chart, QWidget* parent = nullptr);

  // The run whose tab this is (after each reload); the list of runs to compare is read again
  // when the menu opens.
  void setRun(const std::filesystem::path& projectFile, const core::RunRecord& run);

  QComboBox* xAxisBox() const noexcept { return m_xAxis; }
  QCheckBox* logBox() const noexcept { return m_log; }
  QPushButton* compareButton() const noexcept { return m_compare; }
  // Overlays run `runId` (true) or removes it; its metrics are read in the background.
  void compareWith(qint64 runId, bool on);
  // The runs offered in the menu the last time it was filled.
  const std::vector<core::RunRecord>& candidates() const noexcept { return m_candidates; }

 Q_SIGNALS:
  void candidatesLoaded();
  void overlaysChanged();

 private:
  void fillMenu();
  void applyOverlays();

  MetricsChart* m_chart;
  std::filesystem::path m_projectFile;
  core::RunRecord m_run;
  QComboBox* m_xAxis = nullptr;
  QCheckBox* m_log = nullptr;
  QPushButton* m_compare = nullptr;
  QMenu* m_menu = nullptr;
  std::vector<core::RunRecord> m_candidates;
  std::map<qint64, std::pair<QString, std::vector<core::MetricRow>>> m_compared;  // run id -> label, metrics
  int m_generation = 0;
};

}  // namespace latent::ui
