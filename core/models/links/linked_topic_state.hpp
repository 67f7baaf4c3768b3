// SPDX-License-Identifier: GPL-3.0-or-later
// The word half of the collapsed Gibbs samplers of linked-document models (link-lda, lda-mmsb):
// LDA's assignments and counts (000 eq. 27.37; 001 eq. 4-9), with each document's topic counts
// n_dk shared by its words and its link indicators, since both are drawn from the one theta_d
// (001: P(Z) = int P(theta) P(Z^E | theta) P(Z^W | theta) dtheta). The link half adds and removes
// its indicators through addIndicator.
#pragma once

#include <cstdint>
#include <stop_token>
#include <vector>

#include <Eigen/Core>

#include "core/data/corpus.hpp"
#include "core/util/random.hpp"

namespace latent::core::links {

class LinkedTopicState {
 public:
  // Each token's topic uniform at random. `corpus` must outlive the state.
  LinkedTopicState(const Corpus& corpus, int topics, double alpha, double beta, Rng& rng);

  // One sweep over every word token: p(z = k) proportional to (n_dk + alpha) (n_kw + beta) /
  // (n_k + V beta), n_dk counting the document's link indicators too. A stop request is looked at
  // every few hundred documents; false when it ended the sweep early (counts stay consistent).
  bool sweepWords(const std::stop_token& stop, Rng& rng);

  // A link indicator of document d set to (sign +1) or taken off (sign -1) topic k.
  void addIndicator(std::int32_t d, int k, int sign) noexcept {
    m_docTopic[static_cast<std::size_t>(d) * static_cast<std::size_t>(m_topics) + static_cast<std::size_t>(k)] += sign;
    m_docTotal[static_cast<std::size_t>(d)] += sign;
  }
  // n_dk + alpha: the document side of every conditional.
  double documentWeight(std::int32_t d, int k) const noexcept {
    return m_docTopic[static_cast<std::size_t>(d) * static_cast<std::size_t>(m_topics) + static_cast<std::size_t>(k)] +
           m_alpha;
  }
  const std::int32_t* documentCounts(std::int32_t d) const noexcept {
    return m_docTopic.data() + static_cast<std::size_t>(d) * static_cast<std::size_t>(m_topics);
  }

  // log P(W | Z, beta) with the topics integrated out (001 eq. 3, its first product).
  double logWords() const;
  // log P(Z | alpha) of every document's words and link indicators together (its second product).
  double logPrior() const;

  // phi_kw = (n_kw + beta) / (n_k + V beta), K x V.
  Eigen::MatrixXd topicWord() const;
  // theta_dk = (n_dk + alpha) / (n_d + K alpha) over words and link indicators, D x K.
  Eigen::MatrixXd docTopic() const;
  std::vector<std::vector<std::int32_t>> tokenTopics() const;

  int topics() const noexcept { return m_topics; }
  double alpha() const noexcept { return m_alpha; }
  std::int64_t tokenCount() const noexcept { return static_cast<std::int64_t>(m_corpus.tokenCount()); }
  std::int32_t documentCount() const noexcept { return static_cast<std::int32_t>(m_corpus.documentCount()); }

 private:
  const Corpus& m_corpus;
  int m_topics = 0;
  int m_vocabulary = 0;
  double m_alpha = 0.0, m_beta = 0.0;
  std::vector<std::int32_t> m_z;           // per word token
  std::vector<std::int32_t> m_docTopic;    // n_dk at d * K + k, words and link indicators
  std::vector<std::int32_t> m_docTotal;    // n_d, words and link indicators
  std::vector<std::int32_t> m_wordTopic;   // n_kw at w * K + k
  std::vector<std::int64_t> m_topicTotal;  // n_k (words)
  std::vector<double> m_cumulative;        // scratch: the conditional's running sums
};

// Draws an index from running sums `cumulative[0 .. n)` (the last one their total).
// The collapsed LDA counts both linked samplers keep (this state, rtm_sampler): n_kw at w * K + k and
// n_k. phi_kw = (n_kw + beta) / (n_k + V beta) as a K x V matrix, and log P(W | Z, beta) with the
// topics integrated out (001 eq. 3, its first product).
Eigen::MatrixXd topicWordFromCounts(const std::vector<std::int32_t>& wordTopic,
                                    const std::vector<std::int64_t>& topicTotal, int topics, int vocabulary,
                                    double beta);
double logWordsFromCounts(const std::vector<std::int32_t>& wordTopic, const std::vector<std::int64_t>& topicTotal,
                          int vocabulary, double beta);

inline int drawFromCumulative(const double* cumulative, int n, Rng& rng) noexcept {
  const double u = rng.uniform() * cumulative[n - 1];
  int j = 0;
  while (j + 1 < n && cumulative[j] <= u) ++j;
  return j;
}

}  // namespace latent::core::links
