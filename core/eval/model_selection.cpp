// SPDX-License-Identifier: GPL-3.0-or-later
// Grouping runs that differ only in K, and the K each criterion prefers.
#include "eval/model_selection.hpp"

#include <algorithm>
#include <map>
#include <optional>
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

KMeans meansPerK(const std::vector<KPoint>& points) {
  std::map<std::int64_t, std::pair<double, int>> sums[3];
  for (const auto& p : points) {
    const std::optional<double> values[3] = {p.heldout, p.icl, p.fullFoldingIn};
    for (int c = 0; c < 3; ++c)
      if (values[c]) {
        sums[c][p.k].first += *values[c];
        ++sums[c][p.k].second;
      }
  }
  KMeans means;
  std::vector<std::pair<std::int64_t, double>>* out[3] = {&means.heldout, &means.icl, &means.fullFoldingIn};
  for (int c = 0; c < 3; ++c)
    for (const auto& [k, sum] : sums[c]) out[c]->push_back({k, sum.first / sum.second});
  return means;
}

KChoice chooseK(const std::vector<KPoint>& points) {
  const auto means = meansPerK(points);
  KChoice choice;
  const auto lowest = std::min_element(means.heldout.begin(), means.heldout.end(),
                                       [](const auto& a, const auto& b) { return a.second < b.second; });
  if (lowest != means.heldout.end()) choice.byHeldout = lowest->first;
  const auto highest = std::max_element(means.icl.begin(), means.icl.end(),
                                        [](const auto& a, const auto& b) { return a.second < b.second; });
  if (highest != means.icl.end()) choice.byIcl = highest->first;
  return choice;
}

}  // namespace latent::core
