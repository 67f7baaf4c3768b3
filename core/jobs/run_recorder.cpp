// SPDX-License-Identifier: GPL-3.0-or-later
// RunRecorder: batching of metric rows.
#include "jobs/run_recorder.hpp"

#include <cmath>


namespace latent::core {

RunRecorder::~RunRecorder() {
  try {
    flush();
  } catch (...) {
    // A destructor must not throw; runFit flushes explicitly and reports failures.
  }
}

bool RunRecorder::onReport(const IterationReport& report) {
  if (!report.inChain()) return true;  // not part of the stored series (FitPhase)
  MetricRow row;
  row.iteration = report.iteration;
  row.seconds = report.seconds;
  if (std::isfinite(report.trainObjective)) row.trainObjective = report.trainObjective;
  row.heldout = report.heldout;
  for (const auto& [key, value] : report.extras) row.extras[key] = value;
  m_pending.push_back(std::move(row));
  m_all.push_back(report);
  if (m_pending.size() >= 256 || m_sinceFlush.seconds() >= 0.5) flush();
  return true;
}

void RunRecorder::onSnapshot(std::shared_ptr<const ModelSnapshot> snapshot) {
  if (!snapshot) return;
  flush();
  Transaction tx(m_project.db());
  for (const auto& m : snapshot->matrices) saveMatrix(m_project, m_runId, m.name, snapshot->iteration, m.values);
  tx.commit();
}

void RunRecorder::flush() {
  m_sinceFlush.restart();
  if (m_pending.empty()) return;
  appendMetrics(m_project, m_runId, m_pending);
  m_pending.clear();
}

}  // namespace latent::core
