// SPDX-License-Identifier: GPL-3.0-or-later
// The categorical RBM for collaborative filtering (Salakhutdinov, Mnih & Hinton 2007, "Restricted
// Boltzmann machines for collaborative filtering"; 000 §27.7.1.2, eq. 27.105-27.107, and
// §27.7.3.2): one softmax visible unit over the rating levels per item a user rated, binary hidden
// units, weights shared by every user. Fitted by CD-k in minibatches of users; a rating is
// predicted as the expected level given the hidden mean-field of the user's ratings, and scored
// like pmf by the held-out RMSE.
#pragma once

#include <cstdint>

#include "core/models/model.hpp"
#include "core/models/option_table.hpp"

namespace latent::core {

// Defaults near the paper's (momentum 0.9, weight decay 1e-3, CD-1, minibatches of users) with a
// smaller hidden layer. On InstEval no setting tried did much better than the items' mean ratings
// (tests/benchmarks/README.md, "rbm-ratings against pmf").
struct RbmRatingsOptions {
  std::int64_t hidden = 20;  // "k"
  std::int64_t iterations = 40;
  double learningRate = 0.05;
  double decay = 0.97;
  double momentum = 0.9;
  double weightDecay = 1e-3;
  std::int64_t batchSize = 100;
  std::int64_t cdSteps = 1;
  std::int64_t snapshotEvery = 10;
  double initScale = 0.01;

  static const OptionTable<RbmRatingsOptions>& table();
};

ModelDefinition rbmRatingsModel();

}  // namespace latent::core
