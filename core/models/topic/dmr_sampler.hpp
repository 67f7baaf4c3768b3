// SPDX-License-Identifier: GPL-3.0-or-later
// The Gibbs half of DMR-LDA (Mimno & McCallum 2008): collapsed Gibbs sampling of every token's
// topic as in LDA (Griffiths & Steyvers 2004; 000 eq. 27.37), with each document's own prior
// alpha_d (000 eq. 27.71): p(z_i = k | rest) ~ (n_dk + alpha_dk) (n_kw + beta) / (n_k + V beta).
#pragma once

#include <cstdint>
#include <stop_token>
#include <vector>

#include <Eigen/Core>

#include "core/data/corpus.hpp"
#include "core/models/topic/dirichlet_hyperparameters.hpp"
#include "core/models/topic/dmr_regression.hpp"
#include "core/util/random.hpp"

namespace latent::core::topic {

// The assignments and their counts. The document-specific alpha rules out LdaGibbsState's shared
// per-topic alpha and the sparse kernels' cached smoothing bucket; a draw here is a dense pass
// over the K topics.
class DmrGibbsSampler {
 public:
  // Assignments start uniformly at random from Rng(seed); alpha starts at `alpha` for every
  // document and topic.
  DmrGibbsSampler(const Corpus& corpus, int topics, double alpha, double beta, std::uint64_t seed);

  int topics() const noexcept { return m_topics; }
  int vocabularySize() const noexcept { return m_vocabulary; }
  std::int64_t tokenCount() const noexcept { return static_cast<std::int64_t>(m_z.size()); }
  double beta() const noexcept { return m_beta; }
  void setBeta(double beta) noexcept { m_beta = beta; }
  const Eigen::MatrixXd& alpha() const noexcept { return m_alpha; }  // D x K
  void setAlpha(Eigen::MatrixXd alpha) { m_alpha = std::move(alpha); }

  // One pass over every token in corpus order. Checks `stop` before each document and returns
  // false when it was requested (the assignments and counts stay consistent).
  bool sweep(const std::stop_token& stop);

  const DmrTopicCounts& documentTopicCounts() const noexcept { return m_docTopic; }
  const std::vector<std::int64_t>& topicTotals() const noexcept { return m_topicTotal; }
  std::int32_t wordTopicCount(int word, int topic) const noexcept {
    return m_wordTopic[static_cast<std::size_t>(word) * static_cast<std::size_t>(m_topics) +
                       static_cast<std::size_t>(topic)];
  }

  // log P(W | Z, beta) (001 eq. 8) and log P(Z | alpha_1..D) (the Dirichlet-multinomial of each
  // document's counts under its own alpha).
  double logLikelihoodOfWords() const;
  double logPriorOfAssignments() const;

  // phi_kw = (n_kw + beta) / (n_k + V beta), K x V, added to `sum` (sized on first use).
  void addTopicWord(Eigen::MatrixXd& sum) const;
  // (n_dk + alpha_dk) / (N_d + alpha_d0), D x K.
  Eigen::MatrixXd documentTopics() const;
  // Histograms of n_kw and n_k for optimizeSymmetricBeta.
  TopicWordHistograms topicWordHistograms() const;
  std::vector<std::vector<std::int32_t>> tokenTopics() const;

 private:
  const Corpus& m_corpus;
  int m_topics;
  int m_vocabulary;
  double m_beta;
  Eigen::MatrixXd m_alpha;
  std::vector<std::int32_t> m_z;
  DmrTopicCounts m_docTopic;
  std::vector<std::int32_t> m_wordTopic;  // V x K, row-major
  std::vector<std::int64_t> m_topicTotal;
  Rng m_rng;
  std::vector<double> m_cumulative;  // scratch of a draw
};

}  // namespace latent::core::topic
