// SPDX-License-Identifier: GPL-3.0-or-later
// How one start of the SBM finds a good partition before the reported chain: a random start,
// annealed Gibbs sweeps, and merge-split moves that repair two groups merged into one block
// while another group is split over two.
#pragma once

#include <cstdint>
#include <stop_token>
#include <vector>

#include "core/models/network/sbm_sampler.hpp"
#include "core/util/random.hpp"

namespace latent::core::network {

struct SbmSearchSettings {
  std::int64_t annealSweeps = 20;  // sweeps at a raised temperature, falling to 1
  double startInverseTemperature = 0.5;
  // After the annealing, sweeps at temperature 1 continue until the best log posterior has not
  // improved for `patience` sweeps; merge-split moves follow, each with such sweeps after it.
  // All of it stops when the work reaches maxSweeps sweeps (a restricted sweep of a split counts
  // as the share of the full sweep's work it does).
  std::int64_t patience = 5;
  std::int64_t maxSweeps = 200;
  std::int64_t splitSweeps = 20;  // restricted Gibbs sweeps that complete a split
};

struct SbmSearchResult {
  double logPosterior = 0.0;
  std::vector<std::int32_t> blocks;  // empty when stopped before the first assignment
  double work = 0.0;                 // in full sweeps
  std::int64_t mergeSplits = 0;      // merge-split moves accepted
};

// Tries one merge-split move: the two blocks whose merger costs least (mergeDelta) become one,
// and one other block is split in two by restricted Gibbs sweeps from a random split; kept when
// the log posterior rises, else the state is restored. Blocks are tried from the largest down.
// Needs K >= 3. Returns whether a move was kept; adds the work done, in full sweeps, to *work.
bool tryMergeSplit(SbmSampler& sampler, std::int64_t splitSweeps, Rng& rng, const std::stop_token& stop,
                   double* work = nullptr);

// One start: random blocks, annealed sweeps, sweeps at temperature 1 until they stop improving,
// then merge-split moves (each followed by such sweeps) until none is kept or the work budget is
// spent. Returns the state with the highest log posterior seen at temperature 1.
SbmSearchResult searchPartition(SbmSampler& sampler, const SbmSearchSettings& settings, Rng& rng,
                                const std::stop_token& stop);

}  // namespace latent::core::network
