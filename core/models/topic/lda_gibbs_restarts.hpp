// SPDX-License-Identifier: GPL-3.0-or-later
// lda-gibbs's restarts: several random starts, each run a few sweeps and scored by its log joint,
// and the start the run's chain continues from (option "restarts", and "warp_start").
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <stop_token>
#include <vector>

#include <Eigen/Core>

#include "core/models/fit_driver.hpp"
#include "core/models/topic/lda_gibbs.hpp"
#include "core/models/topic/lda_gibbs_state.hpp"
#include "core/models/topic/lda_gibbs_steps.hpp"
#include "core/models/topic/lda_gibbs_warp_kernel.hpp"
#include "core/util/clock.hpp"
#include "core/util/random.hpp"

namespace latent::core::topic {

// Restarts (option "restarts"). A single chain can settle with two true topics merged into one and
// another split in two, and stay so for the whole run (tests/evidence, tst_lda_methods_agree). Each
// start samples from its own random assignments, alpha and beta fixed, and is scored by its log
// joint (001 eq. 3); the best continues as the run's chain for all its iterations (chooseStart).
// Start 1 is the chain a single start would be, so restarts = 1 is exactly the run without restarts.
inline constexpr std::uint64_t kLdaGibbsRestartStream = 0x4C44414749424253ULL;  // "LDAGIBBS"

// The chain's random start, for corpora small enough that the textbook's before-and-after
// picture (000 Fig. 27.8) can be drawn from the run.
inline std::optional<Eigen::MatrixXd> initialTopics(const LdaGibbsState& state) {
  if (!state.holdsEveryToken() || state.tokenCount() > kMaxInitialStateTokens) return std::nullopt;
  Eigen::MatrixXd initial(state.tokenCount(), 1);
  Eigen::Index row = 0;
  for (const auto& document : state.tokenTopics())
    for (const auto z : document) initial(row++, 0) = z;
  return initial;
}

// One start of the restarts.
struct Start {
  std::unique_ptr<LdaGibbsState> state;
  std::optional<Eigen::MatrixXd> initial;  // its random start (small corpora only)
  std::int64_t index = 1;                  // 1-based
  double logJoint = 0.0;                   // after its last sweep
};

// The start the run's chain continues from, and what the restarts measured.
struct ChosenStart {
  Start start;
  std::vector<double> logJointsPerToken;       // every start after `sweeps`, in order
  std::vector<double> finalLogJointsPerToken;  // the finalists after 2 x `sweeps`
  std::vector<std::int64_t> finalists;         // 1-based
  double seconds = 0.0;                        // spent on the restarts
  double warpStartSeconds = 0.0;               // spent on the warp sampler's sweeps (warp_start)
  bool cancelled = false;                      // stopped, or the observer asked to stop
};

// How many starts go on to the second round.
inline constexpr std::size_t kFinalists = 2;

// Restarts in two rounds: every start runs `sweeps` sweeps, the kFinalists with the highest log
// joint run `sweeps` more, and the higher of those is kept. The second round is there because
// after one short round a start that fell quickly into a merged optimum can lead one still on its
// way to a better one (see LdaGibbsOptions::table()). Starts run one after another: at K = 1000
// one kernel's tables are large, so only one kernel exists at a time and the starts kept between
// sweeps keep just their state (a kernel is rebuilt from a state's assignments). Reports of the
// Restarts phase, before the kept chain's first sweep, say which start and sweep the run is at.
//
// With warp_start, every start first runs that many sweeps of the warp sampler from its random
// assignments (its `initial` stays the random start).
template <typename Kernel, typename MakeKernel, typename MakeState>
ChosenStart chooseStart(std::unique_ptr<LdaGibbsState> first, const MakeKernel& makeKernel, const MakeState& makeState,
                        std::int64_t restarts, std::int64_t sweeps, std::int64_t warpStart,
                        const LdaGibbsOptions& options, const FitSettings& settings, TrainingObserver& observer,
                        const std::stop_token& stop, const Stopwatch& clock) {
  ChosenStart chosen;
  chosen.start.initial = initialTopics(*first);
  chosen.start.state = std::move(first);
  // The warp sampler's sweeps from a start (option warp_start); false when stopped. Reports of
  // the WarpStart phase say how far it is. mh_steps 1: at K = 1000 and 3000 the fastest setting to a
  // given perplexity early in a chain (tests/benchmarks/README.md).
  StartPhase warpPhase(FitPhase::WarpStart, settings, observer, stop, clock);
  const auto warpSweeps = [&](Start& start) {
    topic::WarpGibbsKernel warp(*start.state, 1);
    std::vector<double> unused;
    for (std::int64_t s = 1; s <= warpStart; ++s) {
      if (!warp.sweep(stop, false, unused) || !warpPhase.swept(start.index, s, warpStart)) return false;
      // The hyperparameters are re-estimated on the chain's schedule from the warm-up on (its sweeps
      // count towards the burn-in): held at their start values through the warm-up, the first
      // exact sweeps after it began from topics formed under the wrong alpha and beta, and a short
      // chain kept them.
      if (hyperparametersDue(options, s) && start.state->tokenCount() > 0)
        reestimateHyperparameters(warp, *start.state, {});
    }
    return !stop.stop_requested();
  };
  const auto warmUp = [&](Start& start) {
    if (warpStart <= 0) return true;
    const Stopwatch warming;
    const bool complete = warpSweeps(start);
    chosen.warpStartSeconds += warming.seconds();
    return complete;
  };
  if (restarts <= 1) {
    chosen.cancelled = !warmUp(chosen.start);
    return chosen;
  }
  const Stopwatch phase;
  const auto N = static_cast<double>(chosen.start.state->tokenCount());
  std::vector<double> logPriorParts;
  // Runs `sweeps` more sweeps of a start and sets its log joint; false when stopped.
  StartPhase restartPhase(FitPhase::Restarts, settings, observer, stop, clock);
  const auto run = [&](Start& start, std::int64_t firstSweep) {
    Kernel kernel = makeKernel(*start.state);
    const std::int64_t last = firstSweep + sweeps - 1;
    for (std::int64_t s = firstSweep; s <= last; ++s) {
      if (!kernel.sweep(stop, s == last, logPriorParts)) return false;
      IterationReport report;
      if (s == last) {
        start.logJoint = logJoint(kernel, *start.state, logPriorParts);
        if (N > 0) report.extras.emplace_back("restart_log_joint_per_token", start.logJoint / N);
      }
      if (!restartPhase.swept(start.index, s, last, std::move(report))) return false;
    }
    return true;
  };
  const auto perToken = [&](double value) { return N > 0 ? value / N : 0.0; };
  const auto higher = [](const Start& a, const Start& b) { return a.logJoint > b.logJoint; };

  // Round 1. Start r > 0 draws its assignments and its partitions' streams from a seed derived
  // from the run's, so the restarts too depend only on seed and partitioning. At most
  // kFinalists + 1 states exist at a time.
  std::vector<Start> finalists;
  for (std::int64_t r = 0; r < restarts; ++r) {
    Start start;
    start.index = r + 1;
    if (r == 0) {
      start = std::move(chosen.start);
      start.index = 1;
    } else {
      start.state = makeState(Rng(settings.seed, kLdaGibbsRestartStream + static_cast<std::uint64_t>(r)).next());
      start.initial = initialTopics(*start.state);
    }
    if (!warmUp(start) || !run(start, 1)) {
      // Stopped: the run ends with the best start so far, or this one when there is none.
      chosen.cancelled = true;
      chosen.start = finalists.empty() ? std::move(start) : std::move(finalists.front());
      chosen.seconds = phase.seconds();
      return chosen;
    }
    chosen.logJointsPerToken.push_back(perToken(start.logJoint));
    finalists.push_back(std::move(start));
    std::stable_sort(finalists.begin(), finalists.end(), higher);  // ties: the earlier start first
    if (finalists.size() > kFinalists) finalists.pop_back();
  }

  // Round 2: the finalists in the order of their start. When stopped in round 2 the finalist that
  // was cut short still holds consistent assignments; the choice then only uses those that finished.
  std::sort(finalists.begin(), finalists.end(), [](const Start& a, const Start& b) { return a.index < b.index; });
  StartPhase finalRound(FitPhase::Restarts, settings, observer, stop, clock);
  for (std::size_t i = 0; i < finalists.size(); ++i) {
    auto& start = finalists[i];
    chosen.finalists.push_back(start.index);
    if (!run(start, sweeps + 1)) {
      chosen.cancelled = true;
      break;
    }
    chosen.finalLogJointsPerToken.push_back(perToken(start.logJoint));
    finalRound.scored(static_cast<std::int64_t>(i) + 1, start.logJoint);
  }
  chosen.start = std::move(finalists[static_cast<std::size_t>(std::max<std::int64_t>(finalRound.best(), 1) - 1)]);
  chosen.seconds = phase.seconds();
  return chosen;
}

}  // namespace latent::core::topic
