// SPDX-License-Identifier: GPL-3.0-or-later
// LDA+MMSB (Nallapati, Ahmed, Xing & Cohen 2008; 001 "LDA+MMSB"; 000 §27.5.2): LDA for the words
// and the mixed membership stochastic blockmodel for the links, both drawn from each document's
// one topic mixture. Fitted by collapsed Gibbs sampling with the non-links subsampled; a pair's
// link probability is theta_a' B theta_b, so a new document's links follow from its text alone.
#pragma once

#include <cstdint>

#include "core/models/model.hpp"
#include "core/models/option_table.hpp"

namespace latent::core {

struct LdaMmsbOptions {
  enum class Direction { Undirected, Directed };

  std::int64_t topics = 20;
  std::int64_t iterations = 500;
  double alpha = 0.1;
  double beta = 0.01;
  double linkPrior = 1.0;  // Beta(link_prior, non_link_prior) on every B_pq
  double nonLinkPrior = 1.0;
  Direction direction = Direction::Undirected;
  double nonLinkRatio = 10.0;
  std::int64_t snapshotEvery = 50;
  bool baselines = true;

  static const OptionTable<LdaMmsbOptions>& table();
};

ModelDefinition ldaMmsbModel();

}  // namespace latent::core
