// SPDX-License-Identifier: GPL-3.0-or-later
// Drawing multi-relational graphs with features: each relation an SBM over the shared partition.
#include "core/data/synthetic_multi_relational.hpp"

#include "core/data/synthetic_graph.hpp"
#include "core/util/errors.hpp"
#include "core/util/random.hpp"

namespace latent::core {

PlantedMultiRelationalGraph generateMultiRelationalGraph(const std::vector<int>& blockSizes,
                                                         const std::vector<Eigen::MatrixXd>& blockMatrices,
                                                         bool directed, const std::vector<int>& featureClusterSizes,
                                                         const Eigen::MatrixXd& featureDensities, std::uint64_t seed) {
  if (blockMatrices.empty()) throw UsageError("a multi-relational graph needs at least one relation");
  const auto K = static_cast<Eigen::Index>(blockSizes.size());
  const auto C = static_cast<Eigen::Index>(featureClusterSizes.size());
  if (C > 0 && (featureDensities.rows() != K || featureDensities.cols() != C))
    throw UsageError("the feature densities must be K x C for K blocks and C feature clusters");
  PlantedMultiRelationalGraph out;
  for (std::size_t r = 0; r < blockMatrices.size(); ++r) {
    // Each relation its own stream; the nodes, in block order, are the same in all.
    auto planted = generateSbmGraph(blockSizes, blockMatrices[r], directed, seed + 0x9E3779B97F4A7C15ULL * (r + 1));
    if (r == 0) {
      out.graph = std::move(planted.graph);
      out.blocks = std::move(planted.blocks);
    } else {
      out.graph.furtherRelations.push_back(std::move(planted.graph.edges));
    }
    out.graph.relationNames.push_back("r" + std::to_string(r));
  }
  Rng rng(seed, 0x4645415455524553ULL);  // "FEATURES"
  const std::size_t n = out.graph.nodeCount();
  for (Eigen::Index c = 0; c < C; ++c)
    for (int m = 0; m < featureClusterSizes[static_cast<std::size_t>(c)]; ++m) {
      const std::string name = "f" + std::to_string(out.features.size());
      std::vector<std::string> values(n);
      for (std::size_t v = 0; v < n; ++v) values[v] = rng.uniform() < featureDensities(out.blocks[v], c) ? "1" : "0";
      out.graph.attributeNames.push_back(name);
      out.graph.attributes.push_back(std::move(values));
      out.features.push_back(name);
      out.featureBlocks.push_back(static_cast<int>(c));
    }
  return out;
}

}  // namespace latent::core
