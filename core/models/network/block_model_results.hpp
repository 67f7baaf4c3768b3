// SPDX-License-Identifier: GPL-3.0-or-later
// What block models (sbm, mmsb, irm) store, and link probabilities computed from it: the one
// place that `predict`, the exports and the models' own held-out scores agree on.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <Eigen/Core>

#include "core/models/training.hpp"
#include "core/results/block_results.hpp"

namespace latent::core {

// Predictive link probabilities from stored block-model matrices.
class LinkPredictor {
 public:
  // Throws UsageError when the matrices are not a block model's (no memberships or block_matrix,
  // or shapes that do not fit together).
  explicit LinkPredictor(const std::vector<NamedMatrix>& matrices);

  std::int64_t nodeCount() const noexcept { return m_memberships.rows(); }

  // P(link i -> j) = scale * sum_kl m_ik m_jl B_kl (001: posterior means of theta and B), or for
  // the degree-corrected sbm 1 - exp(-theta_i theta_j sum_kl m_ik m_jl omega_kl).
  double probability(std::int64_t i, std::int64_t j) const;
  // With a node the fit never saw (nullopt) in place of i or j: that node gets the average
  // membership (and degree factor) of the fitted nodes, the prior a new node would be drawn from
  // as the blocks' sizes say.
  double probabilityUnseen(std::optional<std::int64_t> i, std::optional<std::int64_t> j) const;

 private:
  Eigen::MatrixXd m_memberships;
  Eigen::MatrixXd m_blockMatrix;
  Eigen::VectorXd m_degreeFactor;  // empty unless degree-corrected
  Eigen::MatrixXd m_blockRates;
  double m_scale = 1.0;
  // A node the fit never saw: the fitted nodes' average membership and degree factor.
  Eigen::RowVectorXd m_meanMembership;
  double m_meanDegree = 1.0;

  double degreeFactor(std::int64_t i) const { return m_degreeFactor.size() > 0 ? m_degreeFactor(i) : 1.0; }
  template <typename From, typename To>
  double probabilityOf(const From& from, double fromDegree, const To& to, double toDegree) const;
};

}  // namespace latent::core
