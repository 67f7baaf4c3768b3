// SPDX-License-Identifier: GPL-3.0-or-later
// The state of the infinite relational model's collapsed Gibbs sampler (Kemp et al. 2006; 000
// §27.6.1, eq. 27.82): a partition of each type under a Chinese restaurant process, link and
// non-link counts between blocks with the Beta(a, b) densities integrated out, single-node Gibbs
// moves and Jain & Neal (2004) split-merge moves.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <stop_token>
#include <vector>

#include <Eigen/Core>

#include "core/models/network/irm_relation.hpp"
#include "core/util/random.hpp"

namespace latent::core::network {

// At most this many blocks in all: beyond it no new block opens (a truncated CRP), so the K x K
// count tables stay within tens of megabytes whatever the concentration.
inline constexpr int kIrmMaxBlocks = 1000;

struct IrmPriors {
  double concentration = 1.0;  // CRP concentration alpha, the same for both types
  double a = 1.0;              // Beta(a, b) prior of every block pair's link density
  double b = 1.0;
};

// One possible block for a node: an existing block's id, or -1 for a new block.
struct IrmCandidate {
  int block = -1;
  double probability = 0.0;
};

// log Gamma(a + x), log Gamma(b + x) and log Gamma(a + b + x) for the counts x a block pair can
// reach (up to a memory cap), so that the conditional's inner loop costs lookups, not lgamma calls.
// Built once per fit and shared by its chains.
struct IrmLogGammaTables {
  IrmLogGammaTables(const IrmPriors& priors, std::int64_t nodes);
  double a = 1.0, b = 1.0;
  double logBetaPrior = 0.0;  // log B(a, b)
  std::vector<double> logGammaA, logGammaB, logGammaAB;
};

struct SplitMergeTally {
  std::int64_t proposed = 0;
  std::int64_t accepted = 0;
};

// Blocks have internal ids that stay fixed while they hold nodes; labels() numbers them compactly.
// The relation must outlive the sampler. `tables` must have been built for the same priors and at
// least as many nodes; null builds them.
class IrmSampler {
 public:
  IrmSampler(const IrmRelation& relation, IrmPriors priors, std::shared_ptr<const IrmLogGammaTables> tables = nullptr);

  // Sets every node's block. Labels are any non-negative numbers; nodes with the same label form
  // one block, and must share a type. Throws UsageError otherwise.
  void assign(std::span<const int> labels);
  void assignOneBlockPerType();
  // Each node in one of `blocksPerType` blocks of its type (at most one per node) uniformly at
  // random: a random start with more blocks than the data need, which the sampler merges.
  void assignRandom(Rng& rng, int blocksPerType);

  // One Gibbs sweep over the nodes in a random order (Neal 2000, algorithm 3: the block densities
  // are integrated out, an empty block is dropped, a new one opens with weight alpha). Returns
  // false when `stop` was requested part way; the state is consistent either way.
  bool gibbsSweep(Rng& rng, std::stop_token stop);

  // `proposals` split-merge proposals (Jain & Neal 2004), each launched by `scans` restricted Gibbs
  // scans. Accepted moves split one block in two or merge two blocks of one type.
  SplitMergeTally splitMerge(Rng& rng, int proposals, int scans, std::stop_token stop);

  // P(block of i | everyone else's blocks, training pairs): over the blocks of i's type without i,
  // and a new block (-1). The state is left as it was.
  std::vector<IrmCandidate> conditional(std::int32_t i);

  // log p(R_train, z) = log CRP(z) + sum over block pairs of log B(a + links, b + non-links) - log B(a, b)
  // (each type's partition prior times the collapsed Beta-Bernoulli likelihood of eq. 27.82).
  double logJoint() const { return logPrior() + logLikelihood(); }
  double logPrior() const;
  double logLikelihood() const;

  int blockCount() const;
  int blockCount(int type) const;
  int blockOf(std::int32_t v) const noexcept { return m_z[static_cast<std::size_t>(v)]; }
  const IrmRelation& relation() const noexcept { return m_rel; }

