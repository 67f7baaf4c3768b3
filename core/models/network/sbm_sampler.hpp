// SPDX-License-Identifier: GPL-3.0-or-later
// The collapsed Gibbs state of the stochastic block model (000 eq. 27.75) and of its
// degree-corrected variant (Karrer & Newman 2011): block sizes and per-block-pair counts of edges
// and held-out pairs, and each node's conditional computed from its own neighbour lists.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <stop_token>
#include <vector>

#include <Eigen/Core>

#include "core/data/graph.hpp"
#include "core/eval/dyad_split.hpp"
#include "core/util/random.hpp"

namespace latent::core::network {

// The training graph as the sampler reads it: each node's neighbours and held-out partners.
// Edge weights are ignored (a listed edge is a link). For an undirected graph the "out" lists
// hold every neighbour and the "in" lists are empty.
class SbmGraph {
 public:
  // `train` is split.train (the graph without its held-out edges); the held-out pairs of `split`
  // become each node's partners that count neither as edge nor as non-edge.
  SbmGraph(const Graph& train, const DyadSplit& split);

  std::int32_t nodeCount() const noexcept { return m_nodes; }
  bool directed() const noexcept { return m_directed; }
  std::int64_t edgeCount() const noexcept { return m_edges; }       // training edges
  std::int64_t heldoutPairs() const noexcept { return m_heldout; }  // pairs treated as missing
  // Node pairs that count as observed: all pairs (ordered when directed) minus the held out.
  double observedPairs() const noexcept;

  std::span<const std::int32_t> out(std::int32_t i) const noexcept { return slice(m_outStart, m_out, i); }
  std::span<const std::int32_t> in(std::int32_t i) const noexcept { return slice(m_inStart, m_in, i); }
  std::span<const std::int32_t> heldOut(std::int32_t i) const noexcept {
    return slice(m_heldOutStart, m_heldOutList, i);
  }
  std::span<const std::int32_t> heldIn(std::int32_t i) const noexcept { return slice(m_heldInStart, m_heldInList, i); }
  // k_i: training links of node i (out + in for a directed graph).
  double degree(std::int32_t i) const noexcept { return m_degree[static_cast<std::size_t>(i)]; }

 private:
  static std::span<const std::int32_t> slice(const std::vector<std::int64_t>& start,
                                             const std::vector<std::int32_t>& list, std::int32_t i) noexcept {
    if (start.empty()) return {};
    const auto b = static_cast<std::size_t>(start[static_cast<std::size_t>(i)]);
    const auto e = static_cast<std::size_t>(start[static_cast<std::size_t>(i) + 1]);
    return {list.data() + b, e - b};
  }

