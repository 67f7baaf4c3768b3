// SPDX-License-Identifier: GPL-3.0-or-later
// The Gaussian RBM (000 §27.7.1.3) on a numeric table (rbm-gaussian): each row a case of
// real-valued columns, standardised on the training rows, explained by binary hidden units.
#pragma once

#include <cstdint>

#include "core/models/model.hpp"
#include "core/models/option_table.hpp"

namespace latent::core {

struct GaussianRbmOptions {
  std::int64_t hidden = 10;  // "k"
  std::int64_t iterations = 100;
  double learningRate = 0.01;
  double decay = 1.0;
  double momentum = 0.5;
  double weightDecay = 1e-4;
  std::int64_t batchSize = 20;
  std::int64_t cdSteps = 1;
  std::int64_t snapshotEvery = 10;
  // On by default: CD-1's reconstructions stay in the mode of the case they start from, so it
  // cannot learn how much of the data each combination of hidden units holds (tst_gaussian_rbm).
  bool persistent = true;
  std::int64_t particles = 100;
  bool learnVariance = true;

  static const OptionTable<GaussianRbmOptions>& table();
};

ModelDefinition rbmGaussianModel();

}  // namespace latent::core
