// SPDX-License-Identifier: GPL-3.0-or-later
// Link probabilities from a block model's stored matrices.
#include "core/models/network/block_model_results.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/util/errors.hpp"

namespace latent::core {
LinkPredictor::LinkPredictor(const std::vector<NamedMatrix>& matrices) {
  const auto* memberships = findMatrix(matrices, kMemberships);
  const auto* blockMatrix = findMatrix(matrices, kBlockMatrix);
  if (!memberships || !blockMatrix)
    throw UsageError("this run is not a block model's: it has no memberships and block matrix to predict links from");
  const auto K = memberships->cols();
  if (blockMatrix->rows() != K || blockMatrix->cols() != K)
    throw UsageError("the run's block matrix does not match its memberships (" + std::to_string(K) + " blocks)");
  m_memberships = *memberships;
  m_blockMatrix = *blockMatrix;
  const auto* degree = findMatrix(matrices, kDegreeFactor);
  const auto* rates = findMatrix(matrices, kBlockRates);
  if (degree && rates && degree->rows() == memberships->rows() && rates->rows() == K && rates->cols() == K) {
    m_degreeFactor = degree->col(0);
    m_blockRates = *rates;
  }
  if (const auto* scale = findMatrix(matrices, kLinkScale); scale && scale->size() == 1) m_scale = (*scale)(0, 0);
  m_meanMembership = m_memberships.colwise().mean();
  if (m_degreeFactor.size() > 0) m_meanDegree = m_degreeFactor.mean();
}

template <typename From, typename To>
double LinkPredictor::probabilityOf(const From& from, double fromDegree, const To& to, double toDegree) const {
  if (m_degreeFactor.size() > 0) {
    const double rate = fromDegree * toDegree * from.dot(m_blockRates * to.transpose());
    return std::clamp(-std::expm1(-rate), 0.0, 1.0);
  }
  return std::clamp(m_scale * from.dot(m_blockMatrix * to.transpose()), 0.0, 1.0);
}

double LinkPredictor::probability(std::int64_t i, std::int64_t j) const {
  return probabilityOf(m_memberships.row(i), degreeFactor(i), m_memberships.row(j), degreeFactor(j));
}

double LinkPredictor::probabilityUnseen(std::optional<std::int64_t> i, std::optional<std::int64_t> j) const {
  if (i && j) return probability(*i, *j);
  if (i) return probabilityOf(m_memberships.row(*i), degreeFactor(*i), m_meanMembership, m_meanDegree);
  if (j) return probabilityOf(m_meanMembership, m_meanDegree, m_memberships.row(*j), degreeFactor(*j));
  return probabilityOf(m_meanMembership, m_meanDegree, m_meanMembership, m_meanDegree);
}

}  // namespace latent::core
