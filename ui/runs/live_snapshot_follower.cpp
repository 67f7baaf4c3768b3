// SPDX-License-Identifier: GPL-3.0-or-later
// LiveSnapshotFollower: when to read (throttled, one at a time) and which reads still count.
#include "ui/runs/live_snapshot_follower.hpp"

#include "ui/jobs/job_controller.hpp"

namespace latent::ui {

LiveSnapshotFollower::LiveSnapshotFollower(int intervalMs, QObject* parent)
    : QObject(parent), m_intervalMs(intervalMs) {
  m_throttle.setSingleShot(true);
  connect(&m_throttle, &QTimer::timeout, this, &LiveSnapshotFollower::refresh);
}

void LiveSnapshotFollower::startFollowing(JobController* controller, std::function<void()> startRead) {
  stop();
  if (!controller || controller->state() == JobController::State::Ended) return;
  m_startRead = std::move(startRead);
  m_controller = controller;
  connect(controller, &JobController::reportsArrived, this, &LiveSnapshotFollower::refresh);
  connect(controller, &JobController::ended, this, &LiveSnapshotFollower::stop);
  refresh();  // a snapshot may exist already
}

void LiveSnapshotFollower::stop() {
  if (m_controller) disconnect(m_controller, nullptr, this, nullptr);
  m_controller = nullptr;
  m_throttle.stop();
  m_again = false;
  ++m_generation;  // a reading under way is dropped
}

void LiveSnapshotFollower::refresh() {
  if (!m_controller) return;
  if (m_loading) {
    m_again = true;
    return;
  }
  if (m_sinceLoad.isValid() && m_sinceLoad.elapsed() < m_intervalMs) {
    if (!m_throttle.isActive()) m_throttle.start(m_intervalMs - static_cast<int>(m_sinceLoad.elapsed()));
    return;
  }
  m_loading = true;
  m_sinceLoad.restart();
  m_startRead();
}

bool LiveSnapshotFollower::finishRead(int generation) {
  m_loading = false;
  return generation == m_generation;
}

void LiveSnapshotFollower::readAgainIfAsked() {
  if (!m_again) return;
  m_again = false;
  refresh();
}

}  // namespace latent::ui
