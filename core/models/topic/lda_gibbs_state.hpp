// SPDX-License-Identifier: GPL-3.0-or-later
// What both LDA Gibbs samplers share: the topic of every token, the document partitions with
// their random streams, the hyperparameters, and the quantities computed from counts (001 eq. 3-8).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <Eigen/Core>

#include "core/data/corpus.hpp"
#include "core/data/corpus_share.hpp"
#include "core/models/topic/dirichlet_hyperparameters.hpp"
#include "core/util/random.hpp"

namespace latent::core::topic {

// Documents [begin, end) of the corpus, sampled by one task with its own random stream.
struct DocumentRange {
  std::size_t begin = 0;
  std::size_t end = 0;
};

// The cache line size of the machines we build for (x86-64, most ARM cores); objects written by
// different threads in every step are aligned to it so that no two of them share a line.
inline constexpr std::size_t kCacheLine = 64;

// What the document ranges of several partitions balance: the partitions of a round wait for
// one another, so each range should hold the same work.
enum class PartitionBalance {
  Tokens,     // equal token counts: a token costs about the same whatever its word (alias, warp)
  WordTopics  // equal sparse-sampler work: see sparseStartCost
};

class LdaGibbsState {
 public:
  // Splits the documents into `partitions` contiguous ranges of about equal work (`balance`)
  // and gives each range its stream Rng(seed, index). Assignments start uniformly at random,
  // drawn from the same streams (so they too depend only on seed and partitioning).
  //
  // With a `share` (a distributed fit, data/corpus_share.hpp) the ranges and word groups are its
  // plan's, which process 0 made as above on the whole corpus, and the word frequencies, token
  // count and longest document are the whole corpus's; `corpus` may then hold only some of the
  // documents' tokens (the rest empty), whose topics alone this state draws and holds.
  LdaGibbsState(const Corpus& corpus, int topics, double alpha, double beta, int partitions, std::uint64_t seed,
                PartitionBalance balance = PartitionBalance::Tokens, const CorpusShare* share = nullptr);

  const Corpus& corpus() const noexcept { return m_corpus; }
  int topics() const noexcept { return m_topics; }
  int vocabularySize() const noexcept { return m_vocabulary; }
  // Tokens of the whole corpus, also where this state holds a share of them.
  std::int64_t tokenCount() const noexcept { return m_tokens; }
  // Whether this state holds every token's topic: not on a process other than 0 of a
  // distributed fit, which holds its own documents' only.
  bool holdsEveryToken() const noexcept { return static_cast<std::int64_t>(m_z.size()) == m_tokens; }

  // Topic of every token the corpus holds, in corpus token order; the kernels update it in place.
  std::span<std::int32_t> assignments() noexcept { return m_z; }
  std::span<const std::int32_t> assignments() const noexcept { return m_z; }

  const std::vector<DocumentRange>& partitions() const noexcept { return m_partitions; }
  Rng& rng(std::size_t partition) noexcept { return m_rngs[partition].rng; }
  // Each word's group, for the kernels that sample the partitions' tokens a word group per round
  // (balancedWordGroups, with the work of a token as `balance` weighs it): the plan's, if any.
  std::vector<std::uint32_t> wordGroups() const;

  const std::vector<std::int64_t>& wordFrequencies() const noexcept { return m_wordFrequency; }
  std::int64_t maxWordFrequency() const noexcept { return m_maxWordFrequency; }
  // The largest count n_wk or n_dk can reach: what the kernels' packed counts must hold.
  std::int64_t maxCount() const noexcept { return m_maxCount; }

  // Hyperparameters: an asymmetric alpha (K entries) and a symmetric beta.
  const std::vector<double>& alpha() const noexcept { return m_alpha; }
  double alphaSum() const noexcept { return m_alphaSum; }
  double beta() const noexcept { return m_beta; }
  void setAlpha(const Eigen::VectorXd& alpha);
  void setBeta(double beta) noexcept { m_beta = beta; }
  Eigen::VectorXd alphaVector() const;

