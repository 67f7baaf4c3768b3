// SPDX-License-Identifier: GPL-3.0-or-later
// The collapsed Gibbs sampler of the relational topic model (Chang & Blei 2009, 2010; 000
// §27.5.3): LDA's conditional (000 eq. 27.37) times, for each observed link of the token's
// document, the link's probability psi(eta' (zbar_d o zbar_d') + nu) (000 eq. 27.80) with the
// token's topic in zbar_d. Only observed links enter the conditional, as in the paper: the
// unobserved pairs (non-links and hidden pairs alike) are left to the fit of the link weights.
#pragma once

#include <cstdint>
#include <span>
#include <stop_token>
#include <vector>

#include <Eigen/Core>

#include "core/data/corpus.hpp"
#include "core/util/random.hpp"

namespace latent::core::rtm {

enum class LinkFunction {
  Sigmoid,      // psi = sigm(eta' (zbar_d o zbar_d') + nu)            (000 eq. 27.80)
  Exponential,  // psi = exp(eta' (zbar_d o zbar_d') + nu), at most 1  (Chang & Blei 2010)
};

// eta (one weight per topic) and nu (the intercept): the link's parameters.
struct LinkWeights {
  Eigen::VectorXd eta;
  double nu = 0.0;
};

// The link's probability given the topic overlap eta' (zbar_d o zbar_d') + nu.
double linkProbability(LinkFunction link, double score) noexcept;

// eta' (a o b) + nu for two rows of topic shares.
double linkScore(const LinkWeights& weights, const Eigen::Ref<const Eigen::RowVectorXd>& a,
                 const Eigen::Ref<const Eigen::RowVectorXd>& b) noexcept;

// The sampler's state: each token's topic, n_dk (document-major), n_kw (word-major) and n_k.
class RtmSampler {
 public:
  // neighbours[d]: the documents d is linked to in training, either direction (LinkSplit::neighbours).
  RtmSampler(const Corpus& corpus, const std::vector<std::vector<std::int32_t>>& neighbours, int topics, double alpha,
             double beta, std::uint64_t seed);

  // One sweep over every token with the link weights fixed. The link factor of a document is
  // computed once per document from its neighbours' current zbar: exact for the exponential link
  // (its product over links factorises per topic), for the sigmoid its first-order expansion around
  // the document's current zbar, as in Chang & Blei's E step. A stop request is looked at every few
  // hundred documents; false when it ended the sweep early (the counts stay consistent).
  bool sweep(const LinkWeights& weights, LinkFunction link, const std::stop_token& stop);

  // log P(W, Z | alpha, beta): the LDA part of the joint (001 eq. 3).
  double logJoint() const;

  // phi_kw = (n_kw + beta) / (n_k + V beta), K x V.
  Eigen::MatrixXd topicWord() const;
  // zbar_dk = n_dk / N_d (0 for an empty document), D x K: the empirical topic shares the links see.
  Eigen::MatrixXd empiricalTopics() const;
  // Adds zbar to `sum` (D x K), for the average over sweeps.
  void addEmpiricalTopics(Eigen::MatrixXd& sum) const;
  // Each token's topic, one vector per document.
  std::vector<std::vector<std::int32_t>> tokenTopics() const;

  int topics() const noexcept { return m_topics; }
  std::int64_t tokenCount() const noexcept { return static_cast<std::int64_t>(m_corpus.tokenCount()); }

 private:
  // The per-topic link factor of document d: exp(eta_k g_k / N_d), g = sum over d's links of
  // w_dd' zbar_d' (w = 1 for the exponential link, 1 - psi for the sigmoid's expansion).
  void linkFactors(std::size_t d, const LinkWeights& weights, LinkFunction link);

  const Corpus& m_corpus;
  const std::vector<std::vector<std::int32_t>>& m_neighbours;
  int m_topics = 0;
  int m_vocabulary = 0;
  double m_alpha = 0.0, m_beta = 0.0;
  Rng m_rng;
  std::vector<std::int32_t> m_z;           // per token
  std::vector<std::int32_t> m_docTopic;    // n_dk at d * K + k
  std::vector<std::int32_t> m_wordTopic;   // n_kw at w * K + k
  std::vector<std::int64_t> m_topicTotal;  // n_k
  std::vector<double> m_factor;            // scratch: the current document's link factor per topic
  std::vector<double> m_field;             // scratch: g_k
  std::vector<double> m_cumulative;        // scratch: the conditional's running sums
};

}  // namespace latent::core::rtm
