// SPDX-License-Identifier: GPL-3.0-or-later
// The Gaussian-Bernoulli exponential family harmonium of 004 (gb-efh) on a numeric table of 0/1
// values: each row a case, each column a binary visible unit, J Gaussian hidden units. Fitted by
// maximum likelihood or, the Bayesian way (004 §3-4), by the Langevin algorithm under a Gaussian
// prior on W, optionally with the prior's mean and spread by empirical Bayes.
#pragma once

#include <cstdint>
#include <string>

#include "core/models/model.hpp"
#include "core/models/option_table.hpp"

namespace latent::core {

struct GbEfhOptions {
  enum class Inference { MaximumLikelihood, Langevin };

  std::int64_t hidden = 10;  // "k", J of 004
  std::int64_t iterations = 500;
  Inference inference = Inference::Langevin;
  double learningRate = 0.02;
  double langevinStep = 0.0;  // 0: derived from the learning rate
  std::int64_t burnIn = 100;
  double priorMean = 0.0;
  double priorSd = 1.0;
  bool empiricalBayes = false;
  std::int64_t mlIterations = 200;
  std::int64_t emEvery = 50;
  std::int64_t cdSteps = 1;
  bool fitVisibleBias = true;
  std::int64_t snapshotEvery = 50;

  static const OptionTable<GbEfhOptions>& table();
};

ModelDefinition gbEfhModel();

}  // namespace latent::core
