// SPDX-License-Identifier: GPL-3.0-or-later
// Graphs of several relations over the same nodes, with binary node features, drawn from the
// multi-relational IRM with a known partition (Kemp et al. 2006; 000 §27.6.1.2), for recovery tests.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "core/data/graph.hpp"

namespace latent::core {

struct PlantedMultiRelationalGraph {
  Graph graph;                        // relations "r0", "r1", ...; attribute "block"; features "f0", "f1", ...
  std::vector<int> blocks;            // each node's planted block
  std::vector<int> featureBlocks;     // each feature's planted cluster
  std::vector<std::string> features;  // the feature attributes' names, in order
};

// `blockSizes[k]` nodes in block k (in order); relation r links a node of block k to one of block l
// with probability blockMatrices[r](k, l) (upper triangle when undirected); `featureClusterSizes[c]`
// features in cluster c (in order), each node of block k having a feature of cluster c (value "1",
// else "0") with probability featureDensities(k, c).
PlantedMultiRelationalGraph generateMultiRelationalGraph(const std::vector<int>& blockSizes,
                                                         const std::vector<Eigen::MatrixXd>& blockMatrices,
                                                         bool directed, const std::vector<int>& featureClusterSizes,
                                                         const Eigen::MatrixXd& featureDensities, std::uint64_t seed);

}  // namespace latent::core
