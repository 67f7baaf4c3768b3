// SPDX-License-Identifier: GPL-3.0-or-later
// Link-LDA's collapsed Gibbs sweeps over word topics and link topics.
#include "core/models/links/link_lda_sampler.hpp"

#include "core/util/special_functions.hpp"

namespace latent::core::links {
namespace {

constexpr std::size_t kLinkLdaStopCheckLinks = 4096;

}  // namespace

std::vector<LinkToken> linkTokens(std::span<const Edge> links, LinkDirection direction) {
  std::vector<LinkToken> tokens;
  tokens.reserve(links.size() * (direction == LinkDirection::Undirected ? 2 : 1));
  for (const Edge& e : links) {
    tokens.push_back({e.source, e.target, 0});
    if (direction == LinkDirection::Undirected) tokens.push_back({e.target, e.source, 0});
  }
  return tokens;
}

LinkLdaSampler::LinkLdaSampler(const Corpus& corpus, std::vector<LinkToken> links, int topics, double alpha,
                               double beta, double gamma, std::uint64_t seed)
    : m_rng(seed),
      m_state(corpus, topics, alpha, beta, m_rng),
      m_links(std::move(links)),
      m_documents(static_cast<std::int32_t>(corpus.documentCount())),
      m_gamma(gamma),
      m_targetTopic(corpus.documentCount() * static_cast<std::size_t>(topics), 0),
      m_linkTopic(static_cast<std::size_t>(topics), 0),
      m_cumulative(static_cast<std::size_t>(topics), 0.0) {
  const auto K = static_cast<std::size_t>(topics);
  for (auto& link : m_links) {
    link.topic = static_cast<std::int32_t>(m_rng.below(K));
    m_state.addIndicator(link.document, link.topic, +1);
    ++m_targetTopic[static_cast<std::size_t>(link.target) * K + static_cast<std::size_t>(link.topic)];
    ++m_linkTopic[static_cast<std::size_t>(link.topic)];
  }
}

bool LinkLdaSampler::sweep(const std::stop_token& stop) {
  if (!m_state.sweepWords(stop, m_rng)) return false;
  const int K = m_state.topics();
  const auto k64 = static_cast<std::size_t>(K);
  const double gamma = m_gamma, dGamma = m_documents * m_gamma;
  double* cumulative = m_cumulative.data();
  for (std::size_t l = 0; l < m_links.size(); ++l) {
    if (l % kLinkLdaStopCheckLinks == 0 && stop.stop_requested()) return false;
    auto& link = m_links[l];
    std::int32_t* ct = m_targetTopic.data() + static_cast<std::size_t>(link.target) * k64;
    m_state.addIndicator(link.document, link.topic, -1);
    --ct[link.topic];
    --m_linkTopic[static_cast<std::size_t>(link.topic)];
    const std::int32_t* nd = m_state.documentCounts(link.document);
    const double alpha = m_state.alpha();
    double total = 0.0;
    for (int k = 0; k < K; ++k) {
      total +=
          (nd[k] + alpha) * (ct[k] + gamma) / (static_cast<double>(m_linkTopic[static_cast<std::size_t>(k)]) + dGamma);
      cumulative[k] = total;
    }
    link.topic = drawFromCumulative(cumulative, K, m_rng);
    m_state.addIndicator(link.document, link.topic, +1);
    ++ct[link.topic];
    ++m_linkTopic[static_cast<std::size_t>(link.topic)];
  }
  return true;
}

double LinkLdaSampler::logJoint() const {
  // log P(L | Y, gamma): LDA's word term with documents as the vocabulary of links.
  const double dGamma = m_documents * m_gamma, logGammaGamma = logGamma(m_gamma);
  double links = 0.0;
  for (const auto c : m_linkTopic) links += logGamma(dGamma) - logGamma(static_cast<double>(c) + dGamma);
  for (const auto c : m_targetTopic)
    if (c > 0) links += logGamma(c + m_gamma) - logGammaGamma;
  return m_state.logWords() + links + m_state.logPrior();
}

Eigen::MatrixXd LinkLdaSampler::topicDocument() const {
  const int K = m_state.topics();
  Eigen::MatrixXd omega(K, m_documents);
  for (int k = 0; k < K; ++k) {
    const double inverse =
        1.0 / (static_cast<double>(m_linkTopic[static_cast<std::size_t>(k)]) + m_documents * m_gamma);
    for (std::int32_t t = 0; t < m_documents; ++t)
      omega(k, t) =
          (m_targetTopic[static_cast<std::size_t>(t) * static_cast<std::size_t>(K) + static_cast<std::size_t>(k)] +
           m_gamma) *
          inverse;
  }
  return omega;
}

std::vector<std::int32_t> LinkLdaSampler::bagSizes() const {
  std::vector<std::int32_t> sizes(static_cast<std::size_t>(m_documents), 0);
  for (const auto& link : m_links) ++sizes[static_cast<std::size_t>(link.document)];
  return sizes;
}

}  // namespace latent::core::links
