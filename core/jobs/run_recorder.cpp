// SPDX-License-Identifier: GPL-3.0-or-later
// RunRecorder: batching of metric rows and snapshots, and tries at the write lock that never wait.
#include "core/jobs/run_recorder.hpp"

#include <chrono>
#include <cmath>

#include "core/jobs/stored_precision.hpp"
#include "core/store/snapshot_retention.hpp"

namespace latent::core {
namespace {

// The longest a try on the model's thread waits for the write lock: enough to pass another
// writer's short transaction, too little for the model to notice.
constexpr std::chrono::milliseconds kTryWait{10};
// After a try found the lock taken, the next one waits this long, so a fit reporting every
// millisecond does not spend its time knocking on a locked file.
constexpr double kBusyPauseSeconds = 0.25;

}  // namespace

RunRecorder::~RunRecorder() {
  try {
    tryFlush();
  } catch (...) {
    // A destructor must not throw; runFit writes what waits in its final transaction.
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
  if (m_pending.size() >= 256 || m_sinceFlush.seconds() >= 0.5) tryFlush();
  return true;
}

void RunRecorder::onSnapshot(std::shared_ptr<const ModelSnapshot> snapshot) {
  if (!snapshot) return;
  for (std::size_t i = 0; i < snapshot->matrices.size(); ++i)
    m_matrices[snapshot->matrices[i].name] = {snapshot->iteration, snapshot, i, false};
  for (std::size_t i = 0; i < snapshot->sparseMatrices.size(); ++i)
    m_matrices[snapshot->sparseMatrices[i].name] = {snapshot->iteration, snapshot, i, true};
  tryFlush();
}

bool RunRecorder::tryFlush() {
  if (m_pending.empty() && m_matrices.empty()) {
    m_sinceFlush.restart();
    return true;
  }
  if (m_busy && m_sinceBusy.seconds() < kBusyPauseSeconds) return false;
  {
    Transaction tx(m_project.db(), kTryWait);
    if (tx.active()) {
      try {
        writePending();
        tx.commit();
        m_busy = false;
        clearPending();
        return true;
      } catch (const StoreError& e) {
        if (!e.busy()) throw;
      }
    }
  }
  m_busy = true;
  m_sinceBusy.restart();
  return false;
}

void RunRecorder::writePending() {
  appendMetrics(m_project, m_runId, m_pending);
  for (const auto& [name, m] : m_matrices) {
    if (m.sparse) {
      const auto& values = m.snapshot->sparseMatrices[m.index].values;
      saveSparseMatrix(m_project, m_runId, name, m.iteration, values, storedElement(name, values.rows, values.cols));
      continue;
    }
    saveResultMatrix(m_project, m_runId, m.iteration, m.snapshot->matrices[m.index]);
  }
  if (!m_matrices.empty()) thinSnapshots(m_project, m_runId, m_retention);
}

void RunRecorder::clearPending() {
  m_pending.clear();
  m_matrices.clear();
  m_sinceFlush.restart();
}

}  // namespace latent::core
