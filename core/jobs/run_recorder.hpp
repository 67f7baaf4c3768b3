// SPDX-License-Identifier: GPL-3.0-or-later
// The observer that writes a run's reports and snapshots into the project file as it goes.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/models/training.hpp"
#include "core/store/run_store.hpp"
#include "core/store/snapshot_retention.hpp"
#include "core/util/clock.hpp"

namespace latent::core {

// Metric rows and snapshots wait in memory and are written together in one short transaction
// (at most twice a second, every 256 reports, or at once for a snapshot), so that recording
// costs the fit almost nothing and a killed run loses at most the last half second of curve.
//
// The observer runs on the model's thread and must stay cheap: it never waits for the write
// lock. When another process holds it (an import, a fit, a sqlite3 shell), a try gives up at
// once and everything is kept for a later try; a newer snapshot of a matrix replaces an older
// one not yet written. runFit writes what is still waiting in its final transaction, which waits
// for the lock as long as it takes (writePending, clearPending).
class RunRecorder final : public TrainingObserver {
 public:
  RunRecorder(Project& project, std::int64_t runId)
      : m_project(project), m_runId(runId), m_retention(snapshotRetentionFromEnvironment()) {}
  ~RunRecorder() override;

  bool onReport(const IterationReport& report) override;
  void onSnapshot(std::shared_ptr<const ModelSnapshot> snapshot) override;

  // Writes what waits when the write lock can be had at once; false when it is kept for later.
  bool tryFlush();
  // Within the caller's transaction: what waits. Run again when that transaction is retried, so
  // it is only forgotten by clearPending, once the caller has committed.
  void writePending();
  void clearPending();

  const std::vector<IterationReport>& reports() const noexcept { return m_all; }

 private:
  // The newest snapshot of one matrix that is not written yet.
  struct PendingMatrix {
    std::int64_t iteration = 0;
    std::shared_ptr<const ModelSnapshot> snapshot;  // shared with the other matrices it holds
    std::size_t index = 0;                          // in snapshot->matrices, or sparseMatrices
    bool sparse = false;
  };

  Project& m_project;
  std::int64_t m_runId;
  SnapshotRetention m_retention;
  std::vector<MetricRow> m_pending;
  std::map<std::string, PendingMatrix> m_matrices;
  std::vector<IterationReport> m_all;
  Stopwatch m_sinceFlush;
  Stopwatch m_sinceBusy;  // since a try last found the lock taken
  bool m_busy = false;
};

}  // namespace latent::core
