// SPDX-License-Identifier: GPL-3.0-or-later
// DMR-LDA, Dirichlet-multinomial regression topic models (Mimno & McCallum 2008; 000 §27.4.4.2,
// eq. 27.71-27.72, Fig. 27.16c): LDA whose document-topic prior is alpha_dk = exp(lambda_k . x_d),
// x_d the document's features (its time, label and metadata) with an always-on intercept, and
// lambda_k ~ N(0, sigma^2 I). Fitted as Mimno & McCallum do: collapsed Gibbs sweeps with alpha_d
// fixed, alternating every few sweeps with L-BFGS on lambda given the topic counts.
#pragma once

#include <cstdint>
#include <string>

#include "core/models/model.hpp"
#include "core/models/option_table.hpp"

namespace latent::core {

struct DmrOptions {
  std::int64_t topics = 20;
  std::int64_t iterations = 500;  // Gibbs sweeps; DmrOptions::table() in dmr.cpp says why each default
  double alpha = 0.1;             // the start of every alpha_dk: exp of the intercept's start weight
  double beta = 0.01;
  std::string features;              // comma list of fields; empty: every field the corpus has
  std::int64_t timeBins = 0;         // the time also one-hot in this many equal-width bins; 0: as a number only
  std::int64_t optimizeEvery = 20;   // sweeps between lambda (and beta) optimisations; 0: lambda stays at its start
  std::int64_t burnIn = 50;          // sweeps before the first optimisation
  double priorVariance = 1.0;        // sigma^2 of the weights of the features
  double interceptVariance = 100.0;  // sigma^2 of the intercept's weights
  bool optimizeBeta = true;
  std::int64_t snapshotEvery = 50;

  static const OptionTable<DmrOptions>& table();
};

ModelDefinition dmrModel();

}  // namespace latent::core
