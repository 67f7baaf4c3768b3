// SPDX-License-Identifier: GPL-3.0-or-later
// Ranking a topic's words by relevance (Sievert & Shirley 2014, "LDAvis", eq. 1), a topic's share
// of the corpus, and where a word ranks in each topic. Plain C++ over Eigen: no widgets, so the
// ranking can run off the GUI thread and tests can check it directly.
#pragma once

#include <Eigen/Core>

#include <cstdint>
#include <span>
#include <vector>

#include "core/data/dense_table.hpp"
#include "core/data/topic_word_table.hpp"

namespace latent::ui {

// relevance(w, k | lambda) = lambda log p(w|k) + (1 - lambda) log(p(w|k) / p(w)), p(w) the word's
// frequency in the corpus. lambda = 1 ranks by probability in the topic (frequent words);
// lambda = 0 by lift (words exclusive to the topic). -infinity when p(w|k) is 0.
double relevance(double probability, double corpusFrequency, double lambda);

struct RankedWord {
  std::int32_t word = 0;
  double probability = 0;  // p(w|k)
  double lift = 0;         // p(w|k) / p(w)
  double relevance = 0;
};

// p(w) = count(w) / total count; a word counted 0 times gets half a count, so that its lift
// stays finite.
std::vector<double> corpusFrequencies(std::span<const std::int64_t> counts);

// The `count` most relevant words of every topic (rows of `topicWord`, K x V), most relevant
// first; ties go to the smaller word id so the order never depends on the sort.
std::vector<std::vector<RankedWord>> rankTopics(const core::TopicWordTable& topicWord,
                                                std::span<const double> corpusFrequency, double lambda, int count);

// The 1-based rank of `word` in every topic, under the same order as rankTopics (empty for a word
// outside the vocabulary).
std::vector<int> ranksOf(const core::TopicWordTable& topicWord, std::span<const double> corpusFrequency, double lambda,
                         std::int32_t word);

// Each topic's share of the corpus' tokens: sum_d N_d theta_dk / sum_d N_d, from the document-topic
// proportions (D x K, rows in corpus order) and the documents' kept-token counts.
std::vector<double> topicShares(const core::DenseTable& docTopic, std::span<const std::int64_t> documentLengths);

}  // namespace latent::ui
