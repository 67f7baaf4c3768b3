// SPDX-License-Identifier: GPL-3.0-or-later
// One sweep of the block schedule in one process, for the exact samplers' partitions
// (lda_gibbs_sparse_kernel.hpp describes the schedule): P rounds, in round r partition p samples
// the tokens of its documents whose word is in group (p + r) mod P, all partitions in parallel;
// each partition samples against its own copy of the totals n_k, taken at the start of the round
// and merged after it.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>

#include <algorithm>
#include <cstdint>
#include <stop_token>
#include <vector>

namespace latent::core::topic {

// After a round: n_k = n_k + sum_p (n_k of partition p - n_k), the partitions' moves added up.
template <typename Partition>
void mergePartitionTotals(std::vector<std::int64_t>& totals, const std::vector<Partition>& partitions) {
  const auto others = static_cast<std::int64_t>(partitions.size() - 1);
  for (std::size_t k = 0; k < totals.size(); ++k) {
    std::int64_t total = -others * totals[k];
    for (const auto& part : partitions) total += part.totals()[k];
    totals[k] = total;
  }
}

// The P rounds of one sweep (Partition: totals(), runRound(stop, group) -> false when stopped).
// False when stopped, after the round in which it was (the counts are consistent either way).
// `affinity` keeps each partition on the thread that ran it last time, so that its per-topic
// caches stay in that core's cache.
template <typename Partition>
bool sweepInRounds(std::vector<Partition>& partitions, std::vector<std::int64_t>& totals, const std::stop_token& stop,
                   tbb::affinity_partitioner& affinity) {
  const std::size_t P = partitions.size();
  std::vector<char> finished(P, 1);
  for (std::size_t round = 0; round < P; ++round) {
    tbb::parallel_for(
        tbb::blocked_range<std::size_t>(0, P, 1),
        [&](const auto& r) {
          for (std::size_t p = r.begin(); p != r.end(); ++p) {
            partitions[p].totals() = totals;
            if (!partitions[p].runRound(stop, (p + round) % P)) finished[p] = 0;
          }
        },
        affinity);
    mergePartitionTotals(totals, partitions);
    if (!std::all_of(finished.begin(), finished.end(), [](char f) { return f != 0; })) return false;
  }
  return true;
}

}  // namespace latent::core::topic
