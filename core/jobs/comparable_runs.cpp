// SPDX-License-Identifier: GPL-3.0-or-later
// Finding the runs that differ from one run only in K.
#include "core/jobs/comparable_runs.hpp"

#include <algorithm>
#include <utility>

namespace latent::core {

std::vector<KPoint> comparableRuns(const std::vector<RunRecord>& runs, const RunRecord& reference,
                                   const std::string& heldoutKey, const std::string& parameter) {
  auto withoutParameter = [&](nlohmann::json options) {
    if (options.is_object()) options.erase(parameter);
    return options;
  };
  const auto referenceOptions = withoutParameter(reference.options);
  std::vector<KPoint> points;
  for (const auto& run : runs) {
    if (run.status != RunStatus::Finished || run.datasetId != reference.datasetId || run.model != reference.model ||
        run.heldout != reference.heldout)
      continue;
    if (!run.options.is_object() || !run.options.contains(parameter) || !run.options[parameter].is_number_integer())
      continue;
    if (withoutParameter(run.options) != referenceOptions) continue;
    const auto& metrics = run.finalMetrics;
    if (!metrics.contains(heldoutKey) || !metrics[heldoutKey].is_number()) continue;
    KPoint p;
    p.runId = run.id;
    p.k = run.options[parameter].get<std::int64_t>();
    p.seed = run.seed;
    p.heldout = metrics[heldoutKey].get<double>();
    if (metrics.contains("icl") && metrics["icl"].is_number()) p.icl = metrics["icl"].get<double>();
    if (const auto full = heldoutKey + "_full_folding_in"; metrics.contains(full) && metrics[full].is_number())
      p.fullFoldingIn = metrics[full].get<double>();
    points.push_back(p);
  }
  std::sort(points.begin(), points.end(),
            [](const KPoint& a, const KPoint& b) { return std::pair(a.k, a.runId) < std::pair(b.k, b.runId); });
  return points;
}

}  // namespace latent::core
