// SPDX-License-Identifier: GPL-3.0-or-later
// Linked corpora drawn from the relational topic model (Chang & Blei 2010; 000 §27.5.3): LDA's
// documents, then a link between every pair of documents with probability
// sigm(eta' (zbar_d o zbar_d') + nu) (000 eq. 27.80), zbar the documents' drawn topic shares. With
// short documents and topics that share many words, the links say more about a document's topics
// than its words do: what the model should exploit and a text-only baseline cannot.
#pragma once

#include <cstdint>

#include <Eigen/Core>

#include "core/data/corpus.hpp"

namespace latent::core {

struct SyntheticRtmSpec {
  int topics = 4;
  int vocabulary = 60;  // each topic owns vocabulary / topics words
  int documents = 500;
  int meanLength = 8;   // lengths are Poisson(meanLength), at least 2
  double alpha = 0.1;   // symmetric Dirichlet of each document's topics
  double shared = 0.3;  // each topic's mass spread over the whole vocabulary; the rest on its own words
  double eta = 8.0;     // each topic's link weight
  double nu = -9.0;     // the link intercept
  std::uint64_t seed = 1;
};

struct SyntheticRtm {
  Corpus corpus;              // words "w0", ...; links undirected, stored as (smaller, larger)
  Eigen::MatrixXd topicWord;  // K x V
  Eigen::MatrixXd shares;     // D x K, the drawn zbar
};

SyntheticRtm generateRtmCorpus(const SyntheticRtmSpec& spec);

}  // namespace latent::core
