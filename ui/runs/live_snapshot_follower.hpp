// SPDX-License-Identifier: GPL-3.0-or-later
// Follows a running job for a result page: after reports arrive, the page's read of the latest
// snapshot runs off the GUI thread (the GUI thread never touches the project), at most once per
// interval, never two at a time, and a read that was under way when following stopped or
// restarted is dropped. What is read and how it is shown stay with the page.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QTimer>

#include <functional>
#include <utility>

#include "ui/util/background.hpp"

namespace latent::ui {

class JobController;

class LiveSnapshotFollower final : public QObject {
  Q_OBJECT

 public:
  // Reads start at most every `intervalMs` milliseconds: each one opens the project and builds the
  // page's data, too much work to repeat on every report.
  explicit LiveSnapshotFollower(int intervalMs, QObject* parent = nullptr);

  // Stops following what was followed, then follows `controller` until it ends (nothing when it is
  // null or has ended), reading once straight away since a snapshot may exist already.
  // `makeRead()` runs on the GUI thread at the start of each read and returns the work that runs
  // off it (see runInBackground: it captures what it needs by value, such as the data shown now);
  // `onLoaded(result)` runs on the GUI thread with that work's result unless the read is stale.
  template <typename MakeRead, typename OnLoaded>
  void follow(JobController* controller, MakeRead makeRead, OnLoaded onLoaded) {
    startFollowing(controller, [this, makeRead = std::move(makeRead), onLoaded = std::move(onLoaded)] {
      const int generation = m_generation;
      // onLoaded is copied into each read so that a new follow() from inside it cannot free it.
      runInBackground(this, makeRead(), [this, generation, onLoaded](auto loaded) {
        if (!finishRead(generation)) return;
        onLoaded(std::move(loaded));
        readAgainIfAsked();
      });
    });
  }

  // Stops following; a read under way is dropped when it returns.
  void stop();
  bool isFollowing() const noexcept { return !m_controller.isNull(); }

 private:
  void startFollowing(JobController* controller, std::function<void()> startRead);
  // Reads now, or later when the last read was too recent or is still under way.
  void refresh();
  // Marks the read done; false when it is stale (following stopped or restarted since it began).
  bool finishRead(int generation);
  void readAgainIfAsked();

  const int m_intervalMs;
  std::function<void()> m_startRead;
  QPointer<JobController> m_controller;
  QTimer m_throttle;
  QElapsedTimer m_sinceLoad;
  bool m_loading = false;
  bool m_again = false;  // reports arrived while a read was under way: read again after it
  int m_generation = 0;
};

}  // namespace latent::ui
