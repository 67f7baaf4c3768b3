// SPDX-License-Identifier: GPL-3.0-or-later
// The K each criterion prefers among runs that differ only in K.
#include "core/eval/model_selection.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <utility>

namespace latent::core {

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
