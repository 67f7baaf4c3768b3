// SPDX-License-Identifier: GPL-3.0-or-later
// Fits pmf on ratings in a task arena of the given threads, with no reports to anyone: what the
// pmf tests and evidence share.
#pragma once

#include <tbb/task_arena.h>

#include <cstdint>

#include <nlohmann/json.hpp>

#include "core/data/ratings.hpp"
#include "core/models/fit_data.hpp"
#include "core/models/ratings/pmf.hpp"

namespace latent::test {

inline core::FitResult fitPmfQuietly(const core::Ratings& ratings, const nlohmann::json& options, std::uint64_t seed,
                                     double heldout, int threads) {
  class Quiet final : public core::TrainingObserver {
   public:
    bool onReport(const core::IterationReport&) override { return true; }
  };
  auto model = core::pmfModel().make();
  const core::PreparedData prepared(ratings, heldout, seed);
  const core::FitData& data = prepared.data();
  core::FitSettings settings;
  settings.options = core::resolveOptions(model->info(), options);
  settings.seed = seed;
  settings.threads = threads;
  settings.evalEvery = 1000;
  Quiet quiet;
  core::FitResult result;
  tbb::task_arena arena(threads);
  arena.execute([&] { result = model->fit(data, settings, quiet, {}); });
  return result;
}

}  // namespace latent::test
