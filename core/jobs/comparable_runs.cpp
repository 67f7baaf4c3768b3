// SPDX-License-Identifier: GPL-3.0-or-later
// Finding the runs that differ from one run only in K, and other models' runs against K.
#include "core/jobs/comparable_runs.hpp"

#include <algorithm>
#include <optional>
#include <utility>

namespace latent::core {
namespace {

// The run as a point against `parameter`, when it qualifies: finished, an integer `parameter`
// and the held-out metric recorded.
std::optional<KPoint> pointOf(const RunRecord& run, const std::string& heldoutKey, const std::string& parameter) {
  if (run.status != RunStatus::Finished) return std::nullopt;
  if (!run.options.is_object() || !run.options.contains(parameter) || !run.options[parameter].is_number_integer())
    return std::nullopt;
  const auto& metrics = run.finalMetrics;
  if (!metrics.contains(heldoutKey) || !metrics[heldoutKey].is_number()) return std::nullopt;
  KPoint p;
  p.runId = run.id;
  p.k = run.options[parameter].get<std::int64_t>();
  p.seed = run.seed;
  p.heldout = metrics[heldoutKey].get<double>();
  if (metrics.contains("icl") && metrics["icl"].is_number()) p.icl = metrics["icl"].get<double>();
  if (const auto full = heldoutKey + "_full_folding_in"; metrics.contains(full) && metrics[full].is_number())
    p.fullFoldingIn = metrics[full].get<double>();
  return p;
}

void sortByK(std::vector<KPoint>& points) {
  std::sort(points.begin(), points.end(),
            [](const KPoint& a, const KPoint& b) { return std::pair(a.k, a.runId) < std::pair(b.k, b.runId); });
}

}  // namespace

std::vector<KPoint> comparableRuns(const std::vector<RunRecord>& runs, const RunRecord& reference,
                                   const std::string& heldoutKey, const std::string& parameter) {
  auto withoutParameter = [&](nlohmann::json options) {
    if (options.is_object()) options.erase(parameter);
    return options;
  };
  const auto referenceOptions = withoutParameter(reference.options);
  std::vector<KPoint> points;
  for (const auto& run : runs) {
    if (run.datasetId != reference.datasetId || run.model != reference.model || run.heldout != reference.heldout)
      continue;
    if (withoutParameter(run.options) != referenceOptions) continue;
    if (const auto p = pointOf(run, heldoutKey, parameter)) points.push_back(*p);
  }
  sortByK(points);
  return points;
}

std::vector<ModelCurve> otherModelsByK(const std::vector<RunRecord>& runs, const RunRecord& reference,
                                       const std::string& heldoutKey, const std::string& parameter) {
  std::vector<ModelCurve> curves;
  for (const auto& run : runs) {
    if (run.model == reference.model || run.datasetId != reference.datasetId || run.heldout != reference.heldout ||
        run.seed != reference.seed)
      continue;
    const auto p = pointOf(run, heldoutKey, parameter);
    if (!p) continue;
    auto curve = std::find_if(curves.begin(), curves.end(), [&](const ModelCurve& c) { return c.model == run.model; });
    if (curve == curves.end()) curve = curves.insert(curves.end(), ModelCurve{run.model, {}});
    curve->points.push_back(*p);
  }
  for (auto& curve : curves) sortByK(curve.points);
  return curves;
}

}  // namespace latent::core
