// SPDX-License-Identifier: GPL-3.0-or-later
// Choosing K: fit a model for a list of values of one option (the number of topics or blocks) and
// compare their held-out metric (000 §27.3.8). Each point is an ordinary recorded run.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <stop_token>
#include <string>
#include <vector>

#include "core/jobs/fit_job.hpp"

namespace latent::core {

struct SweepRequest {
  RunRequest base;                   // everything but the varying option
  std::string parameter = "k";       // the option that varies (an Integer option of the model)
  std::vector<std::int64_t> values;  // at least two, all different
};

struct SweepOutcome {
  std::int64_t sweepId = 0;
  std::vector<RunRecord> runs;  // one per value, in the order given
  bool stopped = false;         // a stop request ended the sweep early
};

// Checks the request before anything is written (UsageError): a corpus or graph with a held-out
// fraction above zero (a sweep compares held-out metrics), a model with the parameter, values in
// its range.
void validateSweepRequest(Project& project, const SweepRequest& request);

// Runs the points one after the other. `observer` sees every report of every point; `onPoint` is
// told when each point's run has finished. A stop request stops the current point (recorded as
// stopped) and the sweep. `wait` is each point's (runFit): how its writes wait for the lock.
SweepOutcome runSweep(const std::filesystem::path& projectFile, const SweepRequest& request, TrainingObserver* observer,
                      std::stop_token stop,
                      const std::function<void(std::int64_t value, const RunRecord&)>& onPoint = {},
                      const WriteWait& wait = {});

}  // namespace latent::core
