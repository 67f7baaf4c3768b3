// SPDX-License-Identifier: GPL-3.0-or-later
// Choosing K from runs already made (000 §27.3.8: the number of topics or blocks is chosen by
// held-out likelihood): each run's K with its held-out metric and, for block models, ICL, and the
// K each criterion prefers. jobs/comparable_runs.hpp finds the runs in a project.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace latent::core {

struct KPoint {
  std::int64_t runId = 0;
  std::int64_t k = 0;
  std::uint64_t seed = 0;
  double heldout = 0.0;       // the model's held-out metric (lower is better)
  std::optional<double> icl;  // higher is better; block models only
  // Topic models: the same held-out documents scored by full folding-in, the optimistic protocol
  // (003: the mixture is fitted to the very words then scored), kept to show the optimism.
  std::optional<double> fullFoldingIn;
};

// Each criterion's mean over the runs of each K, K ascending (a K tried with several seeds is
// judged by its average, not its luckiest run). A criterion some runs lack is averaged over those
// that have it; a K none of whose runs has it gets no entry.
struct KMeans {
  std::vector<std::pair<std::int64_t, double>> heldout, icl, fullFoldingIn;
};
KMeans meansPerK(const std::vector<KPoint>& points);

// The K with the lowest mean held-out metric over its runs, and the K with the highest mean ICL.
struct KChoice {
  std::optional<std::int64_t> byHeldout, byIcl;
};
KChoice chooseK(const std::vector<KPoint>& points);

}  // namespace latent::core
