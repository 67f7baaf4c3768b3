// SPDX-License-Identifier: GPL-3.0-or-later
// The unigram model: every word of every document drawn from one categorical distribution
// (002 "A really simple document model"; 000 §27.3.3), fitted by MAP under a Dirichlet prior.
#pragma once

#include <memory>

#include "core/models/model.hpp"
#include "core/models/option_table.hpp"

namespace latent::core {

struct UnigramOptions {
  // Pseudo-count added to every word's count: the MAP estimate under a symmetric
  // Dirichlet(1 + beta) prior, beta_v = (c_v + beta) / (N + V beta). Positive, so that words
  // never seen in training keep some probability.
  double beta = 0.01;

  static const OptionTable<UnigramOptions>& table();
};

ModelDefinition unigramModel();

// The fitted distribution (length V) from word counts; exposed for tests.
Eigen::VectorXd unigramEstimate(const Eigen::VectorXd& counts, double beta);

}  // namespace latent::core
