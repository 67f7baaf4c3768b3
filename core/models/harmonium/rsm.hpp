// SPDX-License-Identifier: GPL-3.0-or-later
// Replicated softmax (000 eq. 27.129, §27.7.3.1; Salakhutdinov & Hinton 2009): an undirected topic
// model whose hidden units are binary features of a document, fitted by CD-k in minibatches and
// scored, like the topic models, by held-out perplexity under document completion.
#pragma once

#include <cstdint>

#include "core/models/model.hpp"
#include "core/models/option_table.hpp"

namespace latent::core {

struct RsmOptions {
  std::int64_t hidden = 50;  // "k"
  std::int64_t iterations = 50;
  double learningRate = 0.01;
  double decay = 1.0;
  double momentum = 0.9;  // Adam's beta_1 with adaptiveSteps
  double weightDecay = 1e-4;
  std::int64_t batchSize = 100;
  std::int64_t cdSteps = 1;
  std::int64_t snapshotEvery = 10;
  bool adaptiveSteps = true;
  double initScale = 0.1;
  std::int64_t completionSamples = 20;  // draws of h averaged per held-out document
  // Full-document held-out perplexity with Z_L estimated by AIS (rsm_ais.hpp), at the end only:
  // particles per distinct held-out length (0: not computed) and intermediate distributions.
  std::int64_t aisRuns = 0;
  std::int64_t aisTemperatures = 200;

  static const OptionTable<RsmOptions>& table();
};

ModelDefinition rsmModel();

}  // namespace latent::core
