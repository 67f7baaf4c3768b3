// SPDX-License-Identifier: GPL-3.0-or-later
// The relational topic model's collapsed Gibbs sweeps and the quantities read from its counts.
#include "core/models/links/rtm_sampler.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/models/links/linked_topic_state.hpp"
#include "core/util/special_functions.hpp"

namespace latent::core::rtm {
namespace {

// Documents between two looks at the stop token: a few hundred documents take well under a
// millisecond at the sizes seen, far less than 200 ms even for long documents with many links.
constexpr std::size_t kRtmStopCheckDocuments = 256;

}  // namespace

double linkProbability(LinkFunction link, double score) noexcept {
  if (link == LinkFunction::Exponential) return std::exp(std::min(score, 0.0));
  return score >= 0 ? 1.0 / (1.0 + std::exp(-score)) : std::exp(score) / (1.0 + std::exp(score));
}

double linkScore(const LinkWeights& weights, const Eigen::Ref<const Eigen::RowVectorXd>& a,
                 const Eigen::Ref<const Eigen::RowVectorXd>& b) noexcept {
  return (a.array() * b.array() * weights.eta.transpose().array()).sum() + weights.nu;
}

RtmSampler::RtmSampler(const Corpus& corpus, const std::vector<std::vector<std::int32_t>>& neighbours, int topics,
                       double alpha, double beta, std::uint64_t seed)
    : m_corpus(corpus),
      m_neighbours(neighbours),
      m_topics(topics),
      m_vocabulary(static_cast<int>(corpus.vocabularySize())),
      m_alpha(alpha),
      m_beta(beta),
      m_rng(seed),
      m_z(corpus.tokenCount(), 0),
      m_docTopic(corpus.documentCount() * static_cast<std::size_t>(topics), 0),
      m_wordTopic(static_cast<std::size_t>(m_vocabulary) * static_cast<std::size_t>(topics), 0),
      m_topicTotal(static_cast<std::size_t>(topics), 0),
      m_factor(static_cast<std::size_t>(topics), 1.0),
      m_field(static_cast<std::size_t>(topics), 0.0),
      m_cumulative(static_cast<std::size_t>(topics), 0.0) {
  // The start: each token's topic uniform at random.
  const auto K = static_cast<std::size_t>(m_topics);
  for (std::size_t d = 0; d < corpus.documentCount(); ++d) {
    std::int32_t* nd = m_docTopic.data() + d * K;
    for (auto i = corpus.offsets[d]; i < corpus.offsets[d + 1]; ++i) {
      const auto k = static_cast<std::size_t>(m_rng.below(K));
      m_z[static_cast<std::size_t>(i)] = static_cast<std::int32_t>(k);
      ++nd[k];
      ++m_wordTopic[static_cast<std::size_t>(corpus.tokens[static_cast<std::size_t>(i)]) * K + k];
      ++m_topicTotal[k];
    }
  }
}

void RtmSampler::linkFactors(std::size_t d, const LinkWeights& weights, LinkFunction link) {
  const auto K = static_cast<std::size_t>(m_topics);
  std::fill(m_field.begin(), m_field.end(), 0.0);
  const auto& links = m_neighbours[d];
  if (links.empty()) {
    std::fill(m_factor.begin(), m_factor.end(), 1.0);
    return;
  }
  const auto Nd = static_cast<double>(m_corpus.documentLength(d));
  const std::int32_t* nd = m_docTopic.data() + d * K;
  for (const auto other : links) {
    const auto o = static_cast<std::size_t>(other);
    const auto No = static_cast<double>(m_corpus.documentLength(o));
    if (No == 0) continue;
    const std::int32_t* no = m_docTopic.data() + o * K;
    double w = 1.0;
    if (link == LinkFunction::Sigmoid) {
      // d log sigm(s) / ds = 1 - sigm(s), at the document's current overlap with its neighbour.
      double score = weights.nu;
      for (std::size_t k = 0; k < K; ++k)
        score += weights.eta[static_cast<Eigen::Index>(k)] * (nd[k] / Nd) * (no[k] / No);
      w = 1.0 - linkProbability(LinkFunction::Sigmoid, score);
    }
    for (std::size_t k = 0; k < K; ++k) m_field[k] += w * no[k] / No;
  }
  // exp(eta_k g_k / N_d), scaled by its largest value so that strong weights cannot overflow.
  double largest = -std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k < K; ++k) {
    m_field[k] = weights.eta[static_cast<Eigen::Index>(k)] * m_field[k] / Nd;
    largest = std::max(largest, m_field[k]);
  }
  for (std::size_t k = 0; k < K; ++k) m_factor[k] = std::exp(m_field[k] - largest);
}

