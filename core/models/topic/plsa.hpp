// SPDX-License-Identifier: GPL-3.0-or-later
// Probabilistic latent semantic analysis: p(w | d) = sum_z p(z | d) p(w | z), fitted by EM as the
// point-posterior (MAP) variational EM of 003 §3.4 (eq. 3.20-3.24), or by Hofmann's tempered EM
// (003 §5, "PLSA-TEM"), with a pseudo-count on p(w | z) as 003 §5's regularisation.
#pragma once

#include <memory>

#include "core/models/model.hpp"
#include "core/models/option_table.hpp"

namespace latent::core {

struct PlsaOptions {
  enum class Method { Em, Tem };
  std::int64_t topics = 20;
  std::int64_t iterations = 200;
  Method method = Method::Em;
  // Tempered EM only: the E step uses (p(z|d) p(w|z))^temperature; 1 is plain EM.
  double temperature = 0.95;
  // Pseudo-count added to every topic's expected count of every word before normalising: the MAP
  // estimate under a Dirichlet(1 + regularization) prior on each p(w | z), so that no word has
  // probability zero in any topic (003 §5 adds such a constant to p(w | z)).
  double regularization = 0.1;
  // Seeded starts, each run for a few sweeps; the one with the best objective is continued.
  std::int64_t restarts = 4;
  double tolerance = 1e-6;  // stop when the objective per token changes by less than this
  std::int64_t snapshotEvery = 25;

  static const OptionTable<PlsaOptions>& table();
};

ModelDefinition plsaModel();

}  // namespace latent::core
