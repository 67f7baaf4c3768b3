// SPDX-License-Identifier: GPL-3.0-or-later
// Mixture of categoricals: each document belongs to ONE of K components and all its words come
// from that component's word distribution (002 "A mixture of categoricals model"; 000 §27.2.1,
// eq. 27.1-27.2). Fitted by EM to the MAP estimate (002 E-step/M-step, with Dirichlet priors) or
// by variational Bayes (002 "A Bayesian mixture of categoricals model").
#pragma once

#include <memory>

#include "core/models/model.hpp"
#include "core/models/option_table.hpp"
#include "core/results/topic_results.hpp"

namespace latent::core {

struct MixtureOptions {
  enum class Method { Em, Vb };
  std::int64_t topics = 20;
  std::int64_t iterations = 100;
  // EM: MAP under Dirichlet(1 + alpha) on the mixing weights and Dirichlet(1 + beta) on each
  // component's words, so alpha and beta are pseudo-counts: pi_k = (N_k + alpha) / (D + K alpha),
  // phi_kw = (n_kw + beta) / (n_k + V beta). VB: the Dirichlet(alpha) and Dirichlet(beta) priors
  // of 002's Bayesian mixture, whose posterior means have the same form.
  double alpha = 1.0;
  double beta = 0.5;
  Method method = Method::Em;
  // Seeded starts, each run for a few sweeps; the one with the best objective is continued.
  std::int64_t restarts = 4;
  double tolerance = 1e-7;  // stop when the objective per token changes by less than this
  std::int64_t snapshotEvery = 25;

  static const OptionTable<MixtureOptions>& table();
};

ModelDefinition mixtureModel();

using topic::kMixingWeights;  // the mixing weights pi (results/topic_results.hpp)

}  // namespace latent::core
