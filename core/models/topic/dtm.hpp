// SPDX-License-Identifier: GPL-3.0-or-later
// The dynamic topic model (000 §27.4.2, Fig. 27.11-27.12; Blei & Lafferty 2006): the corpus cut
// into time slices by its documents' times, each topic's words drifting from slice to slice as a
// Gaussian random walk of their natural parameters, alpha per slice. Variational EM with a Kalman
// smoother over the slices (dtm_kernels.hpp); held-out perplexity by document completion, each
// held-out document folded in with its own slice's topics and alpha, overall and per slice.
#pragma once

#include <cstdint>

#include "core/models/model.hpp"
#include "core/models/option_table.hpp"

namespace latent::core {

struct DtmOptions {
  std::int64_t topics = 10;
  std::int64_t iterations = 50;
  double sliceYears = 0.0;          // 0: a round width that makes at most kAutoSlices slices
  double drift = 0.05;              // variance of a natural parameter's change per year
  double initialVariance = 10.0;    // of the first slice's natural parameters
  std::int64_t optimizeEvery = 10;  // re-estimate alpha every N iterations; 0 = never
  double tolerance = 1e-5;
  std::int64_t snapshotEvery = 10;

  static const OptionTable<DtmOptions>& table();
};

// The most slices an automatic width makes.
inline constexpr int kAutoSlices = 30;

// The smallest of 1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000 years (or the span itself) that cuts
// [first, last] into at most kAutoSlices slices.
double automaticSliceYears(double first, double last);

ModelDefinition dtmModel();

}  // namespace latent::core
