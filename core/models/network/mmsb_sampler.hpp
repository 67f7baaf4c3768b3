// SPDX-License-Identifier: GPL-3.0-or-later
// One chain of the MMSB collapsed Gibbs sampler (001 eq. 3): which dyads it visits (all of them,
// or the edges and a fresh sample of non-edges each sweep), sweeps, and training likelihood.
#pragma once

#include <cstdint>
#include <span>
#include <stop_token>
#include <vector>

#include <Eigen/Core>

#include "core/data/graph.hpp"
#include "core/eval/dyad_split.hpp"
#include "core/models/network/mmsb_counts.hpp"
#include "core/util/random.hpp"

namespace latent::core::network {

enum class NonEdgeMode {
  // Every training dyad, edge or not, is a unit with its own pair of indicators: the collapsed
  // Gibbs sampler of 001 eq. 3 as written. O(N^2) memory and time per sweep.
  Exact,
  // 001's remark on scaling: the edges keep their indicators, and each sweep every node i draws
  // anew about U_i / w of its U_i non-edges (uniformly, with replacement; held-out pairs are never
  // drawn), where w = (training non-edges) / (ratio * training edges) is the same for all nodes
  // (undirected: U_i / 2w, since a pair can be drawn from either end). A drawn non-edge gets its
  // pair of indicators from 001 eq. 3 like any dyad; it adds w to the non-link count n_pq- of its
  // block pair (and to the background count of the robust variant) but 1 to the membership
  // counts m of its two nodes.
  // What is estimated: n_pq- is an unbiased (Horvitz-Thompson) estimate of the non-link count
  // over all non-edges, so B and the link probabilities are on the scale of the whole graph.
  // theta_i is the posterior mean given node i's edges and its sampled non-edges (a case-control
  // sample, each pair counted once), not given all its N - 1 pairs: links weigh more in the
  // memberships than in the exact sampler.
  // Why not weight the memberships by w too: a node's membership counts would then rest on a
  // handful of draws each worth w, redrawn every sweep, so theta_i jumps by about
  // 1 / sqrt(draws) per sweep, a random walk that drowns the pull of the node's few links. On a
  // generated 4000-node SBM (4 blocks, mean degree 20, w about 200) chains weighted that way were
  // at NMI 0.00-0.49 after 25 sweeps and 0.20-0.99 after 100, where these reached 1.00 in all four.
  // (Letting one draw stand for w non-edges that share its indicators, with the exact conditional
  // of such a group, is unsound the other way: a w-fold likelihood against a single membership
  // count rewards a fit where one block pair soaks up the non-edges.)
  // A sweep costs O((1 + ratio) E K^2), not O(N^2 K^2).
  Sampled,
};

struct MmsbChainSettings {
  MmsbHyperparameters hyper;
  NonEdgeMode mode = NonEdgeMode::Exact;
  double nonEdgeRatio = 1.0;  // sampled: non-edges drawn per sweep per training edge
  // After each Gibbs pass, two Metropolis-Hastings proposals per node that swap two of its blocks
  // in all its indicators at once: a uniform pair, and one guided by its links (see swapMoves).
  bool swapMoves = true;
  // The start: every node gets a random block, and each of its indicators takes that block with
  // this probability, else a uniform random one. 1 is a random hard partition (the swap moves
  // then start out as node moves between blocks), 0 independent random indicators (every theta_i
  // near uniform, so blocks must first emerge from noise). No one value is good everywhere.
  // Chains that found the planted blocks, on generated SBMs with sampled non-edges (mean degree
  // 20; 100 sweeps) and on two dense 150-node mixed-membership graphs (200 sweeps):
  //   start             1000 nodes, K=4   2000 nodes, K=3   mixed-membership
  //   hard (1)          7 of 12           6 of 8            2 of 24
  //   half (0.5)        6 of 12           2 of 8            24 of 24
  //   independent (0)   3 of 12           0 of 8            19 of 24
  // From a hard start on a dense graph the memberships are sharp at once, so single indicators
  // hardly move and two blocks stay merged; from a soft start on a sparse graph, where a node
  // has few units, one block tends to take every node. The model alternates hard and half over
  // its restarts and keeps the better fit. (Measured before the guided swap of swapMoves.)
  double startSharpness = 0.5;
  std::uint64_t seed = 1;
  std::uint64_t stream = 0;  // one stream per restart
};

// Training dyads (ordered pairs i != j when directed, unordered pairs i < j otherwise) that are
// not held out: the units of the exact mode.
std::int64_t trainingDyadCount(const Graph& train, const DyadSplit& split);

class MmsbChain {
 public:
  // `train` and `split` must outlive the chain. The start is random (see startSharpness). A stop
  // request cuts the start short: the units placed so far are counted, the rest are missing.
  MmsbChain(const Graph& train, const DyadSplit& split, const MmsbChainSettings& settings,
            const std::stop_token& stop = {});

