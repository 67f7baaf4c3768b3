// SPDX-License-Identifier: GPL-3.0-or-later
// The collapsed state of the MMSB Gibbs sampler: membership and block-pair counts, the joint
// conditional of a dyad's two indicators (001 eq. 3), the log joint (001 eq. 1), posterior means.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <Eigen/Core>

namespace latent::core::network {

struct MmsbHyperparameters {
  int blocks = 3;
  double alpha = 0.1;         // symmetric Dirichlet(alpha) on every theta_i (001: alpha)
  double linkPrior = 1.0;     // Beta(a, b) on every B_pq (001: xi^1) ...
  double nonLinkPrior = 1.0;  // ... (001: xi^2)
  double rho = 0.0;           // robust variant: chance that a zero comes from the background (000 eq. 27.79)
  bool directed = true;
};

// A unit of the sampler: one dyad with its pair of indicators. In the sampled mode a sampled
// non-edge also stands for `weight` non-edges in the block-pair counts (see mmsb_sampler.hpp); its
// indicators count once in the memberships of its two nodes.
struct DyadUnit {
  std::int32_t source = 0;
  std::int32_t target = 0;
  std::uint16_t sender = 0;    // Z_{i:i->j}, drawn from theta_source
  std::uint16_t receiver = 0;  // Z_{j:i->j}, drawn from theta_target
  bool edge = false;
  bool background = false;  // robust variant: the zero came from the background, not from B
};

// Counts of 001 eq. 1: m_ip (indicators of node i equal to p, as sender and as receiver), n_pq+
// and n_pq- (linked and unlinked dyads whose indicators are (p, q)). For an undirected graph each
// unordered pair {i, j}, i < j, is one dyad with i's indicator drawn from theta_i and j's from
// theta_j, and B is symmetric: (p, q) and (q, p) share one count and one Beta prior, as 001 says
// ("sum up (p,q) and (q,p) if don't consider direction").
class MmsbCounts {
 public:
  MmsbCounts(std::int64_t nodes, const MmsbHyperparameters& hyper);

  const MmsbHyperparameters& hyper() const noexcept { return m_hyper; }
  int blocks() const noexcept { return m_k; }
  std::int64_t nodes() const noexcept { return m_n; }

  // Adds (sign +1) or removes (sign -1) a unit; `weight` multiplies its block-pair count (and
  // its count in the background term), never its membership counts.
  void change(const DyadUnit& unit, double weight, int sign) noexcept;

  // Unnormalised conditional of a unit's indicators given every other unit (the unit itself must
  // have been removed), 001 eq. 3 with the robust variant of 000 eq. 27.79:
  //   out[p*K + q] = (1 - rho) * L_pq * (m_ip + alpha) (m_jq + alpha)      (explained by B)
  //   out[K*K]     = rho * sum_p (m_ip + alpha) * sum_q (m_jq + alpha)      (zero from the background)
  // where L_pq = (n_pq+ + a) / (n_pq + a + b) for a link and (n_pq- + b) / (n_pq + a + b) for a
  // non-link. The background entry is 0 for links and when rho = 0. out has K*K + 1 entries;
  // returns their sum.
  double conditional(std::int32_t i, std::int32_t j, bool edge, std::span<double> out) const;

  // log P(E, Z) of 001 eq. 1 for the units counted (B and theta integrated out), plus for rho > 0
  // the background indicators' log prior (one per unit): log rho or log(1 - rho).
  double logJoint() const;

  // Posterior means given the current indicators: theta_ip = (m_ip + alpha) / (m_i + K alpha)
  // (001 after eq. 4) and B_pq = (n_pq+ + a) / (n_pq+ + n_pq- + a + b) (001 after eq. 5).
  Eigen::MatrixXd memberships() const;
  Eigen::MatrixXd blockMatrix() const;

  // log B(n_pq+ + dLinked + a, n_pq- + dUnlinked + b): block pair (p, q)'s term of the log joint
  // after a hypothetical change of its counts (for Metropolis-Hastings moves).
  double blockTerm(int p, int q, double dLinked, double dUnlinked) const;
  // The cell that block pair (p, q) is counted in ((p, q) and (q, p) share one when undirected).
  std::size_t cellOf(int p, int q) const noexcept { return cell(p, q); }

  double membershipCount(std::int64_t i, int p) const noexcept { return m_m[static_cast<std::size_t>(i * m_k + p)]; }
  double linkCount(int p, int q) const noexcept { return m_linked[cell(p, q)]; }
  double nonLinkCount(int p, int q) const noexcept { return m_unlinked[cell(p, q)]; }
  double backgroundUnits() const noexcept { return m_backgroundUnits; }

 private:
  std::size_t cell(int p, int q) const noexcept {
    if (!m_hyper.directed && p > q) std::swap(p, q);
    return static_cast<std::size_t>(p * m_k + q);
  }
  void refreshCell(std::size_t c) noexcept;

  MmsbHyperparameters m_hyper;
  int m_k;
  std::int64_t m_n;
  std::vector<double> m_m;                             // N x K, row-major
  std::vector<double> m_linked;                        // K x K (undirected: only p <= q used)
  std::vector<double> m_unlinked;                      // K x K
  std::vector<double> m_linkFactor, m_nonLinkFactor;   // L_pq, full K x K (mirrored when undirected)
  double m_blockUnits = 0.0, m_backgroundUnits = 0.0;  // non-links explained by B / by the background
};

}  // namespace latent::core::network
