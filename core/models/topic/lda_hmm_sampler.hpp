// SPDX-License-Identifier: GPL-3.0-or-later
// The collapsed Gibbs sampler of LDA-HMM (000 §27.4.3; Griffiths, Steyvers, Blei & Tenenbaum
// 2005 §3): every token's topic and syntactic class, the counts they imply, one sweep, the log
// joint and the posterior-mean estimates read from the counts.
#pragma once

#include <cstdint>
#include <span>
#include <stop_token>
#include <vector>

#include <Eigen/Core>

#include "core/data/corpus.hpp"
#include "core/models/topic/lda_gibbs_state.hpp"

namespace latent::core::topic {

struct LdaHmmPriors {
  int topics = 20;      // K
  int classes = 10;     // C, the semantic class 0 included
  double alpha = 0.1;   // symmetric Dirichlet on each document's topics
  double beta = 0.01;   // symmetric Dirichlet on each topic's words
  double delta = 0.01;  // symmetric Dirichlet on each syntactic class's words
  double gamma = 0.1;   // symmetric Dirichlet on each row of transitions (and on the first class)
};

// The counts every document's draws read and change: words by topic and by class, the classes'
// transitions. Word-major, so that one token's K (or C) counts are contiguous.
struct LdaHmmCounts {
  std::vector<std::int32_t> topicWord;        // [w * K + k]: tokens of word w in class 0 with topic k
  std::vector<std::int32_t> topicTotal;       // [k]
  std::vector<std::int32_t> classWord;        // [w * C + c]: tokens of word w in class c (c = 0 too)
  std::vector<std::int32_t> classTotal;       // [c]
  std::vector<std::int32_t> transitions;      // [a * C + c], a < C: c after a; a = C: c first in its document
  std::vector<std::int32_t> transitionTotal;  // [a], a <= C: transitions out of a (row C: documents)
};

// What a proposed swap of a word's classes would change (LdaHmmState::swapWordClasses).
struct LdaHmmSwap {
  std::vector<std::int32_t> change;     // [a * C + c]: of the transition counts
  std::vector<std::int32_t> rowChange;  // [a]: of the transitions out of a
  std::vector<std::size_t> touched;     // the entries of `change` set, once each
  std::vector<char> seen;               // [a * C + c]: in `touched`
  std::vector<std::int32_t> incoming;   // [k]: the word's tokens entering class 0 with topic k
};

// The sampler's state. Documents are swept in `partitions` contiguous parts of about equal token
// counts; with more than one, each part sweeps against its own copy of the shared counts and the
// copies' changes are added up after the sweep (AD-LDA, Newman, Asuncion, Smyth & Welling 2009):
// an approximation of the collapsed sampler that is exact with one part. The numbers depend on
// the seed and the number of parts, never on the threads that run them.
class LdaHmmState {
 public:
  // Random start: each token's topic and class uniform, from a stream per document (so the start
  // does not depend on the partitions either). Throws UsageError beyond 2^31 - 1 tokens.
  LdaHmmState(const Corpus& corpus, const LdaHmmPriors& priors, int partitions, std::uint64_t seed);

  // Sweep `iteration` (1-based): every token's (topic, class) drawn in turn from its conditional.
  // `contentProbability` (one per token, corpus order) receives each token's p(class 0 | the rest)
  // at its draw. False when stopped; the counts then still match the assignments, part of the
  // tokens redrawn.
  bool sweep(std::int64_t iteration, std::span<float> contentProbability, const std::stop_token& stop);

  // After sweep `iteration`: for every word type in turn, a Metropolis-Hastings move that swaps
  // its tokens between two classes (those in class a go to b and those in b to a; the topics stay),
  // accepted by the ratio of the collapsed joint. One token at a time, the chain can take
  // hundreds of sweeps to move a frequent word from the class it fell into (its neighbours hold
  // it there); the swap moves them all at once (a type-based move in the sense of Liang, Jordan &
  // Klein 2010). Runs on the merged counts, from its own stream per iteration. Returns the number
  // of moves accepted; stops early (between words) on a stop request.
  std::int64_t swapWordClasses(std::int64_t iteration, const std::stop_token& stop);

