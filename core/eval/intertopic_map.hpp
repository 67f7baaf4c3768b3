// SPDX-License-Identifier: GPL-3.0-or-later
// The numbers behind an intertopic distance map (Sievert & Shirley 2014, "LDAvis"): the
// Jensen-Shannon divergence between topics, their classical multidimensional scaling to a plane
// (principal coordinates, LDAvis's default jsPCA), each topic's expected number of tokens, the
// words' frequencies those imply, the words' saliency (Chuang et al. 2012, as LDAvis computes it)
// and the words most relevant to a topic over every value of lambda.
#pragma once

#include <Eigen/Core>

#include <cstdint>
#include <span>
#include <vector>

#include "core/data/dense_table.hpp"

namespace latent::core {

// JS(p, q) = KL(p || m) / 2 + KL(q || m) / 2 with m = (p + q) / 2, natural logarithms (0 log 0 = 0):
// 0 for equal distributions, log 2 for disjoint ones. LDAvis scales this divergence itself, not its root.
double jensenShannonDivergence(std::span<const double> p, std::span<const double> q);

// The K x K divergences between the rows of `topicWord` (K x V, rows summing to one).
Eigen::MatrixXd jensenShannonMatrix(const Eigen::MatrixXd& topicWord);

// Classical (Torgerson) scaling of a K x K symmetric distance matrix D to 2-D: the two leading
// eigenvectors of B = -J D^2 J / 2 (J the centring matrix) scaled by the roots of their eigenvalues,
// a negative eigenvalue giving a zero axis (as cmdscale and pyLDAvis's _pcoa). Each axis's sign is
// fixed so that its largest coordinate in absolute value is positive: the same input always gives
// the same picture.
Eigen::MatrixX2d principalCoordinates(const Eigen::MatrixXd& distances);

// Each topic's expected number of tokens, sum_d N_d theta_dk (`docTopic` D x K, `lengths` the
// documents' kept-token counts); empty when the sizes disagree.
std::vector<double> topicTokens(const Eigen::MatrixXd& docTopic, std::span<const std::int64_t> lengths);
// The same of doc_topic held as stored (doubles or floats), each value read as a double.
std::vector<double> topicTokens(const DenseTable& docTopic, std::span<const std::int64_t> lengths);

// Everything the map and its bar chart show, topics in the model's order.
struct IntertopicMap {
  Eigen::MatrixX2d coordinates;     // K x 2, principal coordinates of the JS divergences
  std::vector<double> topicTokens;  // N_k, the topic's expected tokens
  std::vector<double> prevalence;   // N_k / sum_k N_k
  // The K x V expected tokens of each word in each topic, N_k phi_kw (the red bars), and their sum
  // over topics per word (the blue bars: the corpus-wide frequency the model implies, which LDAvis
  // uses instead of the raw counts so that no red bar overshoots its blue one).
  Eigen::MatrixXd termTopicFrequency;
  std::vector<double> termFrequency;
  std::vector<double> termProportion;  // termFrequency / its sum
  std::vector<double> saliency;        // per word, see termSaliency
};

// The map of `topicWord` (K x V) with topics of `topicTokens` (K) expected tokens.
IntertopicMap intertopicMap(const Eigen::MatrixXd& topicWord, std::span<const double> topicTokens);

// saliency(w) = p(w) sum_k P(k|w) log(P(k|w) / P(k)), with P(k|w) = phi_kw / sum_j phi_jw as in
// LDAvis (a uniform prior over topics, where Chuang et al. 2012 weight by P(k)) and P(k) the prevalence.
std::vector<double> termSaliency(const Eigen::MatrixXd& topicWord, std::span<const double> prevalence,
                                 std::span<const double> termProportion);

// relevance = lambda log phi_kw + (1 - lambda) log(phi_kw / p(w)) (LDAvis eq. 1). The `count` most
// relevant words of topic `k` (phi_kw > 0 only), most relevant first, ties to the smaller word id.
std::vector<std::int32_t> mostRelevantWords(const Eigen::MatrixXd& topicWord, std::span<const double> termProportion,
                                            Eigen::Index k, double lambda, int count);

// The `count` most relevant words of topic `k` at each lambda in 0, step, 2 step, .., 1 (one list per lambda).
std::vector<std::vector<std::int32_t>> mostRelevantWordsByLambda(const Eigen::MatrixXd& topicWord,
                                                                 std::span<const double> termProportion, Eigen::Index k,
                                                                 int count, double step);

// Every word among the `count` most relevant of topic `k` at some lambda in 0, step, 2 step, .., 1,
// in order of first appearance as lambda rises (the rows LDAvis sends for a topic).
std::vector<std::int32_t> relevantWordsOverLambda(const Eigen::MatrixXd& topicWord,
                                                  std::span<const double> termProportion, Eigen::Index k, int count,
                                                  double step);

// The indices of the `count` largest values, largest first, ties to the smaller index.
std::vector<std::int32_t> largestFirst(std::span<const double> values, int count);

}  // namespace latent::core
