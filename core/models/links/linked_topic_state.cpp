// SPDX-License-Identifier: GPL-3.0-or-later
// The word sweeps and count read-outs shared by the linked-document samplers.
#include "core/models/links/linked_topic_state.hpp"

#include <cmath>

#include "core/util/special_functions.hpp"

namespace latent::core::links {
namespace {

// Documents between two looks at the stop token: a few hundred documents of a citation corpus
// take well under a millisecond per topic.
constexpr std::size_t kLinkedStopCheckDocuments = 256;

}  // namespace

LinkedTopicState::LinkedTopicState(const Corpus& corpus, int topics, double alpha, double beta, Rng& rng)
    : m_corpus(corpus),
      m_topics(topics),
      m_vocabulary(static_cast<int>(corpus.vocabularySize())),
      m_alpha(alpha),
      m_beta(beta),
      m_z(corpus.tokenCount(), 0),
      m_docTopic(corpus.documentCount() * static_cast<std::size_t>(topics), 0),
      m_docTotal(corpus.documentCount(), 0),
      m_wordTopic(static_cast<std::size_t>(m_vocabulary) * static_cast<std::size_t>(topics), 0),
      m_topicTotal(static_cast<std::size_t>(topics), 0),
      m_cumulative(static_cast<std::size_t>(topics), 0.0) {
  const auto K = static_cast<std::size_t>(topics);
  for (std::size_t d = 0; d < corpus.documentCount(); ++d)
    for (auto i = static_cast<std::size_t>(corpus.offsets[d]); i < static_cast<std::size_t>(corpus.offsets[d + 1]);
         ++i) {
      const auto k = static_cast<std::size_t>(rng.below(K));
      m_z[i] = static_cast<std::int32_t>(k);
      ++m_docTopic[d * K + k];
      ++m_docTotal[d];
      ++m_wordTopic[static_cast<std::size_t>(corpus.tokens[i]) * K + k];
      ++m_topicTotal[k];
    }
}

bool LinkedTopicState::sweepWords(const std::stop_token& stop, Rng& rng) {
  const auto K = static_cast<std::size_t>(m_topics);
  const double alpha = m_alpha, beta = m_beta, vBeta = m_vocabulary * m_beta;
  double* cumulative = m_cumulative.data();
  for (std::size_t d = 0; d < m_corpus.documentCount(); ++d) {
    if (d % kLinkedStopCheckDocuments == 0 && stop.stop_requested()) return false;
    std::int32_t* nd = m_docTopic.data() + d * K;
    for (auto i = static_cast<std::size_t>(m_corpus.offsets[d]); i < static_cast<std::size_t>(m_corpus.offsets[d + 1]);
         ++i) {
      std::int32_t* nw = m_wordTopic.data() + static_cast<std::size_t>(m_corpus.tokens[i]) * K;
      auto k = static_cast<std::size_t>(m_z[i]);
      --nd[k];
      --nw[k];
      --m_topicTotal[k];
      double total = 0.0;
      for (std::size_t t = 0; t < K; ++t) {
        total += (nd[t] + alpha) * (nw[t] + beta) / (static_cast<double>(m_topicTotal[t]) + vBeta);
        cumulative[t] = total;
      }
      k = static_cast<std::size_t>(drawFromCumulative(cumulative, m_topics, rng));
      m_z[i] = static_cast<std::int32_t>(k);
      ++nd[k];
      ++nw[k];
      ++m_topicTotal[k];
    }
  }
  return true;
}

double logWordsFromCounts(const std::vector<std::int32_t>& wordTopic, const std::vector<std::int64_t>& topicTotal,
                          int vocabulary, double beta) {
  const double vBeta = vocabulary * beta, logGammaBeta = logGamma(beta);
  double value = 0.0;
  for (const auto n : topicTotal) value += logGamma(vBeta) - logGamma(static_cast<double>(n) + vBeta);
  for (const auto c : wordTopic)
    if (c > 0) value += logGamma(c + beta) - logGammaBeta;
  return value;
}

double LinkedTopicState::logWords() const {
  return logWordsFromCounts(m_wordTopic, m_topicTotal, m_vocabulary, m_beta);
}

double LinkedTopicState::logPrior() const {
  const auto K = static_cast<std::size_t>(m_topics);
  const double kAlpha = static_cast<double>(K) * m_alpha, logGammaAlpha = logGamma(m_alpha);
  double value = 0.0;
  for (std::size_t d = 0; d < m_docTotal.size(); ++d) {
    value += logGamma(kAlpha) - logGamma(m_docTotal[d] + kAlpha);
    for (std::size_t k = 0; k < K; ++k)
      if (const auto c = m_docTopic[d * K + k]; c > 0) value += logGamma(c + m_alpha) - logGammaAlpha;
  }
  return value;
}

Eigen::MatrixXd topicWordFromCounts(const std::vector<std::int32_t>& wordTopic,
                                    const std::vector<std::int64_t>& topicTotal, int topics, int vocabulary,
                                    double beta) {
  const auto K = static_cast<std::size_t>(topics);
  Eigen::MatrixXd phi(topics, vocabulary);
  for (std::size_t k = 0; k < K; ++k) {
    const double inverse = 1.0 / (static_cast<double>(topicTotal[k]) + vocabulary * beta);
    for (int w = 0; w < vocabulary; ++w)
      phi(static_cast<Eigen::Index>(k), w) = (wordTopic[static_cast<std::size_t>(w) * K + k] + beta) * inverse;
  }
  return phi;
}

Eigen::MatrixXd LinkedTopicState::topicWord() const {
  return topicWordFromCounts(m_wordTopic, m_topicTotal, m_topics, m_vocabulary, m_beta);
}

Eigen::MatrixXd LinkedTopicState::docTopic() const {
  const auto K = static_cast<std::size_t>(m_topics);
  Eigen::MatrixXd theta(static_cast<Eigen::Index>(m_docTotal.size()), m_topics);
  for (std::size_t d = 0; d < m_docTotal.size(); ++d) {
    const double inverse = 1.0 / (m_docTotal[d] + static_cast<double>(K) * m_alpha);
    for (std::size_t k = 0; k < K; ++k)
      theta(static_cast<Eigen::Index>(d), static_cast<Eigen::Index>(k)) = (m_docTopic[d * K + k] + m_alpha) * inverse;
  }
  return theta;
}

std::vector<std::vector<std::int32_t>> LinkedTopicState::tokenTopics() const {
  std::vector<std::vector<std::int32_t>> out(m_corpus.documentCount());
  for (std::size_t d = 0; d < out.size(); ++d)
    out[d].assign(m_z.begin() + m_corpus.offsets[d], m_z.begin() + m_corpus.offsets[d + 1]);
  return out;
}

}  // namespace latent::core::links
