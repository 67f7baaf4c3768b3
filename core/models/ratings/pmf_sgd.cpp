// SPDX-License-Identifier: GPL-3.0-or-later
// Blocked, seeded SGD epochs for pmf.
#include "core/models/ratings/pmf_sgd.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <numeric>
#include <span>

#include "core/util/random.hpp"

namespace latent::core::pmf {
namespace {

constexpr std::uint64_t kGroupStream = 0x504D4647524F5550ULL;     // "PMFGROUP"
constexpr std::uint64_t kScheduleStream = 0x504D465343484544ULL;  // "PMFSCHED"
constexpr std::uint64_t kShuffleStream = 0x504D465348554646ULL;   // "PMFSHUFF"
// Chunks between two looks at the stop token: a few hundred microseconds of work.
constexpr std::size_t kStopCheckChunks = 4;

// Each of n rows goes to one of B groups: a seeded permutation cut into B near-equal parts, so
// heavy and light users spread evenly over the groups.
std::vector<std::int32_t> dealGroups(std::int32_t n, int blocks, Rng rng) {
  std::vector<std::int32_t> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  rng.shuffle(std::span<std::int32_t>(order));
  std::vector<std::int32_t> group(static_cast<std::size_t>(n));
  for (std::int64_t k = 0; k < n; ++k)
    group[static_cast<std::size_t>(order[static_cast<std::size_t>(k)])] =
        static_cast<std::int32_t>(k * blocks / std::max<std::int64_t>(n, 1));
  return group;
}

}  // namespace

SgdPenalties SgdPenalties::from(const TrainingRatings& data, const Regularization& reg) {
  SgdPenalties p;
  auto perVisit = [](double ridge, std::int64_t n) { return n > 0 ? static_cast<float>(ridge / double(n)) : 0.0f; };
  p.userFactor.resize(static_cast<std::size_t>(data.users));
  p.userBias.resize(static_cast<std::size_t>(data.users));
  for (std::int32_t u = 0; u < data.users; ++u) {
    const auto n = data.userDegree(u);
    p.userFactor[static_cast<std::size_t>(u)] = perVisit(reg.factorRidge(n), n);
    p.userBias[static_cast<std::size_t>(u)] = perVisit(reg.biasRidge(n), n);
  }
  p.itemFactor.resize(static_cast<std::size_t>(data.items));
  p.itemBias.resize(static_cast<std::size_t>(data.items));
  for (std::int32_t i = 0; i < data.items; ++i) {
    const auto n = data.itemDegree(i);
    p.itemFactor[static_cast<std::size_t>(i)] = perVisit(reg.factorRidge(n), n);
    p.itemBias[static_cast<std::size_t>(i)] = perVisit(reg.biasRidge(n), n);
  }
  return p;
}

SgdSolver::SgdSolver(const TrainingRatings& data, const Regularization& reg, int blocks, std::uint64_t seed)
    : m_blocks(std::max(1, blocks)), m_seed(seed), m_penalties(SgdPenalties::from(data, reg)) {
  const auto B = static_cast<std::int64_t>(m_blocks);
  const auto userGroup = dealGroups(data.users, m_blocks, Rng(seed, kGroupStream));
  const auto itemGroup = dealGroups(data.items, m_blocks, Rng(seed, kGroupStream + 1));
  m_blockStart.assign(static_cast<std::size_t>(B * B + 1), 0);
  auto blockOf = [&](std::int32_t u, std::int32_t i) {
    return userGroup[static_cast<std::size_t>(u)] * B + itemGroup[static_cast<std::size_t>(i)];
  };
  for (std::int32_t u = 0; u < data.users; ++u)
    for (auto k = data.userStart[u]; k < data.userStart[u + 1]; ++k)
      ++m_blockStart[static_cast<std::size_t>(blockOf(u, data.userItems[static_cast<std::size_t>(k)]) + 1)];
  for (std::size_t b = 0; b + 1 < m_blockStart.size(); ++b) m_blockStart[b + 1] += m_blockStart[b];
  std::vector<std::int64_t> next(m_blockStart.begin(), m_blockStart.end() - 1);
  m_cells.resize(static_cast<std::size_t>(data.count));
  for (std::int32_t u = 0; u < data.users; ++u) {
    for (auto k = data.userStart[u]; k < data.userStart[u + 1]; ++k) {
      const auto i = data.userItems[static_cast<std::size_t>(k)];
      m_cells[static_cast<std::size_t>(next[static_cast<std::size_t>(blockOf(u, i))]++)] = {
          u, i, data.userValues[static_cast<std::size_t>(k)]};
    }
  }
  // Each block's ratings in a random order once; every epoch then walks the block's chunks in a
  // fresh order (a full reshuffle per epoch would take as long as the updates themselves).
  for (std::int64_t b = 0; b < B * B; ++b) {
    const auto begin = m_blockStart[static_cast<std::size_t>(b)], end = m_blockStart[static_cast<std::size_t>(b) + 1];
    std::span<Cell> cells(m_cells.data() + begin, static_cast<std::size_t>(end - begin));
    Rng(seed, kShuffleStream - 1 - static_cast<std::uint64_t>(b)).shuffle(cells);
  }
  m_chunkOrder.resize(static_cast<std::size_t>(B * B));
}

bool SgdSolver::runBlock(Parameters& params, std::int64_t block, float learningRate, std::int64_t epochIndex,
                         std::stop_token stop) {
  const auto first = m_blockStart[static_cast<std::size_t>(block)];
  const auto last = m_blockStart[static_cast<std::size_t>(block) + 1];
  const auto chunks = (last - first + kChunk - 1) / kChunk;
  // This epoch's order of the block's chunks, from the block's own stream.
  const auto B = static_cast<std::uint64_t>(m_blocks);
  std::vector<std::int64_t>& order = m_chunkOrder[static_cast<std::size_t>(block)];
  order.resize(static_cast<std::size_t>(chunks));
  std::iota(order.begin(), order.end(), std::int64_t{0});
  Rng rng(m_seed, kShuffleStream + static_cast<std::uint64_t>(epochIndex) * B * B + static_cast<std::uint64_t>(block));
  rng.shuffle(std::span<std::int64_t>(order));

  const int stride = params.users.stride;
  float* users = params.users.values.data();
  float* items = params.items.values.data();
  float* userBias = params.userBias.data();
  float* itemBias = params.itemBias.data();
  const float* cu = m_penalties.userFactor.data();
  const float* ci = m_penalties.itemFactor.data();
  const float* cbu = m_penalties.userBias.data();
  const float* cbi = m_penalties.itemBias.data();
  for (std::size_t c = 0; c < order.size(); ++c) {
    if (c % kStopCheckChunks == 0 && c > 0 && stop.stop_requested()) return false;
    const auto begin = first + order[c] * kChunk;
    const auto end = std::min(last, begin + kChunk);
    for (const Cell* cell = m_cells.data() + begin; cell != m_cells.data() + end; ++cell) {
      const auto u = cell->user, i = cell->item;
      sgdStep(users + std::int64_t{u} * stride, items + std::int64_t{i} * stride, userBias[u], itemBias[i], stride,
              cell->target, learningRate, cu[u], ci[i], cbu[u], cbi[i]);
    }
  }
  return true;
}

bool SgdSolver::epoch(Parameters& params, float learningRate, std::int64_t epochIndex, std::stop_token stop) {
  if (m_blocks == 1) return runBlock(params, 0, learningRate, epochIndex, stop);
  std::vector<int> shifts(static_cast<std::size_t>(m_blocks));
  std::iota(shifts.begin(), shifts.end(), 0);
  Rng(m_seed, kScheduleStream + static_cast<std::uint64_t>(epochIndex)).shuffle(std::span<int>(shifts));
  std::atomic<bool> stopped{false};
  for (const int s : shifts) {
    // The B blocks of one shift touch disjoint users and items: any thread may run any of them.
    tbb::parallel_for(tbb::blocked_range<int>(0, m_blocks, 1), [&](const auto& range) {
      for (int a = range.begin(); a != range.end(); ++a) {
        const std::int64_t block = std::int64_t{a} * m_blocks + (a + s) % m_blocks;
        if (!stopped.load(std::memory_order_relaxed) && !runBlock(params, block, learningRate, epochIndex, stop))
          stopped.store(true, std::memory_order_relaxed);
      }
    });
    if (stopped.load() || stop.stop_requested()) return false;
  }
  return true;
}

}  // namespace latent::core::pmf
