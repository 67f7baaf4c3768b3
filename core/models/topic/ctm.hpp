// SPDX-License-Identifier: GPL-3.0-or-later
// The correlated topic model (000 §27.4.1; Blei & Lafferty 2007): LDA with a logistic-normal prior
// on the topic proportions, whose full covariance says which topics go together. Variational EM
// (ctm_kernels.hpp); held-out perplexity under both protocols with its own logistic-normal
// fold-in; results are the topics plus the prior's mean, covariance and the topics' correlations.
#pragma once

#include <cstdint>

#include "core/models/model.hpp"
#include "core/models/option_table.hpp"

namespace latent::core {

struct CtmOptions {
  std::int64_t topics = 20;
  std::int64_t iterations = 100;
  double beta = 0.01;               // the topics' symmetric Dirichlet prior (the start, when optimize_every is set)
  std::int64_t optimizeEvery = 10;  // re-estimate beta every N iterations; 0 = never
  double shrinkage = 0.25;          // of the topics' covariance towards the identity
  std::int64_t estepIterations = 20;
  double estepTolerance = 1e-5;
  std::int64_t restarts = 4;  // seeded starts; the best after a few iterations continues
  double tolerance = 1e-5;    // stop when the bound per token changes by less than this
  std::int64_t snapshotEvery = 10;

  static const OptionTable<CtmOptions>& table();
};

ModelDefinition ctmModel();

}  // namespace latent::core
