// SPDX-License-Identifier: GPL-3.0-or-later
// The stochastic block model (000 §27.5.1, eq. 27.75; Nowicki & Snijders 2001) fitted by
// collapsed Gibbs sampling (Kemp et al. 2006), with the degree-corrected variant of Karrer &
// Newman (2011), sequential starts, annealing and restarts that keep the best posterior.
#pragma once

#include <cstdint>
#include <memory>

#include "core/models/model.hpp"
#include "core/models/option_table.hpp"

namespace latent::core {

struct SbmOptions {
  std::int64_t blocks = 4;         // "k"
  std::int64_t iterations = 200;   // sweeps of the chain that continues from the best start
  std::int64_t restarts = 4;       // independent starts; the best log posterior continues
  std::int64_t annealSweeps = 20;  // sweeps of each start at a raised temperature, falling to 1
  std::int64_t startSweeps = 200;  // most sweeps one start may spend (annealing, sweeps, merge-splits)
  bool degreeCorrected = false;
  // Dirichlet concentration of the block proportions. See SbmOptions::table() in sbm.cpp for why 5, not 1.
  double alpha = 5.0;
  double densityA = 1.0;  // Beta(a, b) prior on each block-pair density
  double densityB = 1.0;
  std::int64_t snapshotEvery = 10;

  static const OptionTable<SbmOptions>& table();
};

ModelDefinition sbmModel();

}  // namespace latent::core
