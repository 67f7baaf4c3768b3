// SPDX-License-Identifier: GPL-3.0-or-later
// The observer that writes a run's reports and snapshots into the project file as it goes.
#pragma once

#include <cstdint>
#include <vector>

#include "models/training.hpp"
#include "store/run_store.hpp"
#include "util/clock.hpp"

namespace latent::core {

// Metrics are written in batches, one short transaction each (at most twice a second, or every
// 256 reports), so that recording costs the fit almost nothing and a killed run loses at most
// half a second of curve. Snapshots are written at once: they are what a stopped run keeps.
class RunRecorder final : public TrainingObserver {
 public:
  RunRecorder(Project& project, std::int64_t runId) : m_project(project), m_runId(runId) {}
  ~RunRecorder() override;

  bool onReport(const IterationReport& report) override;
  void onSnapshot(std::shared_ptr<const ModelSnapshot> snapshot) override;
  void flush();

  const std::vector<IterationReport>& reports() const noexcept { return m_all; }

 private:
  Project& m_project;
  std::int64_t m_runId;
  std::vector<MetricRow> m_pending;
  std::vector<IterationReport> m_all;
  Stopwatch m_sinceFlush;
};

}  // namespace latent::core
