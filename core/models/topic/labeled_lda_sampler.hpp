// SPDX-License-Identifier: GPL-3.0-or-later
// The collapsed Gibbs sampler of labeled LDA (Ramage, Hall, Nallapati & Manning 2009): LDA's
// conditional (000 eq. 27.37) over the topics a document may use, its labels' and the shared
// background topics, and zero for every other topic (its prior is Dir(alpha 1_{Lambda_d}),
// 000 §27.4.4.2 after eq. 27.72).
#pragma once

#include <cstdint>
#include <span>
#include <stop_token>
#include <vector>

#include <Eigen/Core>

#include "core/data/corpus.hpp"
#include "core/util/random.hpp"

namespace latent::core::llda {

// What a document without labels may use.
enum class UnlabeledDocuments {
  AllTopics,       // every label topic and the background topics: plain LDA over them
  BackgroundOnly,  // the background topics alone: its words teach the labels nothing
};

// Which topics each document may use, ascending: its labels' topics (label l is topic l) and the
// background topics labels .. labels + background - 1.
struct AllowedTopics {
  std::vector<std::int64_t> offsets{0};
  std::vector<std::int32_t> topics;

  std::size_t documentCount() const noexcept { return offsets.size() - 1; }
  std::span<const std::int32_t> of(std::size_t d) const noexcept {
    return {topics.data() + offsets[d], static_cast<std::size_t>(offsets[d + 1] - offsets[d])};
  }
};

// labelSets: per document its label codes (0 .. labels - 1), ascending, empty when it has none.
AllowedTopics allowedTopics(const std::vector<std::vector<std::int32_t>>& labelSets, int labels, int background,
                            UnlabeledDocuments unlabeled);

// The sampler's state: each token's topic (as its index among its document's allowed topics),
// n_dk over the allowed topics, n_kw (word-major) and n_k.
class LabeledLdaSampler {
 public:
  LabeledLdaSampler(const Corpus& corpus, AllowedTopics allowed, int topics, double alpha, double beta,
                    std::uint64_t seed);

  // One sweep over every token. A stop request is looked at every few hundred documents; false
  // when it ended the sweep early (the counts are consistent with the assignments either way).
  bool sweep(const std::stop_token& stop);

  // log P(W, Z | alpha, beta) with each document's Dirichlet over its allowed topics (001 eq. 3).
  double logJoint() const;

  // phi_kw = (n_kw + beta) / (n_k + V beta), K x V (001 eq. 6).
  Eigen::MatrixXd topicWord() const;
  // theta_dk = (n_dk + alpha) / (n_d + |Lambda_d| alpha) over the allowed topics, 0 elsewhere; D x K.
  Eigen::MatrixXd docTopic() const;
  // Each token's topic, one vector per document.
  std::vector<std::vector<std::int32_t>> tokenTopics() const;

  int topics() const noexcept { return m_topics; }
  std::int64_t tokenCount() const noexcept { return static_cast<std::int64_t>(m_corpus.tokenCount()); }
  const AllowedTopics& allowed() const noexcept { return m_allowed; }

 private:
  const Corpus& m_corpus;
  AllowedTopics m_allowed;
  int m_topics = 0;
  int m_vocabulary = 0;
  double m_alpha = 0.0, m_beta = 0.0;
  Rng m_rng;
  std::vector<std::int32_t> m_z;           // per token: index into its document's allowed topics
  std::vector<std::int32_t> m_docTopic;    // n_dk, aligned with m_allowed.topics
  std::vector<std::int32_t> m_wordTopic;   // n_kw at w * K + k
  std::vector<std::int64_t> m_topicTotal;  // n_k
  std::vector<double> m_cumulative;        // scratch: the conditional's running sums
};

}  // namespace latent::core::llda
