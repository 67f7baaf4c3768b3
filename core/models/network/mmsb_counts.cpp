// SPDX-License-Identifier: GPL-3.0-or-later
// MMSB collapsed counts: updates, the dyad conditional (001 eq. 3), the log joint (001 eq. 1).
#include "core/models/network/mmsb_counts.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/util/special_functions.hpp"

namespace latent::core::network {

MmsbCounts::MmsbCounts(std::int64_t nodes, const MmsbHyperparameters& hyper)
    : m_hyper(hyper), m_k(hyper.blocks), m_n(nodes) {
  const auto kk = static_cast<std::size_t>(m_k) * static_cast<std::size_t>(m_k);
  m_m.assign(static_cast<std::size_t>(nodes) * static_cast<std::size_t>(m_k), 0.0);
  m_linked.assign(kk, 0.0);
  m_unlinked.assign(kk, 0.0);
  m_linkFactor.assign(kk, 0.0);
  m_nonLinkFactor.assign(kk, 0.0);
  for (int p = 0; p < m_k; ++p)
    for (int q = 0; q < m_k; ++q) refreshCell(cell(p, q));
}

void MmsbCounts::refreshCell(std::size_t c) noexcept {
  const double a = m_hyper.linkPrior, b = m_hyper.nonLinkPrior;
  const double inverse = 1.0 / (m_linked[c] + m_unlinked[c] + a + b);
  m_linkFactor[c] = (m_linked[c] + a) * inverse;
  m_nonLinkFactor[c] = (m_unlinked[c] + b) * inverse;
  if (!m_hyper.directed) {  // (q, p) reads the same shared cell
    const auto p = c / static_cast<std::size_t>(m_k), q = c % static_cast<std::size_t>(m_k);
    const auto mirror = q * static_cast<std::size_t>(m_k) + p;
    m_linkFactor[mirror] = m_linkFactor[c];
    m_nonLinkFactor[mirror] = m_nonLinkFactor[c];
  }
}

void MmsbCounts::change(const DyadUnit& unit, double weight, int sign) noexcept {
  const double s = sign;
  m_m[static_cast<std::size_t>(unit.source) * static_cast<std::size_t>(m_k) + unit.sender] += s;
  m_m[static_cast<std::size_t>(unit.target) * static_cast<std::size_t>(m_k) + unit.receiver] += s;
  if (unit.background) {
    m_backgroundUnits += s * weight;
    return;
  }
  m_blockUnits += s * weight;
  const auto c = cell(unit.sender, unit.receiver);
  (unit.edge ? m_linked : m_unlinked)[c] += s * weight;
  refreshCell(c);
}

double MmsbCounts::conditional(std::int32_t i, std::int32_t j, bool edge, std::span<double> out) const {
  const auto K = static_cast<std::size_t>(m_k);
  const double alpha = m_hyper.alpha, rho = m_hyper.rho;
  const double* mi = m_m.data() + static_cast<std::size_t>(i) * K;
  const double* mj = m_m.data() + static_cast<std::size_t>(j) * K;
  const double* factor = edge ? m_linkFactor.data() : m_nonLinkFactor.data();
  double total = 0.0, rowSum = 0.0, colSum = 0.0;
  for (std::size_t q = 0; q < K; ++q) colSum += mj[q] + alpha;
  for (std::size_t p = 0; p < K; ++p) {
    const double a = (1.0 - rho) * (mi[p] + alpha);
    rowSum += mi[p] + alpha;
    const double* f = factor + p * K;
    double* o = out.data() + p * K;
    for (std::size_t q = 0; q < K; ++q) {
      o[q] = a * f[q] * (mj[q] + alpha);
      total += o[q];
    }
  }
  const double background = !edge && rho > 0.0 ? rho * rowSum * colSum : 0.0;
  out[K * K] = background;
  return total + background;
}

double MmsbCounts::logJoint() const {
  const double a = m_hyper.linkPrior, b = m_hyper.nonLinkPrior, alpha = m_hyper.alpha;
  const double K = m_k;
  double blocks = 0.0;
  const double priorTerm = logBeta(a, b);
  for (int p = 0; p < m_k; ++p)
    for (int q = m_hyper.directed ? 0 : p; q < m_k; ++q) {
      const auto c = cell(p, q);
      blocks += logBeta(m_linked[c] + a, m_unlinked[c] + b) - priorTerm;
    }
  double members = 0.0;
  const double perNode = std::lgamma(K * alpha) - K * std::lgamma(alpha);
  for (std::int64_t i = 0; i < m_n; ++i) {
    double total = 0.0;
    for (int p = 0; p < m_k; ++p) {
      const double m = m_m[static_cast<std::size_t>(i * m_k + p)];
      members += std::lgamma(m + alpha);
      total += m;
    }
    members += perNode - std::lgamma(total + K * alpha);
  }
  double background = 0.0;
  if (m_hyper.rho > 0.0)
    background = m_backgroundUnits * std::log(m_hyper.rho) + m_blockUnits * std::log1p(-m_hyper.rho);
  return blocks + members + background;
}

double MmsbCounts::blockTerm(int p, int q, double dLinked, double dUnlinked) const {
  const auto c = cell(p, q);
  return logBeta(m_linked[c] + dLinked + m_hyper.linkPrior, m_unlinked[c] + dUnlinked + m_hyper.nonLinkPrior);
}

Eigen::MatrixXd MmsbCounts::memberships() const {
  Eigen::MatrixXd theta(m_n, m_k);
  const double alpha = m_hyper.alpha;
  for (std::int64_t i = 0; i < m_n; ++i) {
    double total = 0.0;
    for (int p = 0; p < m_k; ++p) total += m_m[static_cast<std::size_t>(i * m_k + p)] + alpha;
    for (int p = 0; p < m_k; ++p) theta(i, p) = (m_m[static_cast<std::size_t>(i * m_k + p)] + alpha) / total;
  }
  return theta;
}

Eigen::MatrixXd MmsbCounts::blockMatrix() const {
  Eigen::MatrixXd B(m_k, m_k);
  for (int p = 0; p < m_k; ++p)
    for (int q = 0; q < m_k; ++q) B(p, q) = m_linkFactor[static_cast<std::size_t>(p * m_k + q)];
  return B;
}

}  // namespace latent::core::network