  // One sweep over every unit; false when `stop` interrupted it (the state stays consistent:
  // every unit is counted exactly once).
  bool sweep(const std::stop_token& stop);

  const MmsbCounts& counts() const noexcept { return m_counts; }
  // The current units: every training dyad (exact), or the edges (sampled) and this sweep's
  // drawn non-edges.
  std::span<const DyadUnit> units() const noexcept { return m_units; }
  std::span<const DyadUnit> drawnNonEdges() const noexcept { return m_drawn; }
  NonEdgeMode mode() const noexcept { return m_mode; }
  // Sampled mode: the w each drawn non-edge stands for, and how many are drawn per sweep (about).
  double nonEdgeWeight() const noexcept { return m_weight; }
  double sampledNonEdgesPerSweep() const noexcept { return m_nonEdgeUnits / m_weight; }
  std::int64_t trainingEdges() const noexcept { return m_edgeCount; }
  double trainingNonEdges() const noexcept { return m_nonEdgeUnits; }

  // log P(E_train | theta, B) = sum over training dyads of log P(E_ij), P(E_ij = 1) =
  // scale * theta_i' B theta_j; in the sampled mode the non-edges' part is estimated from the
  // current sample (each drawn non-edge weighted by w). Divide by trainingDyads() for a mean.
  double trainingLogLikelihood(const Eigen::MatrixXd& theta, const Eigen::MatrixXd& blockMatrix, double scale) const;
  double trainingDyads() const noexcept { return static_cast<double>(m_edgeCount) + m_nonEdgeUnits; }

 private:
  void drawUnit(DyadUnit& unit);
  void randomIndicators(DyadUnit& unit);
  void redrawNonEdges(std::int32_t node, std::vector<DyadUnit>& next);
  void buildIncidence();
  bool swapMoves(const std::stop_token& stop);
  void guidedSwap(std::int32_t i);
  // The Metropolis-Hastings step of a swap of blocks p and q in all of node i's indicators.
  bool trySwap(std::int32_t i, int p, int q, double logProposalRatio);
  DyadUnit& unitAt(std::int64_t ref) noexcept {
    const auto edges = static_cast<std::int64_t>(m_units.size());
    return ref < edges ? m_units[static_cast<std::size_t>(ref)] : m_drawn[static_cast<std::size_t>(ref - edges)];
  }
  std::int32_t drawPartner(std::int32_t node);
  bool isNeighbour(std::int32_t i, std::int32_t j) const;

  const Graph& m_train;
  const DyadSplit& m_split;
  NonEdgeMode m_mode;
  MmsbCounts m_counts;
  Rng m_rng;
  std::vector<DyadUnit> m_units;               // exact: every training dyad; sampled: the training edges
  std::vector<DyadUnit> m_drawn;               // sampled: this sweep's drawn non-edges, grouped by node
  std::vector<std::int64_t> m_drawnStart;      // node i's drawn non-edges: [start[i], start[i+1])
  std::vector<std::int64_t> m_adjacencyStart;  // sampled mode: sorted neighbours (out-neighbours if directed)
  std::vector<std::int32_t> m_adjacency;
  std::vector<double> m_nonEdgesOf;  // U_i: non-edges node i may draw
  std::int64_t m_edgeCount = 0;      // training edges
  double m_nonEdgeUnits = 0.0;       // training non-edges (dyads)
  double m_weight = 1.0;
  std::vector<double> m_scratch;
  bool m_swapMoves = true;
  bool m_started = false;  // false when a stop request cut the start short
  double m_startSharpness = 0.5;
  std::vector<std::uint16_t> m_startBlock;  // each node's start block (empty when sharpness is 0)
  // Each node's units (index into m_units, then m_drawn) times 2, plus 1 where it is the target.
  std::vector<std::int64_t> m_incidenceStart, m_incidence;
  std::vector<double> m_deltaLinked, m_deltaUnlinked;
  std::vector<std::size_t> m_touched;
  std::vector<std::uint8_t> m_isTouched;
  std::vector<double> m_linkedBlocks;  // guidedSwap: w_b
};

}  // namespace latent::core::network
