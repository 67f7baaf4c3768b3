// SPDX-License-Identifier: GPL-3.0-or-later
// What pmf's alternating least squares needs to run across several processes (latent-cli fit pmf
// --distributed): the group, the stop every process must agree on, and each process's block of
// users and of items. With the items fixed every user's row is its own ridge regression (and the
// other way round), so each process solves its block of rows and the blocks are all-gathered
// (the scheme of Spark's block ALS, there with the ratings themselves split too): every process
// then holds the same parameters, the very ones a single process computes.
#pragma once

#include <cstdint>
#include <span>
#include <stop_token>
#include <vector>

#include "core/models/ratings/pmf_state.hpp"
#include "core/util/communicator.hpp"

namespace latent::core::pmf {

// The solver reads `localStop` (this process's own stop request) and tells the others at every
// all-gather; when any process was asked to stop, `agreed` is requested on all of them at the same
// point of the sweep: the token the rest of the fit (the driver) is given.
struct AlsDistribution {
  Communicator* group = nullptr;
  std::stop_token localStop;
  std::stop_source agreed;
};

// Process q solves rows [bounds[q], bounds[q + 1]): contiguous blocks of about equal work, a row
// counted as its number of ratings plus K + 1 (its K^2 per rating and K^3 per row, over K^2).
// Every process computes the same bounds from the same ratings.
std::vector<std::int32_t> alsRowBlocks(std::span<const std::int64_t> start, int factors, int processes);

// Rows [first, last) of `rows` (K floats each, without the padding) and their biases, then
// whether this process was stopped: one process's message of the all-gather.
void appendRowBlock(Bytes& out, const FactorTable& rows, std::span<const float> bias, std::int32_t first,
                    std::int32_t last, bool stopped);
// The inverse of appendRowBlock into the same rows; returns the sender's stop flag.
bool readRowBlock(std::span<const std::byte> in, FactorTable& rows, std::span<float> bias, std::int32_t first,
                  std::int32_t last);

}  // namespace latent::core::pmf
