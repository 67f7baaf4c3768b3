// SPDX-License-Identifier: GPL-3.0-or-later
// What a sparse Gibbs kernel needs to sample one chain across several processes (latent-cli fit
// --distributed): the group, and the stop request every process must agree on.
#pragma once

#include <stop_token>

#include "core/util/communicator.hpp"

namespace latent::core::topic {

// Each process samples the documents of its partitions; the stop request of one process (its
// own Ctrl-C, a signal from mpirun) must end the chain on all of them after the same round, or
// they would wait on each other's collectives. The kernel reads `localStop`, tells the others at
// the end of each round, and requests `agreed` on every process at once: the token the rest of
// the fit (the driver, the restarts, the results) is given.
struct GibbsDistribution {
  Communicator* group = nullptr;
  std::stop_token localStop;
  std::stop_source agreed;
};

}  // namespace latent::core::topic