  // Counts of n_dk over the documents and of document lengths, for optimizeAsymmetricAlpha; of
  // documents [firstDocument, lastDocument) only (a distributed chain's share, summed over the
  // processes by addHistograms).
  DocumentTopicHistograms documentTopicHistograms() const;
  DocumentTopicHistograms documentTopicHistograms(std::size_t firstDocument, std::size_t lastDocument) const;

  // log P(Z | alpha) = sum_d [log Gamma(alpha_0) - log Gamma(N_d + alpha_0)
  //                           + sum_k (log Gamma(n_dk + alpha_k) - log Gamma(alpha_k))]
  // (001 eq. 3, second product; 000 eq. 27.34 with an asymmetric alpha). One pass over z.
  double logPriorOfAssignments() const;
  // The terms of that sum of documents firstDocument .. firstDocument + out.size() - 1, which
  // logPriorOfAssignments adds up in document order (so that a distributed chain, gathering each
  // process's terms, gets its sum to the last bit).
  void logPriorPerDocument(std::size_t firstDocument, std::span<double> out) const;

  // Document d's topic proportions (n_dk + alpha_k) / (N_d + alpha_0) (001 eq. 5), D x K.
  Eigen::MatrixXd documentTopics() const;
  // The same written into `out`: document d's row into row rows[d] (row d when rows is empty),
  // so that a larger matrix of all documents is filled without a copy.
  void documentTopics(Eigen::MatrixXd& out, std::span<const std::int64_t> rows) const;
  // The same into a matrix of floats (a large doc_topic, matrix_precision.hpp): each value is
  // computed in doubles and rounded once.
  void documentTopics(Eigen::MatrixXf& out, std::span<const std::int64_t> rows) const;

  // The topics of the tokens of `documents` grouped by word (a counting sort): word w's topics
  // are topics[start[w], start[w + 1]). How the kernels build their word-topic counts (of a
  // distributed chain's own documents, which its processes then add up).
  void topicsByWord(DocumentRange documents, std::vector<std::int64_t>& start, std::vector<std::int32_t>& topics) const;

  // The assignments split by document, for FitResult::tokenTopics.
  std::vector<std::vector<std::int32_t>> tokenTopics() const;

 private:
  template <typename Matrix>
  void fillDocumentTopics(Matrix& out, std::span<const std::int64_t> rows) const;

