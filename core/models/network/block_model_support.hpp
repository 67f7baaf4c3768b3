// SPDX-License-Identifier: GPL-3.0-or-later
// What the block models (sbm, mmsb, irm) share: options, held-out link scores, agreement with
// known labels, the block order of nodes, and aligning blocks between snapshots.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include "core/data/graph.hpp"
#include "core/eval/dyad_split.hpp"
#include "core/models/model.hpp"
#include "core/models/network/block_model_results.hpp"
#include "core/models/option_specs.hpp"

namespace latent::core::network {

// Options with the same name, meaning and help text in every block model.
OptionSpec blocksOption();  // "k"
OptionSpec sweepsOption();  // "iterations": Gibbs sweeps over all nodes
OptionSpec snapshotEveryOption();

// The held-out metric every block model reports (results/block_results.hpp).
inline constexpr const char* kHeldoutLinkKey = kHeldoutLinkPerplexity;

// Link perplexity of the held-out pairs under the given matrices; nullopt when none are held out.
std::optional<double> heldoutLinkPerplexity(const DyadSplit& split, const std::vector<NamedMatrix>& matrices);

// Adds heldout_link_perplexity, heldout_auc, heldout_pairs, heldout_edges (and
// heldout_non_edges_capped when the non-edges were sampled) when pairs are held out, and nmi, ari
// and label_attribute against the graph's known labels when it has them (defaultLabelAttribute).
void addFinalGraphMetrics(nlohmann::json& metrics, const Graph& graph, const DyadSplit& split,
                          const std::vector<NamedMatrix>& matrices, const std::vector<int>& blocks);

// Node indices sorted by block, then by decreasing membership in it: the order that permutes the
// adjacency matrix into blocks (000 Fig. 27.19). As an N x 1 matrix for "node_order".
Eigen::MatrixXd nodeOrderByBlock(const Eigen::MatrixXd& memberships, const std::vector<int>& blocks);

// Each node's most probable block.
std::vector<int> modalBlocks(const Eigen::MatrixXd& memberships);

// The relabelling of `current`'s blocks that best matches `previous` (Hungarian method on the
// overlap of memberships): result[k] is the label that block k of `current` should take. Used to
// keep snapshots from flickering when a sampler swaps labels.
std::vector<int> alignBlocks(const Eigen::MatrixXd& previous, const Eigen::MatrixXd& current);

// Applies a relabelling: column k of memberships moves to column relabel[k]; rows and columns
// of a K x K block matrix likewise.
Eigen::MatrixXd relabelColumns(const Eigen::MatrixXd& memberships, const std::vector<int>& relabel);
Eigen::MatrixXd relabelBlockMatrix(const Eigen::MatrixXd& blockMatrix, const std::vector<int>& relabel);

}  // namespace latent::core::network
