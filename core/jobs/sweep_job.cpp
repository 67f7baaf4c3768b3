// SPDX-License-Identifier: GPL-3.0-or-later
// runSweep: a sweep record, then one runFit per value.
#include "core/jobs/sweep_job.hpp"

#include <algorithm>
#include <set>

#include "core/util/errors.hpp"

namespace latent::core {

void validateSweepRequest(Project& project, const SweepRequest& request) {
  if (request.values.size() < 2) throw UsageError("a sweep needs at least two values of --" + request.parameter);
  if (std::set<std::int64_t>(request.values.begin(), request.values.end()).size() != request.values.size())
    throw UsageError("the values of --" + request.parameter + " in a sweep must all be different");
  if (!(request.base.heldout > 0.0))
    throw UsageError("a sweep compares held-out metrics: give --heldout a fraction above 0");
  const auto model = createModel(request.base.model);
  const auto& options = model->info().options;
  const auto spec =
      std::find_if(options.begin(), options.end(), [&](const auto& o) { return o.name == request.parameter; });
  if (spec == options.end() || spec->type != OptionSpec::Type::Integer)
    throw UsageError("model " + request.base.model + " has no whole-number option --" + request.parameter +
                     " to sweep");
  // Each point must be a valid run on its own.
  for (const auto value : request.values) {
    RunRequest point = request.base;
    point.options[request.parameter] = value;
    validateRunRequest(project, point);
  }
}

SweepOutcome runSweep(const std::filesystem::path& projectFile, const SweepRequest& request, TrainingObserver* observer,
                      std::stop_token stop, const std::function<void(std::int64_t value, const RunRecord&)>& onPoint,
                      const WriteWait& wait) {
  SweepOutcome outcome;
  {
    Project project(projectFile, Project::Access::ReadWriteExisting);
    validateSweepRequest(project, request);
    const auto dataset = project.resolveDataset(request.base.dataset);
    writeWhenFree(project.db(), wait,
                  [&] { outcome.sweepId = createSweep(project, dataset.id, request.base.model, request.parameter); });
  }
  for (const auto value : request.values) {
    if (stop.stop_requested()) {
      outcome.stopped = true;
      break;
    }
    RunRequest point = request.base;
    point.options[request.parameter] = value;
    point.sweepId = outcome.sweepId;
    const auto run = runFit(projectFile, point, observer, stop, {}, wait).run;
    outcome.runs.push_back(run);
    if (onPoint) onPoint(value, run);
    if (run.status == RunStatus::Stopped) {
      outcome.stopped = true;
      break;
    }
  }
  return outcome;
}

}  // namespace latent::core
