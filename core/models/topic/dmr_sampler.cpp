// SPDX-License-Identifier: GPL-3.0-or-later
// Collapsed Gibbs sweeps with a prior per document.
#include "core/models/topic/dmr_sampler.hpp"

#include <algorithm>

#include "core/models/topic/lda_gibbs_state.hpp"

namespace latent::core::topic {

DmrGibbsSampler::DmrGibbsSampler(const Corpus& corpus, int topics, double alpha, double beta, std::uint64_t seed)
    : m_corpus(corpus),
      m_topics(topics),
      m_vocabulary(static_cast<int>(corpus.vocabularySize())),
      m_beta(beta),
      m_alpha(Eigen::MatrixXd::Constant(static_cast<Eigen::Index>(corpus.documentCount()), topics, alpha)),
      m_z(corpus.tokenCount()),
      m_docTopic(DmrTopicCounts::Zero(static_cast<Eigen::Index>(corpus.documentCount()), topics)),
      m_wordTopic(static_cast<std::size_t>(m_vocabulary) * static_cast<std::size_t>(topics), 0),
      m_topicTotal(static_cast<std::size_t>(topics), 0),
      m_rng(seed),
      m_cumulative(static_cast<std::size_t>(topics)) {
  const auto K = static_cast<std::size_t>(topics);
  for (std::size_t d = 0; d < corpus.documentCount(); ++d)
    for (auto i = corpus.offsets[d]; i < corpus.offsets[d + 1]; ++i) {
      const auto k = static_cast<std::int32_t>(m_rng.below(K));
      const auto w = static_cast<std::size_t>(corpus.tokens[static_cast<std::size_t>(i)]);
      m_z[static_cast<std::size_t>(i)] = k;
      ++m_docTopic(static_cast<Eigen::Index>(d), k);
      ++m_wordTopic[w * K + static_cast<std::size_t>(k)];
      ++m_topicTotal[static_cast<std::size_t>(k)];
    }
}

bool DmrGibbsSampler::sweep(const std::stop_token& stop) {
  const auto K = static_cast<std::size_t>(m_topics);
  const double betaV = m_beta * m_vocabulary;
  for (std::size_t d = 0; d < m_corpus.documentCount(); ++d) {
    if (stop.stop_requested()) return false;
    const auto row = static_cast<Eigen::Index>(d);
    std::int32_t* nd = m_docTopic.row(row).data();
    const double* alpha = nullptr;
    Eigen::VectorXd alphaRow = m_alpha.row(row).transpose();  // contiguous for the inner loop
    alpha = alphaRow.data();
    for (auto i = m_corpus.offsets[d]; i < m_corpus.offsets[d + 1]; ++i) {
      const auto t = static_cast<std::size_t>(i);
      const auto w = static_cast<std::size_t>(m_corpus.tokens[t]);
      std::int32_t* nw = m_wordTopic.data() + w * K;
      auto k = static_cast<std::size_t>(m_z[t]);
      --nd[k];
      --nw[k];
      --m_topicTotal[k];
      double total = 0.0;
      for (std::size_t j = 0; j < K; ++j) {
        total += (nd[j] + alpha[j]) * (nw[j] + m_beta) / (static_cast<double>(m_topicTotal[j]) + betaV);
        m_cumulative[j] = total;
      }
      const double u = m_rng.uniform() * total;
      k = static_cast<std::size_t>(std::upper_bound(m_cumulative.begin(), m_cumulative.end(), u) -
                                   m_cumulative.begin());
      k = std::min(k, K - 1);
      m_z[t] = static_cast<std::int32_t>(k);
      ++nd[k];
      ++nw[k];
      ++m_topicTotal[k];
    }
  }
  return true;
}

double DmrGibbsSampler::logLikelihoodOfWords() const {
  double value = 0.0;
  for (const auto c : m_wordTopic)
    if (c > 0) value += logGammaRatio(c, m_beta);
  for (const auto n : m_topicTotal) value -= logGammaRatio(n, m_beta * m_vocabulary);
  return value;
}

double DmrGibbsSampler::logPriorOfAssignments() const {
  double value = 0.0;
  for (Eigen::Index d = 0; d < m_docTopic.rows(); ++d) {
    std::int64_t length = 0;
    for (Eigen::Index k = 0; k < m_topics; ++k) {
      value += logGammaRatio(m_docTopic(d, k), m_alpha(d, k));
      length += m_docTopic(d, k);
    }
    value -= logGammaRatio(length, m_alpha.row(d).sum());
  }
  return value;
}

void DmrGibbsSampler::addTopicWord(Eigen::MatrixXd& sum) const {
  if (sum.size() == 0) sum = Eigen::MatrixXd::Zero(m_topics, m_vocabulary);
  const auto K = static_cast<std::size_t>(m_topics);
  for (int k = 0; k < m_topics; ++k) {
    const double inverse =
        1.0 / (static_cast<double>(m_topicTotal[static_cast<std::size_t>(k)]) + m_beta * m_vocabulary);
    for (int w = 0; w < m_vocabulary; ++w)
      sum(k, w) += (m_wordTopic[static_cast<std::size_t>(w) * K + static_cast<std::size_t>(k)] + m_beta) * inverse;
  }
}

Eigen::MatrixXd DmrGibbsSampler::documentTopics() const {
  Eigen::MatrixXd theta = m_docTopic.cast<double>() + m_alpha;
  theta.array().colwise() /= theta.rowwise().sum().array();
  return theta;
}

TopicWordHistograms DmrGibbsSampler::topicWordHistograms() const {
  std::vector<std::int64_t> histogram(1, 0);
  for (const auto c : m_wordTopic) {
    if (static_cast<std::size_t>(c) >= histogram.size()) histogram.resize(static_cast<std::size_t>(c) + 1, 0);
    ++histogram[static_cast<std::size_t>(c)];
  }
  return topic::topicWordHistograms(histogram, m_topicTotal);
}

std::vector<std::vector<std::int32_t>> DmrGibbsSampler::tokenTopics() const {
  std::vector<std::vector<std::int32_t>> out(m_corpus.documentCount());
  for (std::size_t d = 0; d < out.size(); ++d)
    out[d].assign(m_z.begin() + m_corpus.offsets[d], m_z.begin() + m_corpus.offsets[d + 1]);
  return out;
}

}  // namespace latent::core::topic