bool RtmSampler::sweep(const LinkWeights& weights, LinkFunction link, const std::stop_token& stop) {
  const auto K = static_cast<std::size_t>(m_topics);
  const double beta = m_beta, alpha = m_alpha, vBeta = m_vocabulary * m_beta;
  double* cumulative = m_cumulative.data();
  const double* factor = m_factor.data();
  for (std::size_t d = 0; d < m_corpus.documentCount(); ++d) {
    if (d % kRtmStopCheckDocuments == 0 && stop.stop_requested()) return false;
    if (m_corpus.documentLength(d) == 0) continue;
    linkFactors(d, weights, link);
    std::int32_t* nd = m_docTopic.data() + d * K;
    for (auto i = static_cast<std::size_t>(m_corpus.offsets[d]); i < static_cast<std::size_t>(m_corpus.offsets[d + 1]);
         ++i) {
      std::int32_t* nw = m_wordTopic.data() + static_cast<std::size_t>(m_corpus.tokens[i]) * K;
      auto k = static_cast<std::size_t>(m_z[i]);
      --nd[k];
      --nw[k];
      --m_topicTotal[k];
      // 000 eq. 27.37 times the links' factor: (n_dk + alpha) (n_kw + beta) / (n_k + V beta) psi_k.
      double total = 0.0;
      for (std::size_t t = 0; t < K; ++t) {
        total += factor[t] * (nd[t] + alpha) * (nw[t] + beta) / (static_cast<double>(m_topicTotal[t]) + vBeta);
        cumulative[t] = total;
      }
      const double u = m_rng.uniform() * total;
      k = 0;
      while (k + 1 < K && cumulative[k] <= u) ++k;
      m_z[i] = static_cast<std::int32_t>(k);
      ++nd[k];
      ++nw[k];
      ++m_topicTotal[k];
    }
  }
  return true;
}

double RtmSampler::logJoint() const {
  const auto K = static_cast<std::size_t>(m_topics);
  double value = links::logWordsFromCounts(m_wordTopic, m_topicTotal, m_vocabulary, m_beta);
  const double kAlpha = static_cast<double>(K) * m_alpha, logGammaAlpha = logGamma(m_alpha);
  for (std::size_t d = 0; d < m_corpus.documentCount(); ++d) {
    value += logGamma(kAlpha) - logGamma(static_cast<double>(m_corpus.documentLength(d)) + kAlpha);
    for (std::size_t k = 0; k < K; ++k)
      if (const auto c = m_docTopic[d * K + k]; c > 0) value += logGamma(c + m_alpha) - logGammaAlpha;
  }
  return value;
}

Eigen::MatrixXd RtmSampler::topicWord() const {
  return links::topicWordFromCounts(m_wordTopic, m_topicTotal, m_topics, m_vocabulary, m_beta);
}

Eigen::MatrixXd RtmSampler::empiricalTopics() const {
  Eigen::MatrixXd zbar = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(m_corpus.documentCount()), m_topics);
  addEmpiricalTopics(zbar);
  return zbar;
}

void RtmSampler::addEmpiricalTopics(Eigen::MatrixXd& sum) const {
  const auto K = static_cast<std::size_t>(m_topics);
  for (std::size_t d = 0; d < m_corpus.documentCount(); ++d) {
    const auto Nd = static_cast<double>(m_corpus.documentLength(d));
    if (Nd == 0) continue;
    for (std::size_t k = 0; k < K; ++k)
      sum(static_cast<Eigen::Index>(d), static_cast<Eigen::Index>(k)) += m_docTopic[d * K + k] / Nd;
  }
}

std::vector<std::vector<std::int32_t>> RtmSampler::tokenTopics() const {
  std::vector<std::vector<std::int32_t>> out(m_corpus.documentCount());
  for (std::size_t d = 0; d < out.size(); ++d)
    out[d].assign(m_z.begin() + m_corpus.offsets[d], m_z.begin() + m_corpus.offsets[d + 1]);
  return out;
}

}  // namespace latent::core::rtm
