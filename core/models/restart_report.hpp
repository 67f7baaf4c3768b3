// SPDX-License-Identifier: GPL-3.0-or-later
// Which reports belong to a model's restart phase, for the observers that treat them apart, and
// a report's extras by name (what those observers read of them).
#pragma once

#include <optional>
#include <string_view>

#include "models/training.hpp"

namespace latent::core {

// The extra called `name` of a report; nothing when the model did not add it.
inline std::optional<double> reportExtra(const IterationReport& report, std::string_view name) noexcept {
  for (const auto& [key, value] : report.extras)
    if (key == name) return value;
  return std::nullopt;
}

// A report of a model's restart phase (lda-gibbs, mmsb): short chains from several starts before
// the chain the run keeps, or the warp sampler's sweeps from a start (lda-gibbs's warp_start).
// They come at iteration 0, before that chain's iterations 1..N, and carry the extra
// "restart_sweep" or "warp_start_sweep". They show progress live (the run panel, the readable CLI) but
// are not part of the per-iteration series: the project does not store them and `fit --json`
// does not print them (DESIGN §6 lines stay one per evaluated iteration); the final metrics
// summarise the restarts.
inline bool isRestartReport(const IterationReport& report) noexcept {
  return report.iteration == 0 &&
         (reportExtra(report, "restart_sweep").has_value() || reportExtra(report, "warp_start_sweep").has_value());
}

}  // namespace latent::core
