// SPDX-License-Identifier: GPL-3.0-or-later
// Corpora drawn from the LDA-HMM generative process (000 §27.4.3, eq. 27.61-27.64) with known
// topics, syntactic classes and transitions, for recovery tests and demos.
#pragma once

#include <cstdint>
#include <vector>

#include <Eigen/Core>

#include "core/data/corpus.hpp"

namespace latent::core {

// The vocabulary is laid out in blocks: the content words the topics draw from ("c0", "c1", ...),
// then each syntactic class's own words ("f1_0", "f1_1", ... for class 1, then class 2's), so the
// classes' vocabularies are disjoint from each other and from the topics'.
struct SyntheticLdaHmmSpec {
  int topics = 4;
  int contentWords = 200;
  int functionWordsPerClass = 8;
  int documents = 200;
  int meanLength = 100;  // lengths are Poisson(meanLength), at least 2
  double alpha = 0.1;    // symmetric document-topic prior
  double beta = 0.05;    // the topics: Dirichlet(beta) over the content words
  double delta = 1.0;    // each class's words: Dirichlet(delta) over its own block
  // C x C, row c the distribution of the class after c; class 0 is the semantic class (it emits
  // from the document's topics). Its size gives C, the classes including the semantic one.
  Eigen::MatrixXd transitions;
  Eigen::VectorXd start;  // C, the first token's class; empty: uniform
  std::uint64_t seed = 1;
};

struct SyntheticLdaHmm {
  Corpus corpus;
  Eigen::MatrixXd topicWord;    // K x V, zero outside the content words
  Eigen::MatrixXd classWord;    // C x V, row c > 0 zero outside class c's words; row 0 all zero
  Eigen::MatrixXd transitions;  // C x C, as given
  Eigen::VectorXd start;        // C
  Eigen::MatrixXd docTopic;     // D x K, the documents' theta
  // The truth of every token: its topic (drawn from theta for every token, as in the model, whether
  // or not its class uses it) and its class.
  std::vector<std::vector<std::int32_t>> topics;
  std::vector<std::vector<std::int32_t>> classes;

  int classCount() const noexcept { return static_cast<int>(transitions.rows()); }
  // The first word id of class c's block (c >= 1).
  int firstWordOfClass(int c, int functionWordsPerClass) const noexcept {
    return static_cast<int>(topicWord.cols()) - (classCount() - c) * functionWordsPerClass;
  }
};

SyntheticLdaHmm generateLdaHmmCorpus(const SyntheticLdaHmmSpec& spec);

}  // namespace latent::core
