// SPDX-License-Identifier: GPL-3.0-or-later
// What a model tells the outside world while it trains: reports, snapshots, its final status.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "core/data/filled_sparse_matrix.hpp"
#include "core/data/named_matrix.hpp"

namespace latent::core {

enum class FitStatus {
  Converged,      // met its convergence test
  MaxIterations,  // ran the iterations it was given
  Cancelled,      // stopped on request; the state reached is kept
  Failed,
};

// Named statusName, not toString: QTest's QCOMPARE finds a toString of the compared type by
// argument-dependent lookup and frees what it returns, so one returning a literal crashed a test
// at the failure it was about to report (store/run_store.hpp says more).
constexpr const char* statusName(FitStatus s) noexcept {
  switch (s) {
    case FitStatus::Converged:
      return "converged";
    case FitStatus::MaxIterations:
      return "max-iterations";
    case FitStatus::Cancelled:
      return "cancelled";
    case FitStatus::Failed:
      return "failed";
  }
  return "failed";
}

// The part of a fit a report belongs to. Only the chain's reports make the per-iteration series
// (stored in the project, printed by `fit --json`: DESIGN §6 lines stay one per evaluated
// iteration); the others show progress live and the final metrics sum them up.
enum class FitPhase {
  Chain,      // the run's chain: iterations 1..N
  Restarts,   // a short chain from one of several starts, before the chain the run keeps
  WarpStart,  // lda-gibbs's warp sampler sweeps from a start (its option warp_start)
};

// One report per evaluated iteration (DESIGN §4).
struct IterationReport {
  FitPhase phase = FitPhase::Chain;
  std::int64_t start = 0;      // Restarts and WarpStart: which start, 1-based
  std::int64_t iteration = 0;  // Chain: the iteration, 1-based; Restarts and WarpStart: the start's sweep
  double seconds = 0.0;        // since the fit started
  double trainObjective = std::numeric_limits<double>::quiet_NaN();
  std::optional<double> heldout;                       // the held-out metric, when evaluated at this iteration
  std::vector<std::pair<std::string, double>> extras;  // model-specific (alpha, K, ...)

  // The extra called `name`; nothing when the model did not add it.
  std::optional<double> extra(std::string_view name) const noexcept {
    for (const auto& [key, value] : extras)
      if (key == name) return value;
    return std::nullopt;
  }
  bool inChain() const noexcept { return phase == FitPhase::Chain; }
};

// A picture of the parameters in the middle of a run: written to the project so that a stopped
// or killed run keeps what it reached, and drawn by live views.
struct ModelSnapshot {
  std::int64_t iteration = 0;
  std::vector<NamedMatrix> matrices;
  // Matrices a model hands over in sparse form (lda-gibbs's topics), stored so; readers of the
  // project see them as the dense matrices they stand for.
  std::vector<NamedSparseMatrix> sparseMatrices;
};

// Called on the worker thread. Implementations stay cheap and never block: copy and post.
class TrainingObserver {
 public:
  virtual ~TrainingObserver() = default;
  // Returning false asks the model to stop, like a stop request.
  virtual bool onReport(const IterationReport& report) = 0;
  virtual void onSnapshot(std::shared_ptr<const ModelSnapshot> snapshot) { (void)snapshot; }
};

// Forwards to several observers; stops when any of them asks to.
class ObserverList final : public TrainingObserver {
 public:
  void add(TrainingObserver* observer) {
    if (observer) m_observers.push_back(observer);
  }
  bool onReport(const IterationReport& report) override {
    bool keepGoing = true;
    for (auto* o : m_observers) keepGoing = o->onReport(report) && keepGoing;
    return keepGoing;
  }
  void onSnapshot(std::shared_ptr<const ModelSnapshot> snapshot) override {
    for (auto* o : m_observers) o->onSnapshot(snapshot);
  }

 private:
  std::vector<TrainingObserver*> m_observers;
};

}  // namespace latent::core
