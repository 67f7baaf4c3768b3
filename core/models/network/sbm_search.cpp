// SPDX-License-Identifier: GPL-3.0-or-later
// One SBM start: random blocks, annealed Gibbs sweeps and merge-split moves (see sbm_search.hpp).
#include "core/models/network/sbm_search.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

namespace latent::core::network {
namespace {

// Above this many block pairs the merge is chosen among a random sample of them.
constexpr std::int64_t kMaxMergePairs = 5000;
// Blocks tried as the one to split, from the largest down.
constexpr std::size_t kMaxSplitTries = 8;

// The launch state of a split: half of block c's members, grown by breadth-first search from a
// random member along links inside c, move to block b. Members of one group reach each other
// first, so the launch already leans towards the split a restricted Gibbs run then completes;
// from a random half it would first have to break the symmetry, which takes many sweeps on a
// large graph. A disconnected block restarts the search from another random member.
void launchSplit(const SbmGraph& graph, std::span<const std::int32_t> members, int c, int b,
                 std::vector<std::int32_t>& blocks, std::vector<std::int32_t>& queue, std::vector<char>& visited,
                 Rng& rng) {
  visited.assign(blocks.size(), 0);
  const std::size_t half = members.size() / 2;
  std::size_t moved = 0;
  queue.clear();
  std::size_t head = 0;
  while (moved < half) {
    if (head == queue.size()) {
      std::int32_t seed = members[rng.below(members.size())];
      while (visited[static_cast<std::size_t>(seed)]) seed = members[rng.below(members.size())];
      visited[static_cast<std::size_t>(seed)] = 1;
      queue.push_back(seed);
    }
    const auto u = queue[head++];
    blocks[static_cast<std::size_t>(u)] = b;
    ++moved;
    for (const auto list : {graph.out(u), graph.in(u)})
      for (const auto v : list)
        if (blocks[static_cast<std::size_t>(v)] == c && !visited[static_cast<std::size_t>(v)]) {
          visited[static_cast<std::size_t>(v)] = 1;
          queue.push_back(v);
        }
  }
}

}  // namespace

bool tryMergeSplit(SbmSampler& sampler, std::int64_t splitSweeps, Rng& rng, const std::stop_token& stop, double* work) {
  const int K = sampler.blockCount();
  if (K < 3) return false;
  const double before = sampler.logPosterior();
  const std::vector<std::int32_t> original(sampler.blocks().begin(), sampler.blocks().end());

  // The merge that costs least; an empty block merges for free, which makes the move a plain
  // split into the empty block.
  int a = -1, b = -1;
  double best = -std::numeric_limits<double>::infinity();
  const auto consider = [&](int x, int y) {
    if (sampler.blockSize(x) + sampler.blockSize(y) == 0) return;
    const double delta = sampler.mergeDelta(x, y);
    if (delta > best) {
      best = delta;
      // The smaller block is the one emptied.
      a = sampler.blockSize(x) >= sampler.blockSize(y) ? x : y;
      b = a == x ? y : x;
    }
  };
  const std::int64_t pairCount = std::int64_t{K} * (K - 1) / 2;
  if (pairCount <= kMaxMergePairs) {
    for (int x = 0; x < K; ++x)
      for (int y = x + 1; y < K; ++y) consider(x, y);
  } else {
    for (std::int64_t t = 0; t < kMaxMergePairs; ++t) {
      const int x = static_cast<int>(rng.below(static_cast<std::uint64_t>(K)));
      const int y = static_cast<int>(rng.below(static_cast<std::uint64_t>(K - 1)));
      consider(x, y >= x ? y + 1 : y);
    }
  }
  if (a < 0) return false;

  std::vector<int> splitOrder;
  for (int c = 0; c < K; ++c)
    if (c != a && c != b && sampler.blockSize(c) >= 2) splitOrder.push_back(c);
  std::stable_sort(splitOrder.begin(), splitOrder.end(),
                   [&](int x, int y) { return sampler.blockSize(x) > sampler.blockSize(y); });
  if (splitOrder.size() > kMaxSplitTries) splitOrder.resize(kMaxSplitTries);

  std::vector<std::int32_t> blocks, members, queue;
  std::vector<char> visited;
  for (const int c : splitOrder) {
    blocks = original;
    members.clear();
    for (std::size_t i = 0; i < blocks.size(); ++i) {
      if (blocks[i] == b)
        blocks[i] = a;
      else if (blocks[i] == c)
        members.push_back(static_cast<std::int32_t>(i));
    }
    launchSplit(sampler.graph(), members, c, b, blocks, queue, visited, rng);
    sampler.assign(blocks);
    const int among[2] = {b, c};
    for (std::int64_t t = 0; t < splitSweeps; ++t) {
      if (stop.stop_requested()) {
        sampler.assign(original);
        return false;
      }
      rng.shuffle(std::span<std::int32_t>(members));
      for (const auto i : members) sampler.resampleAmong(i, among, 1.0, rng);
    }
    // Restricted sweeps weigh 2 of K candidates for a share of the nodes.
    if (work) *work += static_cast<double>(splitSweeps * members.size()) * 2.0 / K / static_cast<double>(blocks.size());
    if (sampler.logPosterior() > before + 1e-9) return true;
  }
  sampler.assign(original);
  return false;
}

SbmSearchResult searchPartition(SbmSampler& sampler, const SbmSearchSettings& settings, Rng& rng,
                                const std::stop_token& stop) {
  SbmSearchResult result;
  result.logPosterior = -std::numeric_limits<double>::infinity();
  const auto N = static_cast<std::size_t>(sampler.graph().nodeCount());
  const auto K = static_cast<std::uint64_t>(sampler.blockCount());
  std::vector<std::int32_t> order(N);
  std::iota(order.begin(), order.end(), 0);
  std::vector<std::int32_t> blocks(N);
  for (auto& z : blocks) z = static_cast<std::int32_t>(rng.below(K));
  sampler.assign(blocks);

  bool stopped = false;
  std::int64_t stale = 0;
  const auto keepIfBest = [&] {
    const double lp = sampler.logPosterior();
    if (lp > result.logPosterior) {
      result.logPosterior = lp;
      result.blocks.assign(sampler.blocks().begin(), sampler.blocks().end());
      stale = 0;
    } else {
      ++stale;
    }
  };
  const auto sweep = [&](double beta) {
    rng.shuffle(std::span<std::int32_t>(order));
    stopped = !sampler.sweep(order, beta, rng, stop);
    if (!stopped) result.work += 1.0;
    return !stopped;
  };
  const auto budgetLeft = [&] { return result.work < static_cast<double>(settings.maxSweeps); };
  const auto sweepWhileImproving = [&] {
    stale = 0;
    while (stale < settings.patience && budgetLeft() && sweep(1.0)) keepIfBest();
  };

  // Annealing: beta climbs linearly from startInverseTemperature to 1 at the last of these sweeps.
  const auto S = std::max<std::int64_t>(1, settings.annealSweeps);
  for (std::int64_t s = 1; s <= S && !stopped; ++s) {
    const double beta = settings.startInverseTemperature +
                        (1.0 - settings.startInverseTemperature) * static_cast<double>(s) / static_cast<double>(S);
    if (sweep(std::min(1.0, beta)) && s == S) keepIfBest();
  }
  if (!stopped) sweepWhileImproving();
  for (int attempt = 0; !stopped && budgetLeft() && attempt < 2 * sampler.blockCount(); ++attempt) {
    // Merge-split from the best state, so that a sweep's noise is not what the move repairs.
    sampler.assign(result.blocks);
    if (!tryMergeSplit(sampler, settings.splitSweeps, rng, stop, &result.work)) break;
    ++result.mergeSplits;
    keepIfBest();
    sweepWhileImproving();
  }
  stopped = stopped || stop.stop_requested();
  if (result.blocks.empty()) {  // stopped before the first sweep at temperature 1
    result.logPosterior = sampler.logPosterior();
    result.blocks.assign(sampler.blocks().begin(), sampler.blocks().end());
  }
  return result;
}

}  // namespace latent::core::network
