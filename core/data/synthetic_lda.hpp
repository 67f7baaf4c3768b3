// SPDX-License-Identifier: GPL-3.0-or-later
// Corpora drawn from the LDA generative process with known topics, for recovery tests and
// benchmarks (000 §27.3.1).
#pragma once

#include <cstdint>
#include <vector>

#include <Eigen/Core>

#include "core/data/corpus.hpp"

namespace latent::core {

struct SyntheticLdaSpec {
  int topics = 10;
  int vocabulary = 500;
  int documents = 1000;
  int meanLength = 100;  // lengths are Poisson(meanLength), at least 1
  double alpha = 0.1;    // symmetric document-topic prior
  double beta = 0.05;    // symmetric topic-word prior (small: distinct, sparse topics)
  std::uint64_t seed = 1;
};

struct SyntheticLda {
  Corpus corpus;                                       // words are "w0", "w1", ...
  Eigen::MatrixXd topicWord;                           // K x V, the true topics (rows sum to one)
  Eigen::MatrixXd docTopic;                            // D x K, the true proportions
  std::vector<std::vector<std::int32_t>> assignments;  // the true topic of every token
};

SyntheticLda generateLdaCorpus(const SyntheticLdaSpec& spec);

// A draw from Dirichlet(concentration * 1) of the given size.
Eigen::VectorXd sampleSymmetricDirichlet(class Rng& rng, Eigen::Index size, double concentration);

}  // namespace latent::core