  // Annealing: the sweeps that follow draw each token's class from its conditional raised to the
  // power `heat` = 1/T and renormalised (its topic given the class as before); 1 is the sampler.
  void setClassHeat(double heat) noexcept { m_heat = heat; }

  // log p(W, Z, C | alpha, beta, delta, gamma), the collapsed joint (Griffiths et al. 2005).
  double logJoint() const;
  // log p(W, Z_0, C | ...): the same with the topics of tokens outside class 0 integrated out
  // (they are draws from theta alone). Its value does not carry those draws' noise, which in the
  // full joint swings by several hundredths of a nat per token from sweep to sweep: the objective
  // reported and the score of the restarts.
  double logMarginalJoint() const;

  // For tests and checks: the joint conditional p(c_t = c, z_t = k | every other token) of token t
  // (C x K) as a sweep would draw it from the current state, and a token's assignment set by hand
  // (the counts follow).
  Eigen::MatrixXd conditional(std::size_t token) const;
  void setAssignment(std::size_t token, int topic, int cls);
  // The log of the joint's ratio for swapping word w's tokens between classes a and b, and the swap.
  double swapLogRatio(std::size_t word, int a, int b) const;
  void swapClasses(std::size_t word, int a, int b);
  // Whether the counts are those of the assignments (a recount).
  bool countsMatchAssignments() const;
  int topicOf(std::size_t token) const noexcept { return m_topic[token]; }
  int classOf(std::size_t token) const noexcept { return m_class[token]; }

  // Posterior means given the assignments: phi (K x V), the classes' words (C x V; row 0 the
  // topics mixed by their share of class-0 tokens), the transitions (C x C) and the first class
  // (C), and each document's theta given its class-0 tokens' topics, (m_dk + alpha) / (m_d +
  // K alpha) (D x K; the topics of other tokens are draws from theta alone and are left out).
  Eigen::MatrixXd topicWord() const;
  Eigen::MatrixXd classWord() const;
  Eigen::MatrixXd transitions() const;
  Eigen::VectorXd start() const;
  Eigen::MatrixXd documentTopics() const;

  // One vector per document: the topic of each class-0 token, -1 for the others; the class of each.
  std::vector<std::vector<std::int32_t>> tokenTopics() const;
  std::vector<std::vector<float>> tokenClasses() const;

  const Corpus& corpus() const noexcept { return m_corpus; }
  const LdaHmmPriors& priors() const noexcept { return m_priors; }
  std::size_t partitions() const noexcept { return m_ranges.size(); }
  std::int64_t tokenCount() const noexcept { return static_cast<std::int64_t>(m_topic.size()); }
  double contentShare() const;  // share of tokens in class 0
  std::size_t memoryBytes() const;

 private:
  bool sweepRange(std::size_t part, LdaHmmCounts& counts, std::int64_t iteration, std::span<float> content,
                  const std::stop_token& stop);
  std::size_t documentOf(std::size_t token) const;
  double logJointWith(bool classZeroTopicsOnly) const;
  double evaluateSwap(std::size_t word, int a, int b, LdaHmmSwap& scratch) const;
  void applySwap(std::size_t word, int a, int b, const LdaHmmSwap& scratch);

  const Corpus& m_corpus;
  LdaHmmPriors m_priors;
  std::uint64_t m_seed;
  std::vector<DocumentRange> m_ranges;
  std::vector<std::int32_t> m_topic;       // per token
  std::vector<std::uint8_t> m_class;       // per token
  std::vector<std::int32_t> m_docTopic;    // [d * K + k], every token of d (the paper's n_dk)
  std::vector<std::int64_t> m_wordStart;   // [w]: where word w's tokens begin in m_wordTokens
  std::vector<std::int32_t> m_wordTokens;  // every token, grouped by word, in corpus order within a word
  std::vector<std::uint8_t> m_edge;        // per token: 1 first of its document, 2 last (or both)
  LdaHmmCounts m_counts;
  std::vector<LdaHmmCounts> m_copies;  // one per part when there are several
  LdaHmmSwap m_swap;
  double m_heat = 1.0;
};

}  // namespace latent::core::topic
