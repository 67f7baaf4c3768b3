// SPDX-License-Identifier: GPL-3.0-or-later
// Options, metrics and block bookkeeping shared by the block models.
#include "core/models/network/block_model_support.hpp"

#include <algorithm>
#include <numeric>

#include "core/eval/link_metrics.hpp"
#include "core/eval/topic_matching.hpp"

namespace latent::core::network {

OptionSpec blocksOption() {
  return integerOption("k", 1, 1000,
                       "Number of blocks: groups of nodes that link to the rest of the graph in the same way.");
}

OptionSpec sweepsOption() {
  return integerOption("iterations", 1, 1e7,
                       "Gibbs sweeps: each sweep revisits every node's block once. More sweeps, steadier results.");
}

OptionSpec snapshotEveryOption() {
  return integerOption(
      "snapshot_every", 0, 1e7,
      "Save the memberships and block matrix to the project every N sweeps, so a stopped run keeps them "
      "and live views can draw them; 0 saves only at the end.");
}

std::optional<double> heldoutLinkPerplexity(const DyadSplit& split, const std::vector<NamedMatrix>& matrices) {
  if (split.heldout.empty()) return std::nullopt;
  const LinkPredictor predictor(matrices);
  return scoreHeldoutLinks(split.heldout, [&](std::int32_t i, std::int32_t j) { return predictor.probability(i, j); })
      .perplexity;
}

void addFinalGraphMetrics(nlohmann::json& metrics, const Graph& graph, const DyadSplit& split,
                          const std::vector<NamedMatrix>& matrices, const std::vector<int>& blocks) {
  if (!split.heldout.empty()) {
    const LinkPredictor predictor(matrices);
    const auto scores =
        scoreHeldoutLinks(split.heldout, [&](std::int32_t i, std::int32_t j) { return predictor.probability(i, j); });
    metrics[kHeldoutLinkKey] = scores.perplexity;
    metrics["heldout_auc"] = scores.auc;
    metrics["heldout_log_likelihood"] = scores.logLikelihood;
    metrics["heldout_pairs"] = scores.pairs;
    metrics["heldout_edges"] = split.heldoutEdges;
    if (split.nonEdgesCapped) metrics["heldout_non_edges_capped"] = true;
  }
  if (const auto attribute = defaultLabelAttribute(graph)) {
    const auto labels = nodeLabels(graph, *attribute);
    metrics["label_attribute"] = *attribute;
    metrics["nmi"] = normalizedMutualInformation(blocks, *labels);
    metrics["ari"] = adjustedRandIndex(blocks, *labels);
  }
}

std::vector<int> modalBlocks(const Eigen::MatrixXd& memberships) {
  std::vector<int> out(static_cast<std::size_t>(memberships.rows()), 0);
  for (Eigen::Index v = 0; v < memberships.rows(); ++v) {
    Eigen::Index best = 0;
    memberships.row(v).maxCoeff(&best);
    out[static_cast<std::size_t>(v)] = static_cast<int>(best);
  }
  return out;
}

Eigen::MatrixXd nodeOrderByBlock(const Eigen::MatrixXd& memberships, const std::vector<int>& blocks) {
  std::vector<Eigen::Index> order(blocks.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](Eigen::Index a, Eigen::Index b) {
    const auto ka = blocks[static_cast<std::size_t>(a)], kb = blocks[static_cast<std::size_t>(b)];
    if (ka != kb) return ka < kb;
    return memberships(a, ka) > memberships(b, kb);
  });
  Eigen::MatrixXd out(static_cast<Eigen::Index>(order.size()), 1);
  for (std::size_t i = 0; i < order.size(); ++i) out(static_cast<Eigen::Index>(i), 0) = static_cast<double>(order[i]);
  return out;
}

std::vector<int> alignBlocks(const Eigen::MatrixXd& previous, const Eigen::MatrixXd& current) {
  const auto K = current.cols();
  if (previous.cols() != K || previous.rows() != current.rows()) {
    std::vector<int> identity(static_cast<std::size_t>(K));
    std::iota(identity.begin(), identity.end(), 0);
    return identity;
  }
  // Cost of giving current block k the label l: minus the membership mass they share.
  const Eigen::MatrixXd cost = -(current.transpose() * previous);
  return minimumCostAssignment(cost);
}

Eigen::MatrixXd relabelColumns(const Eigen::MatrixXd& memberships, const std::vector<int>& relabel) {
  Eigen::MatrixXd out(memberships.rows(), memberships.cols());
  for (Eigen::Index k = 0; k < memberships.cols(); ++k)
    out.col(relabel[static_cast<std::size_t>(k)]) = memberships.col(k);
  return out;
}

Eigen::MatrixXd relabelBlockMatrix(const Eigen::MatrixXd& blockMatrix, const std::vector<int>& relabel) {
  Eigen::MatrixXd out(blockMatrix.rows(), blockMatrix.cols());
  for (Eigen::Index k = 0; k < blockMatrix.rows(); ++k)
    for (Eigen::Index l = 0; l < blockMatrix.cols(); ++l)
      out(relabel[static_cast<std::size_t>(k)], relabel[static_cast<std::size_t>(l)]) = blockMatrix(k, l);
  return out;
}

}  // namespace latent::core::network
