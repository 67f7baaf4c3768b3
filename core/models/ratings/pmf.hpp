// SPDX-License-Identifier: GPL-3.0-or-later
// Probabilistic matrix factorisation for ratings (000 §27.6.2, eq. 27.84-27.93; Salakhutdinov &
// Mnih 2008; Koren, Bell & Volinsky 2009 for the biases): r_ui ~ N(mu + b_u + b_i + u_u . v_i,
// sigma^2), MAP under Gaussian priors, fitted by SGD or by alternating least squares.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/models/model.hpp"
#include "core/models/option_table.hpp"
#include "core/models/ratings/pmf_state.hpp"

namespace latent::core {

// Defaults measured on InstEval (10% held out, seeds 1-10; tests/benchmarks/pmf_speed.cpp): ALS reaches
// the MAP estimate in about 15 sweeps and beat SGD's held-out RMSE at every setting tried. Without
// implicit feedback the best penalty sat just below the point where every factor is shrunk to zero
// (about lambda 25 there; k 30, lambda 16 gained 0.2-0.3% over the bias-only model). With it
// (the default since the study of tests/benchmarks/peers/pmf_variants.py, whose validation splits
// chose k 20, lambda 30) the gain is 1.1-1.4% on seeds 1-3; larger k changes nothing there, the
// penalty leaves about as many factors in use. SGD has no implicit term (it ignores the option)
// and does best with k 30, lambda 16 as before.
// SGD's step 0.05, times 0.93 per epoch, matches ALS on a generated 1M-rating set in 30 epochs
// (0.02 stays near the bias-only fit there) and does as well as smaller steps on InstEval.
struct PmfOptions {
  std::int64_t factors = 20;             // "k"
  std::int64_t iterations = 30;          // epochs (sgd) or sweeps (als)
  std::string solver = "als";            // "als" or "sgd"
  double learningRate = 0.05;            // sgd: eta of eq. 27.89 in the first epoch
  double decay = 0.93;                   // sgd: eta is multiplied by this after every epoch
  double lambda = 30.0;                  // lambda_U = lambda_V of eq. 27.92 (and lambda_Y)
  double lambdaBias = 10.0;              // the same for the user and item biases
  std::string regularization = "prior";  // "prior" (eq. 27.92) or "per-rating" (Funk)
  double initScale = 0.1;                // factors start ~ N(0, init_scale^2)
  std::int64_t blocks = 0;               // sgd: B x B blocks; 0 = 1 on one thread, 2 x threads otherwise
  std::int64_t snapshotEvery = 10;
  bool implicit = true;  // SVD++ user factors (pmf_implicit.hpp); als only

  static const OptionTable<PmfOptions>& table();
  pmf::Regularization penalties() const;
  int blocksFor(int threads) const;  // the B an sgd run with this many threads uses
};

ModelDefinition pmfModel();

}  // namespace latent::core
