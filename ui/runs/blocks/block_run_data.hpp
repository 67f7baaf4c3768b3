// SPDX-License-Identifier: GPL-3.0-or-later
// What the block-model pages of a run read from the project, loaded off the GUI
// thread and shared read-only by the Blocks page and the Memberships page: the graph, the
// memberships and block matrix (final, or a snapshot), the node order with its block boundaries,
// the graph's known labels, and the link counts between blocks.
#pragma once

#include <QString>
#include <QStringList>

#include <Eigen/Core>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/data/graph.hpp"
#include "core/store/run_store.hpp"
#include "ui/runs/blocks/block_density_view.hpp"

namespace latent::ui {

// Graphs with more nodes are drawn as densities between groups of nodes, not pair by pair.
inline constexpr int kMaxPairwiseNodes = 1000;
// Node groups of a large graph in file order.
inline constexpr int kFileOrderBins = 160;

struct BlockRunData {
  core::RunRecord run;
  std::shared_ptr<const core::Graph> graph;
  Eigen::MatrixXd memberships;           // N x K, rows sum to one
  Eigen::MatrixXd blockMatrix;           // K x K, posterior mean link probability from block k to block l
  std::int64_t iteration = -1;           // -1: the final result; else the snapshot's iteration
  std::vector<int> dominant;             // each node's block: the stored "blocks", else the largest membership
  std::vector<int> nodeOrder;            // the stored "node_order", else by dominant block, then by its weight
  bool storedOrder = false;              // nodeOrder is the run's own
  std::vector<int> blockStarts;          // positions in nodeOrder where the dominant block changes
  std::vector<std::int64_t> blockSizes;  // nodes whose dominant block is k
  // Nodes by their largest membership, then by its weight (largest first): the bars' order.
  std::vector<int> barOrder;
  std::vector<int> largest;  // each node's largest membership (argmax of its row)
  // No node belongs wholly to one block: memberships that mix blocks (a mixed-membership model's),
  // not one block per node with some uncertainty about it (a partition's posterior).
  bool mixed = false;
  // Two-type irm: each node's type (0 or 1) and each block's; the types' names.
  std::vector<int> nodeType, blockType;
  QStringList typeNames;
  // Multi-relational irm (final result): the relations fitted, as names and indices into the
  // graph's relations; the node features fitted (N x F: 1, 0, -1 missing), their names and each
  // feature's cluster. Empty for other runs.
  QStringList relationNames;
  std::vector<int> relationIndex;
  Eigen::MatrixXd nodeFeatures;
  QStringList featureNames;
  std::vector<int> featureBlocks;
  // The graph's known label (defaultLabelAttribute), or none: per node 0..L-1, -1 when missing.
  QString labelAttribute;
  std::vector<int> labels;
  QStringList labelNames;
  // The observed links and possible pairs between dominant blocks (K x K).
  Eigen::MatrixXd blockLinks, blockPairs;
  // Large graphs (more than kMaxPairwiseNodes): densities between groups instead of cells.
  bool aggregated = false;
  DensityGrid fileOrderDensity, blockDensity;
  int binSize = 0;  // nodes per group in file order

  int nodeCount() const noexcept { return static_cast<int>(memberships.rows()); }
  int blockCount() const noexcept { return static_cast<int>(memberships.cols()); }
  bool twoTypes() const noexcept { return !nodeType.empty(); }
  bool hasLabels() const noexcept { return !labelAttribute.isEmpty(); }
  bool multiRelational() const noexcept { return !relationNames.isEmpty(); }
  QString nodeName(int node) const;
  QString blockName(int block) const;  // "Block 1"
  // The colour (topicColour index) of a block: after the labels' colours when the dots are
  // coloured by label, so that a colour never means both a label and a block.
  int blockColourIndex(int block) const noexcept {
    return hasLabels() ? static_cast<int>(labelNames.size()) + block : block;
  }
  // "sweep 120" or "the final result": where the matrices come from.
  QString sourceText() const;
};

struct BlockRunLoad {
  // Null on error, for a run that is not a graph's, or one without memberships and a block matrix.
  std::shared_ptr<const BlockRunData> data;
  QString error;
  bool unchanged = false;  // `previous` already shows the matrices asked for
};

// Reads a run's block results through its own read-only connection: call it off the GUI thread.
// `iteration` -1 is the final result, or the latest snapshot when the run has none yet; else that
// snapshot. With `previous` (of the same run) its graph and labels are reused, and when it already
// holds the iteration found the load stops there (unchanged).
BlockRunLoad loadBlockRun(const std::filesystem::path& projectFile, std::int64_t runId, std::int64_t iteration = -1,
                          std::shared_ptr<const BlockRunData> previous = nullptr);

// Node order by block (ascending), then by the weight of that block (descending), ties by index.
std::vector<int> orderByBlock(const Eigen::MatrixXd& memberships, const std::vector<int>& blocks);

}  // namespace latent::ui
