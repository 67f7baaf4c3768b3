// SPDX-License-Identifier: GPL-3.0-or-later
// The chain loop and the phase of starts shared by every model.
#include "core/models/fit_driver.hpp"

#include <utility>

#include "core/models/option_specs.hpp"

namespace latent::core {

FitResult driveChain(FitChain& chain, const ChainSchedule& schedule, const FitSettings& settings,
                     TrainingObserver& observer, const std::stop_token& stop, const Stopwatch& clock,
                     bool alreadyCancelled) {
  FitResult result;
  bool cancelled = alreadyCancelled || stop.stop_requested();
  bool converged = false;
  const std::int64_t last = schedule.iterations;
  for (std::int64_t it = 1; it <= last && !cancelled; ++it) {
    StepPlan plan;
    plan.iteration = it;
    plan.last = last;
    plan.evaluate = evaluationDue(it, last, settings.evalEvery);
    plan.snapshot = schedule.snapshotEvery > 0 && it % schedule.snapshotEvery == 0;
    IterationReport report;
    report.iteration = it;
    if (!chain.step(plan, report)) {
      cancelled = true;
      break;
    }
    result.iterations = it;
    converged = chain.converged();
    if (plan.snapshot) {
      auto snapshot = std::make_shared<ModelSnapshot>();
      snapshot->iteration = it;
      snapshot->matrices = chain.snapshot(plan);
      snapshot->sparseMatrices = chain.sparseSnapshot(plan);
      observer.onSnapshot(std::move(snapshot));
    }
    if (schedule.reportEveryIteration || plan.evaluate || converged) {
      report.seconds = clock.seconds();
      if (!observer.onReport(report)) cancelled = true;
    }
    if (stop.stop_requested()) cancelled = true;
    if (converged) break;
  }
  result.status = cancelled ? FitStatus::Cancelled : converged ? FitStatus::Converged : FitStatus::MaxIterations;
  chain.finish(result);
  if (stop.stop_requested()) result.status = FitStatus::Cancelled;
  result.seconds = clock.seconds();
  return result;
}

StartPhase::StartPhase(FitPhase phase, const FitSettings& settings, TrainingObserver& observer,
                       const std::stop_token& stop, const Stopwatch& clock)
    : m_phase(phase), m_evalEvery(settings.evalEvery), m_observer(observer), m_stop(stop), m_fitClock(clock) {}

bool StartPhase::swept(std::int64_t start, std::int64_t sweep, std::int64_t lastSweep, IterationReport report,
                       bool always) {
  if (always || evaluationDue(sweep, lastSweep, m_evalEvery)) {
    report.phase = m_phase;
    report.start = start;
    report.iteration = sweep;
    report.seconds = m_fitClock.seconds();
    if (!m_observer.onReport(report)) return false;
  }
  return !m_stop.stop_requested();
}

bool StartPhase::scored(std::int64_t start, double score) {
  if (static_cast<std::int64_t>(m_scores.size()) < start) m_scores.resize(static_cast<std::size_t>(start));
  m_scores[static_cast<std::size_t>(start - 1)] = score;
  if (m_best == 0 || score > m_scores[static_cast<std::size_t>(m_best - 1)]) {
    m_best = start;
    return true;
  }
  return false;
}

}  // namespace latent::core
