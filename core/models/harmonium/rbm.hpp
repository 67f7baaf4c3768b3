// SPDX-License-Identifier: GPL-3.0-or-later
// The binary RBM (000 §27.7.1.1) on a corpus seen as word occurrences: each document is a vector
// saying which vocabulary words occur in it. Fitted by CD-k or persistent CD in minibatches;
// scored by the held-out documents' pseudo-log-likelihood, and by the exact log-likelihood when
// the hidden layer is small enough to sum over (000 Exercise 27.1).
#pragma once

#include <cstdint>

#include "core/models/model.hpp"
#include "core/models/option_table.hpp"

namespace latent::core {

struct RbmOptions {
  std::int64_t hidden = 50;  // "k"
  std::int64_t iterations = 20;
  double learningRate = 0.05;
  double decay = 1.0;
  double momentum = 0.5;
  double weightDecay = 1e-4;
  std::int64_t batchSize = 100;
  std::int64_t cdSteps = 1;
  std::int64_t snapshotEvery = 10;
  bool persistent = false;
  std::int64_t particles = 100;

  static const OptionTable<RbmOptions>& table();
};

ModelDefinition rbmModel();

}  // namespace latent::core
