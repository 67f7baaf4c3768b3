// SPDX-License-Identifier: GPL-3.0-or-later
// The Memberships page of a block-model run (000 Fig. 27.22): the simplex of memberships, with
// stacked bars per node when there are more than three blocks, what the picture is from (the
// final result or an iteration's snapshot), and, while the run goes, the latest snapshot read
// again as reports arrive (off the GUI thread, at most about twice a second).
#pragma once

#include <QWidget>

#include <filesystem>
#include <memory>

#include "ui/runs/live_snapshot_follower.hpp"

class QLabel;
class QSplitter;

namespace latent::ui {

class JobController;
class MembershipBarsView;
class MembershipSimplexView;
struct BlockRunData;

class MembershipPage final : public QWidget {
  Q_OBJECT

 public:
  explicit MembershipPage(QWidget* parent = nullptr);

  // Shows a result (final, or a stopped run's last snapshot) and stops following.
  void setData(std::shared_ptr<const BlockRunData> data);
  // Follows a running run until its controller ends: after reports arrive the latest snapshot
  // of the memberships is read, and shown when it is newer than the one shown.
  void follow(std::filesystem::path projectFile, qint64 runId, JobController* controller);
  bool isFollowing() const noexcept { return m_follower.isFollowing(); }

  const std::shared_ptr<const BlockRunData>& data() const noexcept { return m_data; }
  // The iteration of the snapshot shown, -1 for the final result, -2 when nothing is shown.
  qint64 shownIteration() const noexcept;
  QString headerText() const;
  MembershipSimplexView* simplex() const noexcept { return m_simplex; }
  MembershipBarsView* bars() const noexcept { return m_bars; }
  bool showsBars() const noexcept;

 Q_SIGNALS:
  // A live snapshot is shown (the first one, and each newer one after it).
  void snapshotShown(qint64 iteration);

 private:
  void show(std::shared_ptr<const BlockRunData> data, bool live);

  std::shared_ptr<const BlockRunData> m_data;
  LiveSnapshotFollower m_follower;

  QLabel* m_header = nullptr;
  QLabel* m_hint = nullptr;
  QSplitter* m_split = nullptr;
  MembershipSimplexView* m_simplex = nullptr;
  MembershipBarsView* m_bars = nullptr;
};

}  // namespace latent::ui
