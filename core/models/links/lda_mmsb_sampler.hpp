// SPDX-License-Identifier: GPL-3.0-or-later
// The collapsed Gibbs sampler of LDA+MMSB (Nallapati, Ahmed, Xing & Cohen 2008, their
// Pairwise-Link-LDA; 001 "LDA+MMSB"): LDA for the words and the mixed membership stochastic
// blockmodel (000 §27.5.2) for the links, with one mixture theta_d per document for both. Each
// pair of documents (a, b) draws a sender topic p ~ theta_a and a receiver topic q ~ theta_b and
// is linked with probability B_pq, B_pq ~ Beta(a0, b0). A pair's two indicators have 001 eq. 3's
// conditional, the documents' counts n_dk holding their words' topics too:
//   p(p, q | rest) proportional to L_pq(E_ab) (n_ap + alpha) (n_bq + alpha),
//   L_pq(1) = (n_pq+ + a0) / (n_pq+ + n_pq- + a0 + b0), L_pq(0) = (n_pq- + b0) / (...).
// Non-links: all O(D^2) of them would swamp the sweep, so, as 001 suggests and mmsb's sampled mode
// does (network/mmsb_sampler.hpp NonEdgeMode::Sampled), the links keep their indicators and each
// sweep redraws a uniform sample of M = ratio x links non-links, each standing for w = (training
// non-links) / M of them in n_pq- (an unbiased estimate of the non-link count, so B is on the
// scale of the whole graph) but counted once in its documents' n_dk. Hidden pairs are never drawn:
// they are unobserved.
#pragma once

#include <cstdint>
#include <stop_token>
#include <unordered_set>
#include <vector>

#include <Eigen/Core>

#include "core/eval/link_split.hpp"
#include "core/models/links/linked_topic_state.hpp"

namespace latent::core::links {

struct PairUnit {
  std::int32_t a = 0;  // sender (undirected: the lower index)
  std::int32_t b = 0;  // receiver
  std::int32_t sender = 0;
  std::int32_t receiver = 0;
};

struct LdaMmsbSettings {
  int topics = 20;
  double alpha = 0.1, beta = 0.01;
  double linkPrior = 1.0, nonLinkPrior = 1.0;  // Beta(a0, b0) on every B_pq
  bool directed = false;
  double nonLinkRatio = 1.0;  // non-links drawn per sweep per training link
  std::uint64_t seed = 1;
};

class LdaMmsbSampler {
 public:
  // `corpus` and `split` must outlive the sampler.
  LdaMmsbSampler(const Corpus& corpus, const LinkSplit& split, const LdaMmsbSettings& settings);

  // Words, then the links' indicators, then a fresh sample of non-links; false when a stop ended
  // the sweep early (every unit stays counted once).
  bool sweep(const std::stop_token& stop);

  // log P(W, E, Z) with theta, phi and B integrated out (001 eq. 1 with LDA's words), the
  // non-links' part estimated from the current sample.
  double logJoint() const;
  // B_pq = (n_pq+ + a0) / (n_pq+ + n_pq- + a0 + b0), the posterior mean (001 after eq. 5); K x K,
  // symmetric when undirected.
  Eigen::MatrixXd blockMatrix() const;

  const LinkedTopicState& state() const noexcept { return m_state; }
  std::int64_t linkUnits() const noexcept { return static_cast<std::int64_t>(m_links.size()); }
  std::int64_t nonLinkUnits() const noexcept { return static_cast<std::int64_t>(m_nonLinks.size()); }
  double nonLinkWeight() const noexcept { return m_weight; }
  double trainingNonLinks() const noexcept { return m_nonLinkTotal; }

 private:
  std::size_t cell(std::int32_t p, std::int32_t q) const noexcept {
    if (!m_directed && p > q) std::swap(p, q);
    return static_cast<std::size_t>(p) * static_cast<std::size_t>(m_k) + static_cast<std::size_t>(q);
  }
  void change(const PairUnit& unit, bool linked, int sign);
  void draw(PairUnit& unit, bool linked);
  PairUnit drawNonLink();
  std::uint64_t key(std::int32_t a, std::int32_t b) const noexcept;

  const LinkSplit& m_split;
  Rng m_rng;
  LinkedTopicState m_state;
  int m_k = 0;
  bool m_directed = false;
  double m_linkPrior = 1.0, m_nonLinkPrior = 1.0;
  std::int32_t m_documents = 0;
  std::vector<PairUnit> m_links, m_nonLinks;
  std::unordered_set<std::uint64_t> m_linked;  // training links' keys
  double m_nonLinkTotal = 0.0, m_weight = 1.0;
  std::vector<double> m_linkCount, m_nonLinkCount;  // n_pq+, n_pq- (weighted) at cell(p, q)
  std::vector<double> m_cumulative;
};

}  // namespace latent::core::links
