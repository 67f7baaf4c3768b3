// SPDX-License-Identifier: GPL-3.0-or-later
// The collapsed Gibbs sampler of Link-LDA (Erosheva, Fienberg & Lafferty 2004; Nallapati, Ahmed,
// Xing & Cohen 2008; 001 "PHITS+PLSA ... extended into Link-LDA"): a document's words and its
// links share its topic mixture theta_d; a link draws a topic y ~ theta_d and then its target
// document from that topic's distribution over documents, Omega_y ~ Dir(gamma). With theta, phi
// and Omega integrated out, a link's topic has the conditional
//   p(y = k | rest) proportional to (n_dk + alpha) (c_kt + gamma) / (c_k + D gamma),
// c_kt the links of topic k that go to document t: LDA's conditional with the target as the "word".
#pragma once

#include <cstdint>
#include <span>
#include <stop_token>
#include <vector>

#include <Eigen/Core>

#include "core/data/graph.hpp"
#include "core/models/links/linked_topic_state.hpp"

namespace latent::core::links {

// Which links make up a document's bag of links.
enum class LinkDirection {
  // Each link a -> b is in a's bag (a "cites" b) and in b's (b is "cited by" a): the citation
  // graph as undirected. Doubles the link tokens; every document with a link has a bag.
  Undirected,
  // A link a -> b only in a's bag, the generative story as Erosheva et al. tell it.
  Outgoing,
};

struct LinkToken {
  std::int32_t document = 0;  // whose bag
  std::int32_t target = 0;    // the document it links to
  std::int32_t topic = 0;
};

// The link tokens of the training documents from their links (source -> target).
std::vector<LinkToken> linkTokens(std::span<const Edge> links, LinkDirection direction);

class LinkLdaSampler {
 public:
  LinkLdaSampler(const Corpus& corpus, std::vector<LinkToken> links, int topics, double alpha, double beta,
                 double gamma, std::uint64_t seed);

  // Words, then links; false when a stop ended the sweep early.
  bool sweep(const std::stop_token& stop);

  // log P(W, L, Z, Y | alpha, beta, gamma) with theta, phi and Omega integrated out.
  double logJoint() const;
  // Omega_kt = (c_kt + gamma) / (c_k + D gamma): K x D (training documents).
  Eigen::MatrixXd topicDocument() const;
  // Each document's link-bag size.
  std::vector<std::int32_t> bagSizes() const;

  const LinkedTopicState& state() const noexcept { return m_state; }
  std::int64_t linkTokenCount() const noexcept { return static_cast<std::int64_t>(m_links.size()); }

 private:
  Rng m_rng;
  LinkedTopicState m_state;
  std::vector<LinkToken> m_links;
  std::int32_t m_documents = 0;
  double m_gamma = 0.0;
  std::vector<std::int32_t> m_targetTopic;  // c_kt at t * K + k
  std::vector<std::int64_t> m_linkTopic;    // c_k
  std::vector<double> m_cumulative;
};

}  // namespace latent::core::links
