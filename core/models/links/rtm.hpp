// SPDX-License-Identifier: GPL-3.0-or-later
// The relational topic model (Chang & Blei 2009, 2010; 000 §27.5.3, eq. 27.80): LDA whose links
// between documents depend on the topics their words were actually assigned, psi(eta' (zbar_d o
// zbar_d') + nu) with a sigmoid or an exponential psi. Fitted by collapsed Gibbs sampling with the
// links in each token's conditional and the link weights refitted between sweeps (Monte Carlo EM);
// it predicts the hidden links among training documents, and the links of new documents from their
// text alone.
#pragma once

#include <cstdint>

#include "core/models/links/rtm_sampler.hpp"
#include "core/models/model.hpp"
#include "core/models/option_table.hpp"

namespace latent::core {

struct RtmOptions {
  std::int64_t topics = 20;
  std::int64_t iterations = 500;
  double alpha = 0.1;
  double beta = 0.01;
  rtm::LinkFunction link = rtm::LinkFunction::Exponential;
  // rho, the pseudo non-links of the link weights' fit, as a multiple of the training links.
  double pseudoNonLinks = 1.0;
  // Sweeps of plain LDA (no link term) before the links enter the conditional.
  std::int64_t burnIn = 50;
  bool baselines = true;
  std::int64_t snapshotEvery = 50;

  static const OptionTable<RtmOptions>& table();
};

ModelDefinition rtmModel();

}  // namespace latent::core
