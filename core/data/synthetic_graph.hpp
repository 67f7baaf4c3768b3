// SPDX-License-Identifier: GPL-3.0-or-later
// Graphs drawn from block models with known structure, for recovery tests and benchmarks
// (000 eq. 27.75 for the SBM, eq. 27.77-27.78 for the MMSB).
#pragma once

#include <cstdint>
#include <vector>

#include <Eigen/Core>

#include "core/data/graph.hpp"

namespace latent::core {

struct PlantedGraph {
  Graph graph;                  // nodes "n0", "n1", ...; attribute "block" holds the planted block
  std::vector<int> blocks;      // SBM: each node's block; MMSB: its dominant block
  Eigen::MatrixXd memberships;  // N x K: one-hot for the SBM, theta_i for the MMSB
  Eigen::MatrixXd blockMatrix;  // K x K link probabilities
};

// Stochastic block model: `blockSizes[k]` nodes in block k (in order), a link from a node of
// block k to one of block l with probability blockMatrix(k, l). Pairs are visited by geometric
// skipping, so the cost is O(N + E + K^2), not N^2: graphs of 100k nodes are cheap.
// Undirected graphs use the upper triangle of blockMatrix.
PlantedGraph generateSbmGraph(const std::vector<int>& blockSizes, const Eigen::MatrixXd& blockMatrix, bool directed,
                              std::uint64_t seed);

// A K-block assortative SBM of n nodes (sizes as equal as possible) with the given mean degree,
// `inOutRatio` times as likely to link inside a block as across.
PlantedGraph generateAssortativeSbm(int nodes, int blocks, double meanDegree, double inOutRatio, bool directed,
                                    std::uint64_t seed);

// Mixed-membership SBM (000 eq. 27.77): theta_i ~ Dir(alpha), and for each ordered pair (i, j)
// z_i->j ~ theta_i, z_i<-j ~ theta_j, link ~ Bernoulli(B(z_i->j, z_i<-j)). O(N^2): for the small
// graphs of recovery tests. Undirected graphs draw each unordered pair once.
PlantedGraph generateMmsbGraph(int nodes, const Eigen::MatrixXd& blockMatrix, double alpha, bool directed,
                               std::uint64_t seed);

}  // namespace latent::core
