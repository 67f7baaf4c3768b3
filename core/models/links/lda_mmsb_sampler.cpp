// SPDX-License-Identifier: GPL-3.0-or-later
// LDA+MMSB's collapsed Gibbs sweeps: word topics, the links' indicator pairs, sampled non-links.
#include "core/models/links/lda_mmsb_sampler.hpp"

#include <algorithm>
#include <cmath>

#include "core/util/special_functions.hpp"

namespace latent::core::links {
namespace {

constexpr std::size_t kLdaMmsbStopCheckUnits = 1024;

}  // namespace

LdaMmsbSampler::LdaMmsbSampler(const Corpus& corpus, const LinkSplit& split, const LdaMmsbSettings& settings)
    : m_split(split),
      m_rng(settings.seed),
      m_state(corpus, settings.topics, settings.alpha, settings.beta, m_rng),
      m_k(settings.topics),
      m_directed(settings.directed),
      m_linkPrior(settings.linkPrior),
      m_nonLinkPrior(settings.nonLinkPrior),
      m_documents(static_cast<std::int32_t>(corpus.documentCount())),
      m_linkCount(static_cast<std::size_t>(m_k) * static_cast<std::size_t>(m_k), 0.0),
      m_nonLinkCount(m_linkCount.size(), 0.0),
      m_cumulative(m_linkCount.size(), 0.0) {
  // The links: ordered pairs when directed, else unordered (a link and its reverse are one pair).
  for (const Edge& e : split.train) {
    const std::int32_t a = m_directed ? e.source : std::min(e.source, e.target);
    const std::int32_t b = m_directed ? e.target : std::max(e.source, e.target);
    if (m_linked.insert(key(a, b)).second) m_links.push_back({a, b, 0, 0});
  }
  const double D = m_documents;
  const double pairs = m_directed ? D * (D - 1.0) : D * (D - 1.0) / 2.0;
  const double hiddenPairs = static_cast<double>(split.hidden.size()) * (m_directed ? 2.0 : 1.0);
  m_nonLinkTotal = std::max(0.0, pairs - static_cast<double>(m_links.size()) - hiddenPairs);
  const auto sample = static_cast<std::size_t>(
      std::min(m_nonLinkTotal, std::max(1.0, std::round(settings.nonLinkRatio * double(m_links.size())))));
  if (m_nonLinkTotal >= 1.0) {
    m_weight = m_nonLinkTotal / static_cast<double>(sample);
    m_nonLinks.resize(sample);
  }
  const auto K = static_cast<std::uint64_t>(m_k);
  for (auto& unit : m_links) {
    unit.sender = static_cast<std::int32_t>(m_rng.below(K));
    unit.receiver = static_cast<std::int32_t>(m_rng.below(K));
    change(unit, true, +1);
  }
  for (auto& unit : m_nonLinks) {
    unit = drawNonLink();
    unit.sender = static_cast<std::int32_t>(m_rng.below(K));
    unit.receiver = static_cast<std::int32_t>(m_rng.below(K));
    change(unit, false, +1);
  }
}

std::uint64_t LdaMmsbSampler::key(std::int32_t a, std::int32_t b) const noexcept {
  if (!m_directed && a > b) std::swap(a, b);
  return static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(m_documents) + static_cast<std::uint64_t>(b);
}

void LdaMmsbSampler::change(const PairUnit& unit, bool linked, int sign) {
  m_state.addIndicator(unit.a, unit.sender, sign);
  m_state.addIndicator(unit.b, unit.receiver, sign);
  if (linked)
    m_linkCount[cell(unit.sender, unit.receiver)] += sign;
  else
    m_nonLinkCount[cell(unit.sender, unit.receiver)] += sign * m_weight;
}

// 001 eq. 3 over the K x K indicator pairs, the unit itself taken out of the counts.
void LdaMmsbSampler::draw(PairUnit& unit, bool linked) {
  const int K = m_k;
  const std::int32_t* na = m_state.documentCounts(unit.a);
  const std::int32_t* nb = m_state.documentCounts(unit.b);
  const double alpha = m_state.alpha(), a0 = m_linkPrior, b0 = m_nonLinkPrior;
  double* cumulative = m_cumulative.data();
  double total = 0.0;
  for (int p = 0; p < K; ++p) {
    const double senderWeight = na[p] + alpha;
    for (int q = 0; q < K; ++q) {
      const std::size_t c = cell(p, q);
      const double plus = m_linkCount[c], minus = std::max(0.0, m_nonLinkCount[c]);
      const double likelihood = (linked ? plus + a0 : minus + b0) / (plus + minus + a0 + b0);
      total += likelihood * senderWeight * (nb[q] + alpha);
      cumulative[p * K + q] = total;
    }
  }
  const int j = drawFromCumulative(cumulative, K * K, m_rng);
  unit.sender = j / K;
  unit.receiver = j % K;
}

PairUnit LdaMmsbSampler::drawNonLink() {
  const auto n = static_cast<std::uint64_t>(m_documents);
  for (;;) {
    const auto a = static_cast<std::int32_t>(m_rng.below(n));
    const auto b = static_cast<std::int32_t>(m_rng.below(n));
    if (a == b || m_linked.count(key(a, b)) || m_split.isHidden(a, b)) continue;
    return m_directed ? PairUnit{a, b, 0, 0} : PairUnit{std::min(a, b), std::max(a, b), 0, 0};
  }
}

bool LdaMmsbSampler::sweep(const std::stop_token& stop) {
  if (!m_state.sweepWords(stop, m_rng)) return false;
  for (std::size_t i = 0; i < m_links.size(); ++i) {
    if (i % kLdaMmsbStopCheckUnits == 0 && stop.stop_requested()) return false;
    change(m_links[i], true, -1);
    draw(m_links[i], true);
    change(m_links[i], true, +1);
  }
  // The sample of non-links is replaced one unit at a time, so that n_pq- stays near its total
  // while the new units' indicators are drawn.
  for (std::size_t i = 0; i < m_nonLinks.size(); ++i) {
    if (i % kLdaMmsbStopCheckUnits == 0 && stop.stop_requested()) return false;
    change(m_nonLinks[i], false, -1);
    m_nonLinks[i] = drawNonLink();
    draw(m_nonLinks[i], false);
    change(m_nonLinks[i], false, +1);
  }
  return true;
}

double LdaMmsbSampler::logJoint() const {
  double links = 0.0;
  const double prior = logBeta(m_linkPrior, m_nonLinkPrior);
  for (int p = 0; p < m_k; ++p)
    for (int q = m_directed ? 0 : p; q < m_k; ++q) {
      const std::size_t c = cell(p, q);
      links += logBeta(m_linkCount[c] + m_linkPrior, std::max(0.0, m_nonLinkCount[c]) + m_nonLinkPrior) - prior;
    }
  return m_state.logWords() + links + m_state.logPrior();
}

Eigen::MatrixXd LdaMmsbSampler::blockMatrix() const {
  Eigen::MatrixXd blocks(m_k, m_k);
  for (int p = 0; p < m_k; ++p)
    for (int q = 0; q < m_k; ++q) {
      const std::size_t c = cell(p, q);
      const double plus = m_linkCount[c], minus = std::max(0.0, m_nonLinkCount[c]);
      blocks(p, q) = (plus + m_linkPrior) / (plus + minus + m_linkPrior + m_nonLinkPrior);
    }
  return blocks;
}

}  // namespace latent::core::links