  const Corpus& m_corpus;
  const CorpusShare* m_share;
  int m_topics;
  int m_vocabulary;
  PartitionBalance m_balance;
  std::int64_t m_tokens;
  std::vector<double> m_alpha;
  double m_alphaSum = 0.0;
  double m_beta;
  std::vector<std::int32_t> m_z;
  std::vector<DocumentRange> m_partitions;
  // Each partition's stream on cache lines of its own: a sweep draws from it for every token,
  // and streams sharing a line made two threads write to one line all the time (false sharing).
  struct alignas(kCacheLine) PartitionRng {
    Rng rng;
  };
  std::vector<PartitionRng> m_rngs;
  std::vector<std::int64_t> m_wordFrequency;
  std::int64_t m_maxWordFrequency = 0;
  std::int64_t m_maxCount = 0;
};

// The ranges of `partitions` partitions of `corpus` (at most one per document) of about equal
// work as `balance` weighs it, its words seen `frequency` times: how LdaGibbsState and a
// distributed fit's plan cut them.
std::vector<DocumentRange> partitionDocuments(const Corpus& corpus, std::span<const std::int64_t> frequency, int topics,
                                              int partitions, PartitionBalance balance);

// What a token of each word costs the kernels whose partitions `balance` balances (sparseStartCost,
// or one each), for balancedWordGroups.
std::vector<double> wordCosts(std::span<const std::int64_t> frequency, int topics, PartitionBalance balance);

// The partitions and word groups a distributed chain of `processes` processes samples `corpus`
// with (ModelInfo::planCorpus): what LdaGibbsState and the kernels make in one process.
CorpusPlan planChain(const Corpus& corpus, int topics, int partitions, PartitionBalance balance);

// Splits items 0..n-1, item j weighing offsets[j + 1] - offsets[j], into `parts` <= max(n, 1)
// contiguous ranges of about equal weight, none empty unless n = 0.
std::vector<DocumentRange> balancedRanges(std::span<const std::int64_t> offsets, std::size_t parts);

// What one token of a word seen `frequency` times in the corpus costs the sparse sampler, in
// entries of its word's list that the word bucket walks: from a uniform start the list holds
// K (1 - exp(-frequency / K)) topics on average. A token's other work is small beside that walk,
// and documents differ in how many of their tokens are frequent words, so ranges of equal tokens
// gave one partition more entries to walk while the other waited (tests/benchmarks/README.md,
// "Document ranges balanced by the sampler's work").
double sparseStartCost(std::int64_t frequency, int topics) noexcept;

// The word groups of a chain whose partitions sample the document `ranges` of `corpus`
// (lda_gibbs_sparse_kernel.hpp): each word's group. In round r partition p samples its range's
// tokens of group (p + r) mod P and the round waits for the slowest partition, so each of these
// P x P blocks should hold the same work, a token of word w costing cost[w]. Groups of equal
// totals are not enough: documents on one subject come together in a corpus (man pages by
// section, speeches by year) and use their own words most, so one range's block of a group can
// hold twice another's (tests/benchmarks/round_balance.py). The words of most work, heaviest
// first, each go to the group whose largest block (relative to its range's share) stays smallest
// with the word's work in every range added; the rest, each small beside a block, are taken to
// spread like the ranges' work and go to the group whose largest relative block is smallest.
std::vector<std::uint32_t> balancedWordGroups(const Corpus& corpus, std::span<const DocumentRange> ranges,
                                              std::span<const double> cost);

// One partition's tokens in the order its rounds sample them (lda_gibbs_sparse_kernel.hpp): grouped
// by word group, then by document, in corpus order within a document. Group g's tokens are
// order[groupStart[g], ...), as positions within their documents; visits[g] lists the documents
// with a token of group g (a document without one is not visited in that round), each with the
// end of its tokens in `order`.
struct TokensByWordGroup {
  struct Visit {
    std::size_t document;
    std::size_t end;
  };
  std::vector<std::uint32_t> order;
  std::vector<std::size_t> groupStart;
  std::vector<std::vector<Visit>> visits;

  std::size_t memoryBytes() const noexcept;
};

// The tokens of documents `range` grouped by `groupOf[w]` (groups 0..groups-1): a stable counting
// sort, two passes over the range's tokens whatever the number of groups.
TokensByWordGroup groupTokensByWordGroup(const Corpus& corpus, DocumentRange range,
                                         std::span<const std::uint32_t> groupOf, std::size_t groups);

// log Gamma(n + a) - log Gamma(a) for an integer count n >= 0.
double logGammaRatio(std::int64_t n, double a) noexcept;

// Histogram of the nonzero word-topic counts n_wk and of the topic totals n_k, for
// optimizeSymmetricBeta and for log P(W | Z).
TopicWordHistograms topicWordHistograms(std::span<const std::int64_t> countHistogram,
                                        std::span<const std::int64_t> topicTotals);

// 001 eq. 8 with a symmetric beta over V words, from the histograms:
// log P(W | Z) = K [log Gamma(V beta) - V log Gamma(beta)] + sum_{k,w} log Gamma(n_kw + beta) - sum_k log Gamma(n_k + V
// beta)
//             = sum_c hist[c] (log Gamma(c + beta) - log Gamma(beta)) - sum_k (log Gamma(n_k + V beta) - log Gamma(V
//             beta)),
// the zero counts contributing nothing.
double logLikelihoodOfWords(const TopicWordHistograms& histograms, std::span<const std::int64_t> topicTotals,
                            double beta, int vocabularySize);

}  // namespace latent::core::topic