  std::int32_t m_nodes = 0;
  bool m_directed = false;
  std::int64_t m_edges = 0;
  std::int64_t m_heldout = 0;
  std::vector<std::int64_t> m_outStart, m_inStart, m_heldOutStart, m_heldInStart;
  std::vector<std::int32_t> m_out, m_in, m_heldOutList, m_heldInList;
  std::vector<double> m_degree;
};

struct SbmPriors {
  double alpha = 1.0;                     // symmetric Dirichlet on the block proportions (Dirichlet-categorical)
  double densityA = 1.0, densityB = 1.0;  // Beta(a, b) on each block-pair density (plain SBM)
  bool degreeCorrected = false;
  // Gamma(shape, rate) on each block-pair rate omega_kl (degree-corrected). omega is the expected
  // number of links between two blocks, so the prior is vague: mean 100 links, and a rate far
  // below 1 so that it does not shrink omega_kl = e_kl / T_kl towards zero.
  double rateShape = 1.0, rateRate = 0.01;
};

// Collapsed Gibbs sampling of the block of every node.
//
// Plain SBM (000 eq. 27.75): z_i ~ Cat(pi), pi ~ Dir(alpha); A_ij ~ Ber(eta_{z_i z_j}),
// eta_kl ~ Beta(a, b). pi and eta are integrated out, so
//   log P(A, z) = log DirMult(n | alpha) + sum_{block pairs} [log B(e_kl + a, m_kl + b) - log B(a, b)]
// with n_k the block sizes, e_kl the edges and m_kl the non-edges between blocks k and l (each
// unordered pair once for an undirected graph, ordered pairs for a directed one). Held-out pairs
// are missing: they are subtracted from the pairs of their blocks, so m_kl = pairs - e_kl - h_kl.
//
// Degree-corrected SBM (Karrer & Newman 2011): A_ij ~ Poisson(theta_i theta_j omega_{z_i z_j}).
//   - integrated: pi (Dirichlet, as above) and every omega_kl under Gamma(shape, rate):
//       log int omega^e exp(-omega T) Gamma(omega) = log Gamma(e + shape) - log Gamma(shape)
//                                                    + shape log rate - (e + shape) log(T + rate)
//     where T_kl = sum over the observed pairs of blocks k, l of theta_i theta_j;
//   - maximised: the degree factors, at Karrer & Newman's estimate theta_i = k_i / kappa_{z_i}
//     (k_i the node's training links, kappa_k their sum over block k, so sum_{i in k} theta_i = 1).
//     Then T_kl = 1 - W_kl / (kappa_k kappa_l) for k != l, where W_kl sums k_i k_j over the
//     held-out pairs between the blocks; within a block (pairs i != j only, no self-loops)
//     T_kk = c (1 - S_k / kappa_k^2) - W_kk / kappa_k^2 with S_k = sum_{i in k} k_i^2 and c = 1/2
//     for an undirected graph (each pair once), 1 for a directed one. The edge term
//     sum_{edges} log theta_i theta_j = sum_i k_i log k_i - sum_k kappa_k log kappa_k.
//   A directed graph takes one factor per node from its in + out links (not separate in and out
//   factors), which is what the stored "degree_factor" can express; its estimate is the same.
// The "log posterior" of the degree-corrected model is therefore log P(z) + log P(A | z, theta-hat)
// with omega integrated: the Karrer-Newman objective with a Bayesian treatment of omega and pi.
//
// Cost: a node's conditional reads its neighbour lists once (O(degree)), then evaluates K
// candidate blocks against K block pairs each (O(K^2)), so a sweep costs O(E + N K^2), never N^2.
//
// A node whose block is -1 is unassigned: it and its pairs are left out of every count. The
// sequential start grows the partition from all nodes unassigned.
class SbmSampler {
 public:
  SbmSampler(const SbmGraph& graph, int blocks, const SbmPriors& priors);

  int blockCount() const noexcept { return m_K; }
  const SbmGraph& graph() const noexcept { return m_graph; }
  const SbmPriors& priors() const noexcept { return m_priors; }

  // Sets every node's block (-1 = unassigned) and rebuilds all counts from scratch.
  void assign(std::span<const std::int32_t> blocks);
  std::span<const std::int32_t> blocks() const noexcept { return m_z; }

  // Log of P(z_i = k | z_-i, A) up to a constant, for every k, at inverse temperature 1; the
  // state is left as it was (node i is taken out and put back when it is assigned).
  void conditional(std::int32_t i, std::span<double> logWeights);

  // One Gibbs step: takes node i out, draws its block from the conditional raised to the power
  // `inverseTemperature` (1 = exact Gibbs; below 1 flattens it for annealing) and puts it back.
  void resample(std::int32_t i, double inverseTemperature, Rng& rng);

  // Restricted Gibbs step (the split move's launch, Jain & Neal 2004): node i is drawn among
  // `candidates` only, from the conditional restricted to them.
  void resampleAmong(std::int32_t i, std::span<const int> candidates, double inverseTemperature, Rng& rng);

  // Change of logPosterior() if every node of block b joined block a (b left empty): O(K)
  // from the block counts, without moving a node.
  double mergeDelta(int a, int b) const;

  // Resamples the nodes in `order`; false when stopped (the state stays consistent).
  bool sweep(std::span<const std::int32_t> order, double inverseTemperature, Rng& rng, const std::stop_token& stop);

  // Sequential start: every node is unassigned, then the nodes of `order` join one at a time,
  // each drawn from its conditional given the nodes placed before it. False when stopped.
  bool sequentialStart(std::span<const std::int32_t> order, Rng& rng, const std::stop_token& stop);

  // log P(A, z) of the assigned nodes (see the class comment); for the degree-corrected model
  // with theta at its estimate.
  double logPosterior() const;
  // The block-pair part alone: log P(A | z) with eta (or omega) integrated.
  double logLikelihood() const;

