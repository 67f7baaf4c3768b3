// SPDX-License-Identifier: GPL-3.0-or-later
// LDA fitted by online variational Bayes with minibatches (000 Alg. 27.2, §27.3.7; Hoffman, Blei &
// Bach 2010, "Online learning for latent Dirichlet allocation").
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include <Eigen/Core>

#include "core/models/model.hpp"
#include "core/models/option_table.hpp"

namespace latent::core {

struct LdaOnlineOptions {
  std::int64_t topics = 20;
  std::int64_t iterations = 50;     // passes over the corpus, each in shuffled minibatches
  double alpha = 0.0;               // symmetric start of the document-topic prior; 0 means 1/K
  double eta = 0.01;                // the "beta" option: symmetric topic-word prior
  std::int64_t batchSize = 256;     // documents per minibatch
  double tau0 = 10.0;               // delay: rho_t = (tau0 + t)^-kappa; larger values damp the early updates
  double kappa = 0.7;               // forgetting rate in (0.5, 1]: how fast old minibatches are forgotten
  std::int64_t optimizeEvery = 10;  // re-estimate alpha and eta every N passes; 0 = never
  std::int64_t snapshotEvery = 10;
  int estepIterations = 100;
  double estepTolerance = 1e-3;
  bool estepRestart = true;      // each E step from the symmetric start (Hoffman et al.); false: from the last visit
  std::string init = "mixture";  // how lambda starts (topic::initOption)

  static const OptionTable<LdaOnlineOptions>& table();
};

ModelDefinition ldaOnlineModel();

}  // namespace latent::core
