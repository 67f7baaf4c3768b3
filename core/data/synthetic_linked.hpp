// SPDX-License-Identifier: GPL-3.0-or-later
// Linked corpora drawn from the two linked-document models, with their parameters known, for
// recovery tests: Link-LDA (each document's links draw a topic from its mixture, then a target
// from the topic's distribution over documents) and LDA+MMSB (every pair of documents draws a
// topic from each one's mixture and is linked with that topic pair's probability).
#pragma once

#include <cstdint>

#include <Eigen/Core>

#include "core/data/corpus.hpp"

namespace latent::core {

struct SyntheticLinkedSpec {
  int topics = 4;
  int vocabulary = 300;
  int documents = 300;
  int meanLength = 60;  // Poisson, at least 1
  double alpha = 0.1;   // symmetric Dirichlet of every theta_d
  double beta = 0.05;   // of every topic's words
  // Link-LDA: links per document (Poisson) and the Dirichlet of each topic's targets.
  double meanLinks = 6.0;
  double gamma = 0.1;
  // LDA+MMSB: B_pq, within a topic (p = q) and across (p != q); unordered pairs (undirected).
  double within = 0.2;
  double across = 0.002;
  std::uint64_t seed = 1;
};

struct SyntheticLinked {
  Corpus corpus;               // words "w0", ...; corpus.links set (source -> target, sorted, unique)
  Eigen::MatrixXd topicWord;   // K x V
  Eigen::MatrixXd docTopic;    // D x K
  Eigen::MatrixXd linkTopics;  // Link-LDA: Omega, K x D; LDA+MMSB: B, K x K
};

SyntheticLinked generateLinkLdaCorpus(const SyntheticLinkedSpec& spec);
SyntheticLinked generateLdaMmsbCorpus(const SyntheticLinkedSpec& spec);

}  // namespace latent::core
