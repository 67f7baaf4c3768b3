// SPDX-License-Identifier: GPL-3.0-or-later
// Aligned posterior averages of the SBM chain and the matrices stored from them.
#include "core/models/network/sbm_posterior.hpp"

#include "core/eval/topic_matching.hpp"
#include "core/models/network/block_model_results.hpp"
#include "core/models/network/block_model_support.hpp"

namespace latent::core::network {

SbmPosteriorAverage::SbmPosteriorAverage(std::int32_t nodes, int blocks, bool degreeCorrected)
    : m_K(blocks), m_degreeCorrected(degreeCorrected) {
  m_memberships = Eigen::MatrixXd::Zero(nodes, blocks);
  m_blockMatrix = Eigen::MatrixXd::Zero(blocks, blocks);
  if (degreeCorrected) {
    m_blockRates = Eigen::MatrixXd::Zero(blocks, blocks);
    m_degreeFactor = Eigen::VectorXd::Zero(nodes);
  }
}

void SbmPosteriorAverage::add(const SbmSampler& sampler) {
  const auto z = sampler.blocks();
  const auto N = static_cast<Eigen::Index>(z.size());
  std::vector<int> relabel(static_cast<std::size_t>(m_K));
  for (int k = 0; k < m_K; ++k) relabel[static_cast<std::size_t>(k)] = k;
  if (m_samples > 0) {
    // overlap(k, l): how often the nodes now in block k sat in block l so far. O(N K).
    Eigen::MatrixXd overlap = Eigen::MatrixXd::Zero(m_K, m_K);
    for (Eigen::Index i = 0; i < N; ++i)
      if (const int k = z[static_cast<std::size_t>(i)]; k >= 0) overlap.row(k) += m_memberships.row(i);
    relabel = minimumCostAssignment(-overlap);
  }
  for (Eigen::Index i = 0; i < N; ++i)
    if (const int k = z[static_cast<std::size_t>(i)]; k >= 0)
      m_memberships(i, relabel[static_cast<std::size_t>(k)]) += 1.0;
  m_blockMatrix += relabelBlockMatrix(sampler.densities(), relabel);
  if (m_degreeCorrected) {
    m_blockRates += relabelBlockMatrix(sampler.rates(), relabel);
    m_degreeFactor += sampler.degreeFactors();
  }
  ++m_samples;
}

Eigen::MatrixXd SbmPosteriorAverage::memberships() const {
  Eigen::MatrixXd out = m_memberships;
  for (Eigen::Index i = 0; i < out.rows(); ++i) {
    const double total = out.row(i).sum();
    if (total > 0)
      out.row(i) /= total;
    else
      out.row(i).setConstant(1.0 / static_cast<double>(m_K));
  }
  return out;
}

Eigen::MatrixXd SbmPosteriorAverage::blockMatrix() const {
  return m_blockMatrix / static_cast<double>(std::max<std::int64_t>(1, m_samples));
}
Eigen::MatrixXd SbmPosteriorAverage::blockRates() const {
  return m_blockRates / static_cast<double>(std::max<std::int64_t>(1, m_samples));
}
Eigen::VectorXd SbmPosteriorAverage::degreeFactor() const {
  return m_degreeFactor / static_cast<double>(std::max<std::int64_t>(1, m_samples));
}

SbmEstimate SbmEstimate::fromAverage(const SbmPosteriorAverage& average) {
  SbmEstimate e;
  e.memberships = average.memberships();
  e.blockMatrix = average.blockMatrix();
  e.blockRates = average.blockRates();
  e.degreeFactor = average.degreeFactor();
  return e;
}

SbmEstimate SbmEstimate::fromState(const SbmSampler& sampler) {
  SbmEstimate e;
  const auto z = sampler.blocks();
  const int K = sampler.blockCount();
  e.memberships = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(z.size()), K);
  for (std::size_t i = 0; i < z.size(); ++i) {
    if (z[i] >= 0)
      e.memberships(static_cast<Eigen::Index>(i), z[i]) = 1.0;
    else
      e.memberships.row(static_cast<Eigen::Index>(i)).setConstant(1.0 / K);
  }
  e.blockMatrix = sampler.densities();
  if (sampler.priors().degreeCorrected) {
    e.blockRates = sampler.rates();
    e.degreeFactor = sampler.degreeFactors();
  }
  return e;
}

void SbmEstimate::relabel(const std::vector<int>& relabel) {
  memberships = relabelColumns(memberships, relabel);
  blockMatrix = relabelBlockMatrix(blockMatrix, relabel);
  if (blockRates.size() > 0) blockRates = relabelBlockMatrix(blockRates, relabel);
}

std::vector<NamedMatrix> SbmEstimate::matrices() const {
  const auto blocks = modalBlocks(memberships);
  Eigen::MatrixXd blockColumn(memberships.rows(), 1);
  for (Eigen::Index i = 0; i < memberships.rows(); ++i) blockColumn(i, 0) = blocks[static_cast<std::size_t>(i)];
  std::vector<NamedMatrix> out{{kMemberships, memberships},
                               {kBlocks, std::move(blockColumn)},
                               {kBlockMatrix, blockMatrix},
                               {kNodeOrder, nodeOrderByBlock(memberships, blocks)}};
  if (degreeFactor.size() > 0) {
    out.push_back({kDegreeFactor, Eigen::MatrixXd(degreeFactor)});
    out.push_back({kBlockRates, blockRates});
  }
  return out;
}

std::vector<NamedMatrix> SbmEstimate::snapshotMatrices() const {
  return {{kMemberships, memberships}, {kBlockMatrix, blockMatrix}};
}

}  // namespace latent::core::network
