// SPDX-License-Identifier: GPL-3.0-or-later
// The Weights page of a harmonium run: the weight heat map with a line that says what it is from
// (the final result or a snapshot), and, while the run goes, the latest snapshot read again as
// reports arrive (off the GUI thread with its ordering, at most about twice a second), so that
// the units can be watched taking shape.
#pragma once

#include <QWidget>

#include <filesystem>
#include <memory>

#include "ui/runs/live_snapshot_follower.hpp"

class QLabel;
class QScrollArea;

namespace latent::ui {

class JobController;
class WeightHeatmapView;
struct HiddenRunData;

class HiddenWeightsPage final : public QWidget {
  Q_OBJECT

 public:
  explicit HiddenWeightsPage(QWidget* parent = nullptr);

  // Shows a result (final, or a stopped run's last snapshot) and stops following.
  void setData(std::shared_ptr<const HiddenRunData> data);
  // Follows a running run until its controller ends: after reports arrive the latest snapshot of
  // the weights is read, and shown when it is newer than the one shown.
  void follow(std::filesystem::path projectFile, qint64 runId, JobController* controller);
  bool isFollowing() const noexcept { return m_follower.isFollowing(); }

  const std::shared_ptr<const HiddenRunData>& data() const noexcept { return m_data; }
  // The epoch of the snapshot shown, -1 for the final result, -2 when nothing is shown.
  qint64 shownIteration() const noexcept;
  QString headerText() const;
  WeightHeatmapView* heatmap() const noexcept { return m_heatmap; }

 Q_SIGNALS:
  // A live snapshot is shown (the first one, and each newer one after it).
  void snapshotShown(qint64 iteration);

 private:
  void show(std::shared_ptr<const HiddenRunData> data, bool live);

  std::shared_ptr<const HiddenRunData> m_data;
  LiveSnapshotFollower m_follower;

  QLabel* m_header = nullptr;
  QLabel* m_hint = nullptr;
  QScrollArea* m_scroll = nullptr;
  WeightHeatmapView* m_heatmap = nullptr;
};

}  // namespace latent::ui
