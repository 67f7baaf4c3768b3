// SPDX-License-Identifier: GPL-3.0-or-later
// Corpora drawn from labeled LDA's generative process (Ramage et al. 2009) with known label
// topics, for recovery tests: each document draws its labels, then its mix over those labels'
// topics and the background topics, then its words.
#pragma once

#include <cstdint>
#include <vector>

#include <Eigen/Core>

#include "core/data/corpus.hpp"

namespace latent::core {

struct SyntheticLabeledLdaSpec {
  int labels = 8;
  int background = 1;
  int vocabulary = 400;
  int documents = 600;
  int meanLength = 80;          // lengths are Poisson(meanLength), at least 1
  int maxLabels = 3;            // each document has 1 .. maxLabels distinct labels, uniformly many
  double alpha = 0.5;           // symmetric prior over a document's allowed topics
  double beta = 0.05;           // label topics: sparse, distinct
  double backgroundBeta = 1.0;  // background topics: broad, like the words all documents share
  std::uint64_t seed = 1;
};

struct SyntheticLabeledLda {
  Corpus corpus;                                     // words "w0", ...; labels "label00;label03" with separator ";"
  Eigen::MatrixXd topicWord;                         // (labels + background) x V: label l is row l, then the background
  std::vector<std::vector<std::int32_t>> labelSets;  // per document, ascending
};

SyntheticLabeledLda generateLabeledLdaCorpus(const SyntheticLabeledLdaSpec& spec);

// The name of label l in generated corpora: "label00", "label01", ... (sorted as numbered).
std::string syntheticLabelName(int l);

}  // namespace latent::core
