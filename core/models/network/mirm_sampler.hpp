// SPDX-License-Identifier: GPL-3.0-or-later
// The multi-relational infinite relational model's collapsed Gibbs sampler (Kemp et al. 2006; 000
// §27.6.1, §27.6.1.2 and Fig. 27.26): one partition of the nodes under a Chinese restaurant process,
// shared by several relations over those nodes, each relation with its own Beta-Bernoulli block-pair
// densities integrated out; and node features co-clustered: the features get their own CRP
// partition, and the node x feature binary matrix is one more relation, between the node partition
// and the feature partition.
#pragma once

#include <cstdint>
#include <span>
#include <stop_token>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "core/models/network/irm_relation.hpp"
#include "core/models/network/irm_sampler.hpp"
#include "core/util/random.hpp"

namespace latent::core::network {

// What the sampler sees: relations of one type over the same nodes (held-out pairs as missing
// pairs), and the node features as a nodes x features matrix of 1, 0 or -1 (missing).
struct MirmData {
  std::int32_t nodes = 0;
  std::vector<IrmRelation> relations;
  std::int32_t features = 0;
  std::vector<std::int8_t> featureValues;  // node-major: featureValues[v * features + f]

  std::int8_t feature(std::int32_t v, std::int32_t f) const noexcept {
    return featureValues[static_cast<std::size_t>(v) * static_cast<std::size_t>(features) +
                         static_cast<std::size_t>(f)];
  }
};

struct MirmPriors {
  double concentration = 1.0;         // CRP concentration of the node partition
  double featureConcentration = 1.0;  // CRP concentration of the feature partition
  double a = 1.0;                     // Beta(a, b) prior of every block pair's density, all relations
  double b = 1.0;
};

// Node blocks and feature clusters have internal ids that stay fixed while they hold members;
// labels() and featureLabels() number them compactly in order of their first member.
class MirmSampler {
 public:
  MirmSampler(const MirmData& data, MirmPriors priors);

  // Sets every node's block and every feature's cluster (any non-negative labels).
  void assign(std::span<const int> nodeLabels, std::span<const int> featureLabels);
  // Nodes in `nodeBlocks` blocks and features in `featureBlocks` clusters uniformly at random.
  void assignRandom(Rng& rng, int nodeBlocks, int featureBlocks);

  // One sweep: each node, then each feature, in a random order, resampled from its conditional
  // (Neal 2000, algorithm 3). False when `stop` was requested part way; the state is consistent.
  bool gibbsSweep(Rng& rng, std::stop_token stop);
  // Split-merge proposals for the node partition (Jain & Neal 2004), launched as the irm's are.
  SplitMergeTally splitMerge(Rng& rng, int proposals, int scans, std::stop_token stop);

  // P(block of node i | every other block, the data): over the blocks without i and a new block
  // (-1), as a Gibbs move samples it. The state is left as it was.
  std::vector<IrmCandidate> conditional(std::int32_t i);
  int blockOf(std::int32_t v) const noexcept { return m_z[static_cast<std::size_t>(v)]; }
  // Likewise for feature f's cluster.
  std::vector<IrmCandidate> featureConditional(std::int32_t f);
  int featureBlockOf(std::int32_t f) const noexcept { return m_w[static_cast<std::size_t>(f)]; }

  // log CRP(z) + log CRP(w) + the collapsed Beta-Bernoulli likelihood of every relation and of the
  // feature matrix (000 eq. 27.82, summed over relations as in Kemp et al. 2006).
  double logJoint() const;

  int blockCount() const noexcept { return static_cast<int>(m_blocks.size()); }
  int featureBlockCount() const noexcept { return static_cast<int>(m_featureBlocks.size()); }
  std::vector<int> labels() const;
  std::vector<int> featureLabels() const;
  // Posterior mean densities (a + links) / (a + b + links + non-links) between the blocks numbered
  // as by labels(), of relation r; K x C between node blocks and feature clusters for the features.
  Eigen::MatrixXd blockMatrix(std::size_t r) const;
  Eigen::MatrixXd featureBlockMatrix() const;

 private:
  struct Counts {  // one relation's or the features' counts between two sets of blocks
    std::vector<std::int64_t> links, missing;
  };
  std::size_t cell(int k, int l) const noexcept {
    return static_cast<std::size_t>(k) * m_capacity + static_cast<std::size_t>(l);
  }
  std::size_t featureCell(int k, int c) const noexcept {
    return static_cast<std::size_t>(k) * m_featureCapacity + static_cast<std::size_t>(c);
  }
  double cellLog(std::int64_t links, std::int64_t nonLinks) const noexcept;
  double cellGain(std::int64_t pairs, std::int64_t links, std::int64_t missing, std::int64_t addPairs,
                  std::int64_t addLinks, std::int64_t addMissing) const noexcept;
  std::int64_t pairs(const IrmRelation& relation, int k, int l) const noexcept;
  void grow(std::size_t capacity);
  void growFeatures(std::size_t capacity);
  int openBlock();
  int openFeatureBlock();
  void clearState();

  // Node moves: per-block counts of i's partners (gather), taking i out of its block (detach),
  // the log likelihood change of i joining block k (-1: a new one), and putting it in (attach).
  void gather(std::int32_t i);
  void clearScratch();
  void apply(std::int32_t i, int k, int sign);
  void detach(std::int32_t i);
  void attach(std::int32_t i, int k);
  void moveNode(std::int32_t i, int k);
  double nodeGain(int k) const;
  void nodeStep(std::int32_t i, Rng& rng);

  // Feature moves, likewise over the feature partition.
  void gatherFeature(std::int32_t f);
  void applyFeature(int c, int sign);
  double featureGain(int c) const;
  void featureStep(std::int32_t f, Rng& rng);

  bool restrictedScan(std::span<const std::int32_t> members, int x, int y, Rng& rng, double* logQ,
                      const std::vector<int>* forced, std::stop_token stop);
  bool sequentialLaunch(std::span<const std::int32_t> members, int x, int y, Rng& rng, std::stop_token stop);
  bool proposeSplitMerge(Rng& rng, int scans, std::stop_token stop);

  const MirmData& m_data;
  MirmPriors m_priors;
  double m_logBetaPrior = 0.0;
  std::vector<double> m_logGammaA, m_logGammaB, m_logGammaAB;

  // Node partition.
  std::vector<int> m_z;
  std::size_t m_capacity = 0;
  std::vector<std::int64_t> m_size;
  std::vector<char> m_open;
  std::vector<int> m_blocks;
  std::vector<Counts> m_counts;  // per relation, capacity x capacity
  // Feature partition.
  std::vector<int> m_w;
  std::size_t m_featureCapacity = 0;
  std::vector<std::int64_t> m_featureSize;
  std::vector<char> m_featureOpen;
  std::vector<int> m_featureBlocks;
  Counts m_featureCounts;  // capacity x featureCapacity

  // Scratch of a node move: per relation, i's links and missing pairs out of and into each block;
  // i's ones and missing values per feature cluster.
  std::vector<std::vector<std::int64_t>> m_out, m_in, m_missOut, m_missIn;
  std::vector<int> m_touched;
  std::vector<char> m_isTouched;
  std::vector<std::int64_t> m_featureOnes, m_featureMissing;
  // Scratch of a feature move: the feature's ones and missing values per node block.
  std::vector<std::int64_t> m_columnOnes, m_columnMissing;

  std::vector<std::int32_t> m_order, m_featureOrder, m_launchOrder;
  std::vector<int> m_candidates;
  std::vector<double> m_weights;
};

}  // namespace latent::core::network