  // Compact labels per node: the blocks of type 0 first, each type's blocks numbered in the order of
  // their first node.
  std::vector<int> labels() const;
  // K x K posterior mean link densities (a + links) / (a + b + links + non-links) between the blocks
  // numbered as by labels(); 0 between blocks of the same type in a two-type relation.
  Eigen::MatrixXd blockMatrix() const;

  // Counts between blocks k and l (internal ids) of the current state: training links, training
  // non-links, and held-out (missing) pairs. For an undirected relation the pair is unordered.
  std::int64_t links(int k, int l) const { return m_links[cell(k, l)]; }
  std::int64_t missing(int k, int l) const { return m_missing[cell(k, l)]; }
  std::int64_t nonLinks(int k, int l) const { return pairs(k, l) - links(k, l) - missing(k, l); }

 private:
  std::size_t cell(int k, int l) const noexcept {
    return static_cast<std::size_t>(k) * m_capacity + static_cast<std::size_t>(l);
  }
  std::int64_t pairs(int k, int l) const noexcept;
  const std::vector<int>& partnerBlocks(int type) const noexcept;
  void clearState();
  void grow(std::size_t capacity);
  int openBlock(std::uint8_t type, int id = -1);
  void closeBlock(int k);
  void refreshCell(int k, int l);
  void refreshBlock(int k);
  // Per-block counts of i's training neighbours and held-out partners, in the scratch arrays.
  void gather(std::int32_t i);
  void clearScratch();
  // Adds (+1) or removes (-1) the node whose counts gather() holds to or from block k.
  void apply(int k, int sign);
  void detach(std::int32_t i);
  void attach(std::int32_t i, int k);
  void moveNode(std::int32_t i, int k);
  // log of the change in the likelihood when i (gathered, detached) joins block k (-1: a new block).
  double likelihoodGain(int k, std::uint8_t type) const;
  double cellGain(int k, int l, std::int64_t addLinks, std::int64_t addNonLinks) const;
  // log B(a + links, b + nonLinks) - log B(a, b).
  double cellLog(std::int64_t links, std::int64_t nonLinks) const noexcept;
  int sample(std::span<const double> logWeights, Rng& rng) const;
  void gibbsStep(std::int32_t i, Rng& rng);
  // A restricted Gibbs scan of `members` between blocks x and y; adds to *logQ the log probability of
  // each choice; with `forced`, moves each member to forced[m] instead of sampling.
  // Both return false when `stop` was requested part way (some members may then be unplaced).
  bool restrictedScan(std::span<const std::int32_t> members, int x, int y, Rng& rng, double* logQ,
                      const std::vector<int>* forced, std::stop_token stop);
  bool sequentialLaunch(std::span<const std::int32_t> members, int x, int y, Rng& rng, std::stop_token stop);
  bool proposeSplitMerge(Rng& rng, int scans, std::stop_token stop);

  const IrmRelation& m_rel;
  IrmPriors m_priors;
  std::shared_ptr<const IrmLogGammaTables> m_tables;
  double m_logBetaPrior = 0.0;
  std::vector<int> m_z;
  std::vector<std::vector<std::int32_t>> m_nodesOfType;
  std::size_t m_capacity = 0;
  std::vector<std::int64_t> m_size;
  std::vector<std::uint8_t> m_blockType;
  std::vector<char> m_open;
  std::vector<int> m_blocksOfType[2];
  std::vector<std::int64_t> m_links, m_missing;
  std::vector<double> m_cellLog;  // log B(a + links, b + non-links) - log B(a, b)
  std::vector<std::int64_t> m_linkOut, m_linkIn, m_missOut, m_missIn;
  std::vector<int> m_touched;
  std::vector<std::int32_t> m_order;
  std::vector<std::int32_t> m_launchOrder;
  std::vector<int> m_candidates;
  std::vector<double> m_weights;
};

}  // namespace latent::core::network
