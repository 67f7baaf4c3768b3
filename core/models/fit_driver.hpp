// SPDX-License-Identifier: GPL-3.0-or-later
// The loop every model's chain runs under: iterations, the evaluation cadence, snapshots, reports
// to the observer, stop requests, convergence, status and timing; and the phase of several
// starts before it (progress reports and the choice of the best start). A model supplies its
// chain (its state, one iteration, a snapshot, its results); the driver does everything around it.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <stop_token>
#include <vector>

#include "core/models/model.hpp"
#include "core/models/training.hpp"
#include "core/util/clock.hpp"

namespace latent::core {

// What the driver asks of one iteration.
struct StepPlan {
  std::int64_t iteration = 0;  // 1-based
  std::int64_t last = 0;       // the chain's last iteration
  bool evaluate = false;       // the held-out metric is due: set the report's heldout
  bool snapshot = false;       // FitChain::snapshot follows this step
};

// A model's chain as the driver runs it.
class FitChain {
 public:
  virtual ~FitChain() = default;
  // One iteration (sweep, pass, epoch); fills `report`'s objective, extras and, when
  // plan.evaluate, its held-out metric. False when a stop came before the iteration completed:
  // the state is then still the last complete one.
  virtual bool step(const StepPlan& plan, IterationReport& report) = 0;
  // After a step: whether the chain met its convergence test, which ends the run as Converged.
  virtual bool converged() const { return false; }
  // The matrices of a snapshot after the step of `plan`.
  virtual std::vector<NamedMatrix> snapshot(const StepPlan& plan) = 0;
  // Called after snapshot(): the snapshot's matrices in sparse form, for a model whose matrices
  // are mostly one value per row (lda-gibbs), so that no dense copy is made or stored.
  virtual std::vector<NamedSparseMatrix> sparseSnapshot(const StepPlan& plan) {
    (void)plan;
    return {};
  }
  // The run's results from the state reached, also when stopped: matrices, token topics, final
  // metrics. `result` arrives with status and iterations set; a model whose final evaluation is
  // cut short by a stop sets the status to Cancelled.
  virtual void finish(FitResult& result) = 0;
};

struct ChainSchedule {
  std::int64_t iterations = 1;
  std::int64_t snapshotEvery = 0;    // 0: no snapshots while running
  bool reportEveryIteration = true;  // false: only iterations due for evaluation (a costly objective)
};

// Runs `chain` for schedule.iterations (fewer when it converges or is stopped) and returns its
// results with status, iteration count and the seconds since `clock` started. With
// `alreadyCancelled` (a stop during the starts) the chain only finishes.
FitResult driveChain(FitChain& chain, const ChainSchedule& schedule, const FitSettings& settings,
                     TrainingObserver& observer, const std::stop_token& stop, const Stopwatch& clock,
                     bool alreadyCancelled = false);

// The phase of a fit before its chain in which several starts run (FitPhase::Restarts) or a
// start is warmed up (FitPhase::WarpStart): it reports their progress and keeps the scores.
class StartPhase {
 public:
  StartPhase(FitPhase phase, const FitSettings& settings, TrainingObserver& observer, const std::stop_token& stop,
             const Stopwatch& clock);

  // Sweep `sweep` of start `start` (1-based; 0: every start at once) is done. Reports it every
  // evalEvery sweeps and at `lastSweep` (every sweep with `always`), with what `report` carries
  // (objective, extras). False when the observer or a stop request ends the fit.
  bool swept(std::int64_t start, std::int64_t sweep, std::int64_t lastSweep, IterationReport report = {},
             bool always = false);

  // Records the score of `start`; true when it is the highest so far (of equal scores the
  // earlier start stays the best).
  bool scored(std::int64_t start, double score);
  std::int64_t best() const noexcept { return m_best; }  // 1-based; 0 before any score
  const std::vector<double>& scores() const noexcept { return m_scores; }
  double seconds() const noexcept { return m_clock.seconds(); }  // since the phase began

 private:
  FitPhase m_phase;
  int m_evalEvery;
  TrainingObserver& m_observer;
  std::stop_token m_stop;
  const Stopwatch& m_fitClock;
  Stopwatch m_clock;
  std::vector<double> m_scores;
  std::int64_t m_best = 0;
};

// Restarts of a chain that is seeded anew for each start (`chain.seed(r)`, r = 0, 1, ...): each
// start runs up to `sweeps` sweeps (`chain.sweep()`), fewer once its objective changes by less
// than `tolerance`, and is scored by its objective (`chain.objective()`); `keep()` is called when
// it is the best so far. A single start is only seeded. False when stopped.
template <typename Chain, typename Keep>
bool runSeededStarts(Chain& chain, StartPhase& phase, std::int64_t count, int sweeps, double tolerance, Keep&& keep) {
  for (std::int64_t r = 0; r < count; ++r) {
    if (!chain.seed(static_cast<std::uint64_t>(r))) return false;
    if (count == 1) return true;
    double previous = std::numeric_limits<double>::quiet_NaN();
    for (int i = 0; i < sweeps; ++i) {
      if (!chain.sweep() || !phase.swept(r + 1, i + 1, sweeps)) return false;
      if (i > 0 && std::abs(chain.objective() - previous) < tolerance) break;
      previous = chain.objective();
    }
    if (phase.scored(r + 1, chain.objective())) keep();
  }
  return true;
}

}  // namespace latent::core
