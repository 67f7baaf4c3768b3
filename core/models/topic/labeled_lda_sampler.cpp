// SPDX-License-Identifier: GPL-3.0-or-later
// Labeled LDA's collapsed Gibbs sweeps and the quantities read from its counts.
#include "core/models/topic/labeled_lda_sampler.hpp"

#include <algorithm>
#include <cmath>

#include "core/util/special_functions.hpp"

namespace latent::core::llda {
namespace {

// Documents between two looks at the stop token: a few hundred short documents take well under
// a millisecond, and the longest ones seen (a few thousand tokens) still far less than 200 ms.
constexpr std::size_t kLldaStopCheckDocuments = 256;

}  // namespace

AllowedTopics allowedTopics(const std::vector<std::vector<std::int32_t>>& labelSets, int labels, int background,
                            UnlabeledDocuments unlabeled) {
  AllowedTopics allowed;
  allowed.offsets.reserve(labelSets.size() + 1);
  for (const auto& set : labelSets) {
    if (set.empty() && unlabeled == UnlabeledDocuments::AllTopics) {
      for (int l = 0; l < labels; ++l) allowed.topics.push_back(l);
    } else {
      allowed.topics.insert(allowed.topics.end(), set.begin(), set.end());
    }
    for (int b = 0; b < background; ++b) allowed.topics.push_back(labels + b);
    allowed.offsets.push_back(static_cast<std::int64_t>(allowed.topics.size()));
  }
  return allowed;
}

LabeledLdaSampler::LabeledLdaSampler(const Corpus& corpus, AllowedTopics allowed, int topics, double alpha, double beta,
                                     std::uint64_t seed)
    : m_corpus(corpus),
      m_allowed(std::move(allowed)),
      m_topics(topics),
      m_vocabulary(static_cast<int>(corpus.vocabularySize())),
      m_alpha(alpha),
      m_beta(beta),
      m_rng(seed),
      m_z(corpus.tokenCount(), 0),
      m_docTopic(m_allowed.topics.size(), 0),
      m_wordTopic(static_cast<std::size_t>(m_vocabulary) * static_cast<std::size_t>(topics), 0),
      m_topicTotal(static_cast<std::size_t>(topics), 0),
      m_cumulative(static_cast<std::size_t>(topics), 0.0) {
  // The start: each token's topic uniform among its document's allowed topics.
  const auto K = static_cast<std::size_t>(m_topics);
  for (std::size_t d = 0; d < corpus.documentCount(); ++d) {
    const auto allowedHere = m_allowed.of(d);
    if (allowedHere.empty()) continue;  // a document with no topic (no labels, no background) is left out
    std::int32_t* nd = m_docTopic.data() + m_allowed.offsets[d];
    for (auto i = corpus.offsets[d]; i < corpus.offsets[d + 1]; ++i) {
      const auto j = static_cast<std::int32_t>(m_rng.below(allowedHere.size()));
      const auto k = static_cast<std::size_t>(allowedHere[static_cast<std::size_t>(j)]);
      m_z[static_cast<std::size_t>(i)] = j;
      ++nd[j];
      ++m_wordTopic[static_cast<std::size_t>(corpus.tokens[static_cast<std::size_t>(i)]) * K + k];
      ++m_topicTotal[k];
    }
  }
}

bool LabeledLdaSampler::sweep(const std::stop_token& stop) {
  const auto K = static_cast<std::size_t>(m_topics);
  const double beta = m_beta, alpha = m_alpha, vBeta = m_vocabulary * m_beta;
  double* cumulative = m_cumulative.data();
  for (std::size_t d = 0; d < m_corpus.documentCount(); ++d) {
    if (d % kLldaStopCheckDocuments == 0 && stop.stop_requested()) return false;
    const auto allowedHere = m_allowed.of(d);
    const std::size_t m = allowedHere.size();
    if (m == 0) continue;
    const std::int32_t* topicsHere = allowedHere.data();
    std::int32_t* nd = m_docTopic.data() + m_allowed.offsets[d];
    for (auto i = static_cast<std::size_t>(m_corpus.offsets[d]); i < static_cast<std::size_t>(m_corpus.offsets[d + 1]);
         ++i) {
      std::int32_t* nw = m_wordTopic.data() + static_cast<std::size_t>(m_corpus.tokens[i]) * K;
      auto j = static_cast<std::size_t>(m_z[i]);
      auto k = static_cast<std::size_t>(topicsHere[j]);
      --nd[j];
      --nw[k];
      --m_topicTotal[k];
      // 000 eq. 27.37 over the allowed topics: (n_dk + alpha) (n_kw + beta) / (n_k + V beta).
      double total = 0.0;
      for (std::size_t a = 0; a < m; ++a) {
        const auto t = static_cast<std::size_t>(topicsHere[a]);
        total += (nd[a] + alpha) * (nw[t] + beta) / (static_cast<double>(m_topicTotal[t]) + vBeta);
        cumulative[a] = total;
      }
      const double u = m_rng.uniform() * total;
      j = 0;
      while (j + 1 < m && cumulative[j] <= u) ++j;
      k = static_cast<std::size_t>(topicsHere[j]);
      m_z[i] = static_cast<std::int32_t>(j);
      ++nd[j];
      ++nw[k];
      ++m_topicTotal[k];
    }
  }
  return true;
}

double LabeledLdaSampler::logJoint() const {
  const auto K = static_cast<std::size_t>(m_topics);
  // log P(W | Z): per topic, log Gamma(V beta) - log Gamma(n_k + V beta) + sum_w [log Gamma(n_kw + beta) - log
  // Gamma(beta)].
  const double logGammaBeta = logGamma(m_beta);
  double value = 0.0;
  for (std::size_t k = 0; k < K; ++k)
    value += logGamma(m_vocabulary * m_beta) - logGamma(static_cast<double>(m_topicTotal[k]) + m_vocabulary * m_beta);
  for (const auto c : m_wordTopic)
    if (c > 0) value += logGamma(c + m_beta) - logGammaBeta;
  // log P(Z | alpha): per document, its Dirichlet over its allowed topics.
  const double logGammaAlpha = logGamma(m_alpha);
  for (std::size_t d = 0; d < m_corpus.documentCount(); ++d) {
    const auto m = static_cast<double>(m_allowed.of(d).size());
    if (m == 0) continue;
    value += logGamma(m * m_alpha) - logGamma(static_cast<double>(m_corpus.documentLength(d)) + m * m_alpha);
    for (auto a = m_allowed.offsets[d]; a < m_allowed.offsets[d + 1]; ++a)
      if (const auto c = m_docTopic[static_cast<std::size_t>(a)]; c > 0) value += logGamma(c + m_alpha) - logGammaAlpha;
  }
  return value;
}

Eigen::MatrixXd LabeledLdaSampler::topicWord() const {
  const auto K = static_cast<std::size_t>(m_topics);
  Eigen::MatrixXd phi(m_topics, m_vocabulary);
  for (std::size_t k = 0; k < K; ++k) {
    const double inverse = 1.0 / (static_cast<double>(m_topicTotal[k]) + m_vocabulary * m_beta);
    for (int w = 0; w < m_vocabulary; ++w)
      phi(static_cast<Eigen::Index>(k), w) = (m_wordTopic[static_cast<std::size_t>(w) * K + k] + m_beta) * inverse;
  }
  return phi;
}

Eigen::MatrixXd LabeledLdaSampler::docTopic() const {
  const auto D = m_corpus.documentCount();
  Eigen::MatrixXd theta = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(D), m_topics);
  for (std::size_t d = 0; d < D; ++d) {
    const auto allowedHere = m_allowed.of(d);
    if (allowedHere.empty()) continue;
    const double denominator =
        static_cast<double>(m_corpus.documentLength(d)) + static_cast<double>(allowedHere.size()) * m_alpha;
    for (std::size_t a = 0; a < allowedHere.size(); ++a)
      theta(static_cast<Eigen::Index>(d), allowedHere[a]) =
          (m_docTopic[static_cast<std::size_t>(m_allowed.offsets[d]) + a] + m_alpha) / denominator;
  }
  return theta;
}

std::vector<std::vector<std::int32_t>> LabeledLdaSampler::tokenTopics() const {
  std::vector<std::vector<std::int32_t>> out(m_corpus.documentCount());
  for (std::size_t d = 0; d < out.size(); ++d) {
    const auto allowedHere = m_allowed.of(d);
    for (auto i = m_corpus.offsets[d]; i < m_corpus.offsets[d + 1]; ++i)
      out[d].push_back(allowedHere.empty() ? -1
                                           : allowedHere[static_cast<std::size_t>(m_z[static_cast<std::size_t>(i)])]);
  }
  return out;
}

}  // namespace latent::core::llda
