// SPDX-License-Identifier: GPL-3.0-or-later
// Discrete component analysis of the document-word counts (Buntine & Jakulin 2006), fitted by
// Gibbs sampling of how each count splits over the components: mPCA, the counts multinomial given
// a document's share of each component with a Dirichlet prior (000 eq. 27.11-27.12), and GaP, the
// counts Poisson given non-negative component scores with Gamma priors (Canny 2004; 000 eq.
// 27.15-27.16), of which NMF is the prior-less limit and mPCA the fixed-length version.
#pragma once

#include <cstdint>

#include "core/models/model.hpp"
#include "core/models/option_table.hpp"

namespace latent::core {

struct DiscreteComponentOptions {
  std::int64_t topics = 20;
  std::int64_t iterations = 500;
  double documentPrior = 0.1;  // mPCA: each alpha_k; GaP: each Gamma shape a_k (start values when optimised)
  double rate = 0.0;           // GaP: each Gamma rate b_k; 0: K a / (mean document length)
  double beta = 0.01;
  std::int64_t optimizeEvery = 20;   // 0: the priors stay fixed
  std::int64_t optimizeBurnIn = 50;  // no optimisation before this iteration
  std::int64_t snapshotEvery = 50;

  static const OptionTable<DiscreteComponentOptions>& mpcaTable();
  static const OptionTable<DiscreteComponentOptions>& gapTable();
};

ModelDefinition mpcaModel();
ModelDefinition gapModel();
// The URP / simplex factor model (000 eq. 27.14; Marlin 2003): mpca for survey answers, each
// component a distribution over each question's answers; the dataset's words must be "question=answer".
ModelDefinition urpModel();

}  // namespace latent::core