  std::int64_t blockSize(int k) const noexcept { return m_n[static_cast<std::size_t>(k)]; }
  std::int64_t edges(int k, int l) const noexcept { return m_e[index(k, l)]; }
  std::int64_t heldoutPairs(int k, int l) const noexcept { return m_h[index(k, l)]; }
  // Observed pairs between blocks k and l: all pairs minus the held out.
  double observedPairs(int k, int l) const noexcept;
  int blocksUsed() const noexcept;

  // Posterior mean densities E[eta_kl | A, z] = (e_kl + a) / (observed_kl + a + b); K x K,
  // symmetric for an undirected graph.
  Eigen::MatrixXd densities() const;
  // Degree-corrected: posterior mean rates E[omega_kl | A, z, theta] = (e_kl + shape) / (T_kl + rate),
  // scaled so that theta_i theta_j omega_kl is the expected number of links of one pair; 0 for a
  // pair of blocks without observed node pairs (an empty block).
  Eigen::MatrixXd rates() const;
  // Degree-corrected: theta_i = k_i / kappa_{z_i} (0 for an unassigned node or an empty block).
  Eigen::VectorXd degreeFactors() const;

 private:
  std::size_t index(int k, int l) const noexcept {
    return static_cast<std::size_t>(k) * static_cast<std::size_t>(m_K) + static_cast<std::size_t>(l);
  }
  // Counts of node i's neighbours and held-out partners per block, into the scratch vectors.
  void gather(std::int32_t i);
  // Adds (sign +1) or removes (-1) node i, whose gathered counts are in the scratch, to block k.
  void apply(std::int32_t i, int k, int sign);
  // logWeights[k] for every k in `candidates` (all blocks when empty); other entries untouched.
  void candidateWeights(std::int32_t i, std::span<double> logWeights, std::span<const int> candidates = {}) const;
  double candidateWeight(std::int32_t i, int k) const;
  int draw(std::span<const int> candidates, double inverseTemperature, Rng& rng);
  // A block-pair term from explicit counts (the merged blocks of mergeDelta).
  // edgeLogGamma: log Gamma(e + a) (or + shape) when the caller has it, NaN to compute it.
  double termOf(bool diagonal, double nk, double nl, double e, double h, double kappaK, double kappaL, double sK,
                double w, double edgeLogGamma = std::numeric_limits<double>::quiet_NaN()) const noexcept;
  void refreshTerms(int k);
  double pairs(int k, int l) const noexcept;
  double exposure(bool diagonal, double kappaK, double kappaL, double sK, double w) const noexcept;
  double densityTerm(double edges, double nonEdges, double edgeLogGamma) const noexcept;
  double rateTerm(double edges, double exposure, double edgeLogGamma) const noexcept;
  double pairTerm(int k, int l) const noexcept;
  double logPrior() const;

  const SbmGraph& m_graph;
  int m_K;
  SbmPriors m_priors;
  double m_logBetaPrior = 0.0;  // log B(a, b)
  double m_rateConstant = 0.0;  // shape log rate - log Gamma(shape)
  std::vector<std::int32_t> m_z;
  std::int64_t m_assigned = 0;
  double m_degreeTerm = 0.0;           // sum of k_i log k_i over the assigned nodes
  std::vector<std::int64_t> m_n;       // K block sizes
  std::vector<std::int64_t> m_e, m_h;  // K x K edges and held-out pairs (row k: from block k)
  std::vector<double> m_kappa, m_s;    // K: sum of k_i and of k_i^2 (degree-corrected)
  std::vector<double> m_w;             // K x K: sum of k_i k_j over held-out pairs (degree-corrected)
  std::vector<double> m_term;          // K x K cached pairTerm(k, l)
  std::vector<double> m_edgeLogGamma;  // K x K cached log Gamma(e_kl + a) (plain) or (e_kl + shape) (corrected)
  // Scratch of gather(): node i's links and held-out partners per block, out and in.
  std::vector<std::int64_t> m_dOut, m_dIn, m_hOut, m_hIn;
  std::vector<double> m_wOut, m_wIn;  // sum of the partners' k_j per block (degree-corrected)
  std::vector<double> m_weights;      // K
};

// log Gamma(x) for x > 0 by Stirling's series after shifting x above 10 (absolute error below
// 1e-13); unlike std::lgamma it never writes the global `signgam`, so threads can call it.
double sbmLogGamma(double x) noexcept;

}  // namespace latent::core::network
