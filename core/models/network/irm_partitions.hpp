// SPDX-License-Identifier: GPL-3.0-or-later
// Matching the blocks of IRM samples to each other: the sampler numbers its blocks as it likes and
// their number changes, so posterior block probabilities and snapshots need labels aligned first.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <Eigen/Core>

namespace latent::core::network {

// Labels are 0..K-1 per node. Returns, for each block of `sample`, the block of `reference` it
// stands for: blocks paired one to one by the Hungarian method on the number of nodes they share,
// and a block left over (or paired with a block it shares no node with) joining the reference
// block it shares most nodes with. Several sample blocks may so map to one reference block.
std::vector<int> matchPartition(std::span<const int> reference, std::span<const int> sample);

// Per-node posterior block probabilities over the reference's blocks: the share of `samples` (each
// a partition of the nodes) in which the node sits in a block matched to that reference block.
// One-hot rows of the reference when there are no samples.
Eigen::MatrixXd alignedMemberships(std::span<const int> reference, const std::vector<std::vector<int>>& samples);

// Relabels `current` so that its blocks keep the numbers of the `previous` blocks they match, as far
// as the numbers stay compact (0..K-1 for K blocks now): blocks are ordered by the number of the
// previous block they match, new blocks last, so a live view does not flicker. Blocks of type 0 come
// before blocks of type 1 (`nodeType`, 0 or 1 per node). With no previous partition, `current` as is.
std::vector<int> stableLabels(std::span<const int> previous, std::span<const int> current,
                              std::span<const std::uint8_t> nodeType);

// One-hot N x K memberships of a partition.
Eigen::MatrixXd oneHot(std::span<const int> labels);

int labelCount(std::span<const int> labels);

}  // namespace latent::core::network
