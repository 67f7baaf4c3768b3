// SPDX-License-Identifier: GPL-3.0-or-later
// Corpora drawn from DMR-LDA (Mimno & McCallum 2008; 000 eq. 27.71-27.72) with known topics and
// regression weights, for recovery tests: each document has a year (its time) and a group (a
// metadata column "group", values g0, g1, ...), and its topic proportions are drawn from
// Dirichlet(exp(lambda x_d)).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "core/data/corpus.hpp"

namespace latent::core {

struct SyntheticDmrSpec {
  int topics = 5;
  int groups = 3;
  int vocabulary = 300;
  int documents = 600;
  int meanLength = 80;                    // lengths are Poisson(meanLength), at least 2
  double beta = 0.05;                     // symmetric topic-word prior
  int firstYear = 1900, lastYear = 2000;  // years uniform over these, inclusive
  std::uint64_t seed = 1;
};

struct SyntheticDmr {
  Corpus corpus;              // words "w0", "w1", ...; times the years; metadata column "group"
  Eigen::MatrixXd topicWord;  // K x V, rows sum to one
  // K x F, the features in the order DmrFeatureCoder gives for fields "time,group": "default",
  // "time" (standardised by the population's mean and sd of the years), "group=g0", ...
  Eigen::MatrixXd featureWeights;
  std::vector<std::string> featureNames;
  Eigen::MatrixXd features;  // D x F, as coded for the draw
};

// The planted weights: every topic's base level log 0.15; topic 0 rises with time (+1 per sd),
// topic 1 falls (-1); topic 2 + g, for g < groups, is raised (+1.5) in group g. Needs
// topics >= 2 + groups.
SyntheticDmr generateDmrCorpus(const SyntheticDmrSpec& spec);

}  // namespace latent::core
