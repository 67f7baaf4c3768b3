// SPDX-License-Identifier: GPL-3.0-or-later
// What block models store (the blocks family: sbm, mmsb, irm): the names of their result
// matrices, read by the block views, the exports and link prediction.
#pragma once

namespace latent::core {

// Matrix names in FitResult::matrices and snapshots (N nodes, K blocks):
//   "memberships"   N x K  each node's block distribution: the posterior probability of each
//                          block (sbm, irm) or the posterior mean of theta_i (mmsb); rows sum to 1
//   "blocks"        N x 1  each node's block (0-based; the posterior mode), as a number
//   "block_matrix"  K x K  link probability from a node of block k to one of block l
//                          (posterior mean; symmetric for undirected graphs)
//   "node_order"    N x 1  node indices in an order that permutes the adjacency matrix into
//                          blocks (by block, then by strength of membership)
//   "degree_factor" N x 1  degree-corrected sbm only: theta_i (Karrer & Newman 2011) ...
//   "block_rates"   K x K  ... and omega_kl; the expected number of links is theta_i theta_j omega
//   "link_scale"    1 x 1  robust mmsb only: 1 - rho, the share of pairs the blocks explain
//                          (000 eq. 27.79)
// The multi-relational irm (irm-multi) stores the same names for its shared partition, with
// "block_matrix" that of the graph's first relation, and
//   "relation_block_matrices" (R K) x K  every fitted relation's block matrix, stacked: relation r
//                          in rows r K .. r K + K - 1 (names in the run's final metric "relations")
//   "feature_blocks"       F x 1  each feature's cluster (0-based; names in final metric "features")
//   "feature_block_matrix" K x C  density of feature cluster c's features in node block k
//   "node_features"        N x F  the features fitted: 1, 0, or -1 where the node has no value
// A two-type irm (bipartite graph) stores the same names over all nodes, blocks of both types
// numbered together, and "node_type" N x 1 (0 or 1).
inline constexpr const char* kMemberships = "memberships";
inline constexpr const char* kBlocks = "blocks";
inline constexpr const char* kBlockMatrix = "block_matrix";
inline constexpr const char* kNodeOrder = "node_order";
inline constexpr const char* kDegreeFactor = "degree_factor";
inline constexpr const char* kBlockRates = "block_rates";
inline constexpr const char* kLinkScale = "link_scale";
inline constexpr const char* kNodeType = "node_type";
inline constexpr const char* kRelationBlockMatrices = "relation_block_matrices";
inline constexpr const char* kFeatureBlocks = "feature_blocks";
inline constexpr const char* kFeatureBlockMatrix = "feature_block_matrix";
inline constexpr const char* kNodeFeatures = "node_features";

// The held-out metric of the family: link perplexity of the held-out pairs (001 eq. 8).
inline constexpr const char* kHeldoutLinkPerplexity = "heldout_link_perplexity";

}  // namespace latent::core
