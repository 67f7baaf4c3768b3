// SPDX-License-Identifier: GPL-3.0-or-later
// Which reports belong to a model's restart phase, for the observers that treat them apart.
#pragma once

#include "models/training.hpp"

namespace latent::core {

// A report of a model's restart phase (lda-gibbs, mmsb): short chains from several starts before
// the chain the run keeps. They come at iteration 0, before that chain's iterations 1..N, and
// carry the extra "restart_sweep". They show progress live (the run panel, the readable CLI) but
// are not part of the per-iteration series: the project does not store them and `fit --json`
// does not print them (DESIGN §6 lines stay one per evaluated iteration); the final metrics
// summarise the restarts.
inline bool isRestartReport(const IterationReport& report) noexcept {
  if (report.iteration != 0) return false;
  for (const auto& extra : report.extras)
    if (extra.first == "restart_sweep") return true;
  return false;
}

}  // namespace latent::core
