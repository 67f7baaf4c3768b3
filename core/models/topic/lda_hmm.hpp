// SPDX-License-Identifier: GPL-3.0-or-later
// LDA-HMM, the composite "syntactic/semantic" model (000 §27.4.3, eq. 27.61-27.64, Fig. 27.13;
// Griffiths, Steyvers, Blei & Tenenbaum 2005, "Integrating topics and syntax"): a hidden Markov
// chain over C classes runs along each document's words; class 0 emits a word from the
// document's LDA topic mixture, every other class from its own distribution over words, so
// function words gather in the classes and the topics keep the content words (000 Table 27.1).
// Fitted by collapsed Gibbs sampling (lda_hmm_sampler.hpp), scored by document completion with the
// class chain summed over (lda_hmm_heldout.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/models/model.hpp"
#include "core/models/option_table.hpp"

namespace latent::core {

// `classes` counts the semantic class: classes 0..C-1, class 0 the one that draws from the topics
// (000 numbers the states 0..C, the syntactic ones 1..C; C here is that C plus one).
struct LdaHmmOptions {
  std::int64_t topics = 20;
  std::int64_t classes = 20;  // C, the semantic class included; LdaHmmOptions::table() says why each default
  std::int64_t iterations = 500;
  double alpha = 0.1;
  double beta = 0.01;
  double delta = 0.01;
  double gamma = 0.1;
  std::int64_t restarts = 1;  // starts compared after restartSweeps sweeps; the best continues
  std::int64_t restartSweeps = 50;
  std::int64_t annealSweeps = 50;  // the first sweeps of each start draw classes at temperature 2, then 4/3
  bool wordMoves = true;           // Metropolis-Hastings swaps of a word's tokens between two classes after each sweep
  std::int64_t partitions = 0;     // 0: one per thread
  std::int64_t snapshotEvery = 50;

  static const OptionTable<LdaHmmOptions>& table();
};

ModelDefinition ldaHmmModel();

// The common English function words whose absence makes a vocabulary look stripped of stop words.
inline const std::vector<std::string>& ldaHmmProbeWords() {
  static const std::vector<std::string> words{"the", "of", "and", "to", "a", "in"};
  return words;
}

// How many of ldaHmmProbeWords() the vocabulary holds, and the warning lda-hmm gives when none.
std::int64_t ldaHmmProbeWordsFound(const std::vector<std::string>& vocabulary);
std::string ldaHmmStopWordWarning(const std::vector<std::string>& vocabulary);

}  // namespace latent::core
