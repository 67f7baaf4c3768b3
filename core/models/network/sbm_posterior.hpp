// SPDX-License-Identifier: GPL-3.0-or-later
// Posterior averages of the SBM chain (memberships, densities, rates, degree factors) with the
// samples' block labels aligned, and the result matrices of block_model_results.hpp built from them.
#pragma once

#include <cstdint>
#include <vector>

#include <Eigen/Core>

#include "core/models/network/sbm_sampler.hpp"
#include "core/models/training.hpp"

namespace latent::core::network {

// Running sums over the post-burn-in sweeps of one chain. Each sample's labels are first matched
// to the running sum (Hungarian method on the overlap of blocks), so that a chain that swaps two
// labels on the way does not blur the average into meaningless halves.
class SbmPosteriorAverage {
 public:
  SbmPosteriorAverage(std::int32_t nodes, int blocks, bool degreeCorrected);

  void add(const SbmSampler& sampler);
  std::int64_t samples() const noexcept { return m_samples; }

  // N x K: the share of samples that put each node in each block (rows sum to 1).
  Eigen::MatrixXd memberships() const;
  Eigen::MatrixXd blockMatrix() const;   // mean of the samples' posterior mean densities
  Eigen::MatrixXd blockRates() const;    // degree-corrected: mean of the samples' rates
  Eigen::VectorXd degreeFactor() const;  // degree-corrected: mean of theta_i

 private:
  int m_K;
  bool m_degreeCorrected;
  std::int64_t m_samples = 0;
  Eigen::MatrixXd m_memberships;  // N x K counts
  Eigen::MatrixXd m_blockMatrix, m_blockRates;
  Eigen::VectorXd m_degreeFactor;
};

// What a block-model result holds, in the names of block_model_results.hpp.
struct SbmEstimate {
  Eigen::MatrixXd memberships;   // N x K
  Eigen::MatrixXd blockMatrix;   // K x K
  Eigen::MatrixXd blockRates;    // K x K, degree-corrected only (else empty)
  Eigen::VectorXd degreeFactor;  // N, degree-corrected only (else empty)

  // The averages, or the sampler's current state (one-hot memberships) when there are none.
  static SbmEstimate fromAverage(const SbmPosteriorAverage& average);
  static SbmEstimate fromState(const SbmSampler& sampler);

  // Relabels the blocks (block k becomes relabel[k]).
  void relabel(const std::vector<int>& relabel);
  // memberships, blocks, block_matrix, node_order, and degree_factor with block_rates when
  // degree-corrected.
  std::vector<NamedMatrix> matrices() const;
  // memberships and block_matrix only: what a snapshot carries.
  std::vector<NamedMatrix> snapshotMatrices() const;
};

}  // namespace latent::core::network
