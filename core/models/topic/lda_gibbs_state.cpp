// SPDX-License-Identifier: GPL-3.0-or-later
// LDA Gibbs state: partitioning, initial assignments, histograms and log probabilities.
#include "core/models/topic/lda_gibbs_state.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <queue>
#include <stdexcept>
#include <string>
#include <utility>

namespace latent::core::topic {

LdaGibbsState::LdaGibbsState(const Corpus& corpus, int topics, double alpha, double beta, int partitions,
                             std::uint64_t seed, PartitionBalance balance, const CorpusShare* share)
    : m_corpus(corpus),
      m_share(share),
      m_topics(topics),
      m_vocabulary(static_cast<int>(corpus.vocabularySize())),
      m_balance(balance),
      m_tokens(share != nullptr ? share->tokens : static_cast<std::int64_t>(corpus.tokenCount())),
      m_alpha(static_cast<std::size_t>(topics), alpha),
      m_alphaSum(alpha * topics),
      m_beta(beta),
      m_z(corpus.tokenCount()),
      m_wordFrequency(share != nullptr ? share->wordFrequencies : core::wordFrequencies(corpus)) {
  if (m_wordFrequency.size() != corpus.vocabularySize())
    throw std::invalid_argument("the corpus share counts another vocabulary than the corpus's");
  for (const auto f : m_wordFrequency) m_maxWordFrequency = std::max(m_maxWordFrequency, f);
  m_maxCount = m_maxWordFrequency;
  if (share != nullptr) {
    m_maxCount = std::max(m_maxCount, share->longestDocument);
    std::size_t begin = 0;
    for (const auto end : share->plan.partitionEnds) {
      m_partitions.push_back({begin, static_cast<std::size_t>(end)});
      begin = static_cast<std::size_t>(end);
    }
    if (begin != corpus.documentCount() || m_partitions.empty())
      throw std::invalid_argument("the plan's partitions do not cover the corpus");
    if (m_partitions.size() != static_cast<std::size_t>(partitions))
      throw std::invalid_argument("the plan holds " + std::to_string(m_partitions.size()) + " partitions, not " +
                                  std::to_string(partitions));
  } else {
    for (std::size_t d = 0; d < corpus.documentCount(); ++d)
      m_maxCount = std::max(m_maxCount, corpus.offsets[d + 1] - corpus.offsets[d]);
    m_partitions = partitionDocuments(corpus, m_wordFrequency, topics, partitions, balance);
  }
  const std::size_t P = m_partitions.size();
  for (std::size_t p = 0; p < P; ++p) m_rngs.push_back({Rng(seed, p)});

  // Uniform initial topics, each partition from its own stream.
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, m_partitions.size(), 1), [&](const auto& r) {
    for (std::size_t p = r.begin(); p != r.end(); ++p) {
      auto& rng = m_rngs[p].rng;
      const auto first = static_cast<std::size_t>(corpus.offsets[m_partitions[p].begin]);
      const auto last = static_cast<std::size_t>(corpus.offsets[m_partitions[p].end]);
      for (std::size_t i = first; i < last; ++i)
        m_z[i] = static_cast<std::int32_t>(rng.below(static_cast<std::uint64_t>(topics)));
    }
  });
}

void LdaGibbsState::setAlpha(const Eigen::VectorXd& alpha) {
  m_alphaSum = 0.0;
  for (int k = 0; k < m_topics; ++k) {
    m_alpha[static_cast<std::size_t>(k)] = alpha[k];
    m_alphaSum += alpha[k];
  }
}

Eigen::VectorXd LdaGibbsState::alphaVector() const {
  Eigen::VectorXd a(m_topics);
  for (int k = 0; k < m_topics; ++k) a[k] = m_alpha[static_cast<std::size_t>(k)];
  return a;
}

DocumentTopicHistograms LdaGibbsState::documentTopicHistograms() const {
  return documentTopicHistograms(0, m_corpus.documentCount());
}

DocumentTopicHistograms LdaGibbsState::documentTopicHistograms(std::size_t firstDocument,
                                                               std::size_t lastDocument) const {
  const std::size_t K = static_cast<std::size_t>(m_topics);
  // Nonzero (topic, count) pairs per document block, gathered in parallel and then counted in
  // block order; the histograms hold integers, so the result is exact either way.
  constexpr std::size_t kBlock = 256;
  const std::size_t blocks = (lastDocument - firstDocument + kBlock - 1) / kBlock;
  std::vector<std::vector<std::pair<std::int32_t, std::int32_t>>> pairs(blocks);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, blocks, 1), [&](const auto& r) {
    std::vector<std::int32_t> counts(K, 0);
    for (std::size_t b = r.begin(); b != r.end(); ++b) {
      const std::size_t from = firstDocument + b * kBlock, to = std::min(lastDocument, from + kBlock);
      for (std::size_t d = from; d < to; ++d) {
        const auto first = static_cast<std::size_t>(m_corpus.offsets[d]),
                   last = static_cast<std::size_t>(m_corpus.offsets[d + 1]);
        for (std::size_t i = first; i < last; ++i) ++counts[static_cast<std::size_t>(m_z[i])];
        for (std::size_t i = first; i < last; ++i) {
          auto& c = counts[static_cast<std::size_t>(m_z[i])];
          if (c > 0) pairs[b].emplace_back(m_z[i], c);
          c = 0;
        }
      }
    }
  });
  DocumentTopicHistograms h;
  h.topic.assign(K, {});
  for (const auto& block : pairs)
    for (const auto& [k, c] : block) {
      auto& row = h.topic[static_cast<std::size_t>(k)];
      if (row.size() <= static_cast<std::size_t>(c)) row.resize(static_cast<std::size_t>(c) + 1, 0);
      ++row[static_cast<std::size_t>(c)];
    }
  for (std::size_t d = firstDocument; d < lastDocument; ++d) {
    const auto n = m_corpus.documentLength(d);
    if (n == 0) continue;
    if (h.length.size() <= n) h.length.resize(n + 1, 0);
    ++h.length[n];
  }
  return h;
}

double LdaGibbsState::logPriorOfAssignments() const {
  std::vector<double> perDocument(m_corpus.documentCount(), 0.0);
  logPriorPerDocument(0, perDocument);
  double total = 0.0;
  for (const double v : perDocument) total += v;  // document order: independent of threads
  return total;
}

void LdaGibbsState::logPriorPerDocument(std::size_t firstDocument, std::span<double> out) const {
  const std::size_t K = static_cast<std::size_t>(m_topics);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, out.size(), 64), [&](const auto& r) {
    std::vector<std::int32_t> counts(K, 0);
    for (std::size_t j = r.begin(); j != r.end(); ++j) {
      const std::size_t d = firstDocument + j;
      const auto first = static_cast<std::size_t>(m_corpus.offsets[d]),
                 last = static_cast<std::size_t>(m_corpus.offsets[d + 1]);
      for (std::size_t i = first; i < last; ++i) ++counts[static_cast<std::size_t>(m_z[i])];
      double sum = std::lgamma(m_alphaSum) - std::lgamma(static_cast<double>(last - first) + m_alphaSum);
      for (std::size_t i = first; i < last; ++i) {
        const auto k = static_cast<std::size_t>(m_z[i]);
        if (counts[k] > 0) sum += logGammaRatio(counts[k], m_alpha[k]);
        counts[k] = 0;
      }
      out[j] = sum;
    }
  });
}

Eigen::MatrixXd LdaGibbsState::documentTopics() const {
  Eigen::MatrixXd theta(static_cast<Eigen::Index>(m_corpus.documentCount()), m_topics);
  documentTopics(theta, {});
  return theta;
}

template <typename Matrix>
void LdaGibbsState::fillDocumentTopics(Matrix& out, std::span<const std::int64_t> rows) const {
  const auto D = static_cast<Eigen::Index>(m_corpus.documentCount());
  tbb::parallel_for(tbb::blocked_range<Eigen::Index>(0, D, 64), [&](const auto& r) {
    Eigen::VectorXd counts(m_topics);
    for (Eigen::Index d = r.begin(); d != r.end(); ++d) {
      counts.setZero();
      const auto first = static_cast<std::size_t>(m_corpus.offsets[static_cast<std::size_t>(d)]);
      const auto last = static_cast<std::size_t>(m_corpus.offsets[static_cast<std::size_t>(d) + 1]);
      for (std::size_t i = first; i < last; ++i) counts[m_z[i]] += 1.0;
      const double norm = static_cast<double>(last - first) + m_alphaSum;
      const Eigen::Index row = rows.empty() ? d : static_cast<Eigen::Index>(rows[static_cast<std::size_t>(d)]);
      for (int k = 0; k < m_topics; ++k)
        out(row, k) = static_cast<typename Matrix::Scalar>((counts[k] + m_alpha[static_cast<std::size_t>(k)]) / norm);
    }
  });
}

void LdaGibbsState::documentTopics(Eigen::MatrixXd& out, std::span<const std::int64_t> rows) const {
  fillDocumentTopics(out, rows);
}

void LdaGibbsState::documentTopics(Eigen::MatrixXf& out, std::span<const std::int64_t> rows) const {
  fillDocumentTopics(out, rows);
}

void LdaGibbsState::topicsByWord(DocumentRange documents, std::vector<std::int64_t>& start,
                                 std::vector<std::int32_t>& topics) const {
  const auto V = static_cast<std::size_t>(m_vocabulary);
  const auto first = static_cast<std::size_t>(m_corpus.offsets[documents.begin]);
  const auto last = static_cast<std::size_t>(m_corpus.offsets[documents.end]);
  const auto& tokens = m_corpus.tokens;
  start.assign(V + 1, 0);
  for (std::size_t i = first; i < last; ++i) ++start[static_cast<std::size_t>(tokens[i]) + 1];
  for (std::size_t w = 0; w < V; ++w) start[w + 1] += start[w];
  topics.resize(last - first);
  std::vector<std::int64_t> next(start.begin(), start.end() - 1);
  for (std::size_t i = first; i < last; ++i)
    topics[static_cast<std::size_t>(next[static_cast<std::size_t>(tokens[i])]++)] = m_z[i];
}

std::vector<std::uint32_t> LdaGibbsState::wordGroups() const {
  // A share's groups were made on the whole corpus, which this process may not hold.
  if (m_share != nullptr) {
    if (m_share->plan.wordGroups.size() != static_cast<std::size_t>(m_vocabulary))
      throw std::invalid_argument("the plan holds no word group for every word");
    return m_share->plan.wordGroups;
  }
  return balancedWordGroups(m_corpus, m_partitions, wordCosts(m_wordFrequency, m_topics, m_balance));
}

std::vector<std::vector<std::int32_t>> LdaGibbsState::tokenTopics() const {
  std::vector<std::vector<std::int32_t>> out(m_corpus.documentCount());
  for (std::size_t d = 0; d < out.size(); ++d)
    out[d].assign(m_z.begin() + m_corpus.offsets[d], m_z.begin() + m_corpus.offsets[d + 1]);
  return out;
}

namespace {

// Words placed by their work in each range; the rest by their total. 4096 of man1's 26,510 words
// (K = 1000, 16 partitions) balanced the blocks about as well as all of them (round_balance.py),
// and P x 4096 sums stay small for a cluster's hundreds of partitions.
constexpr std::size_t kWordsPlacedByRange = 4096;

}  // namespace

std::vector<std::uint32_t> balancedWordGroups(const Corpus& corpus, std::span<const DocumentRange> ranges,
                                              std::span<const double> cost) {
  const std::size_t P = ranges.size(), V = cost.size();
  std::vector<std::uint32_t> groupOf(V, 0);
  if (P < 2) return groupOf;
  std::vector<double> total(V, 0.0);
  for (const auto w : corpus.tokens) total[static_cast<std::size_t>(w)] += cost[static_cast<std::size_t>(w)];
  const double whole = std::accumulate(total.begin(), total.end(), 0.0);
  if (!(whole > 0.0)) return groupOf;
  std::vector<std::uint32_t> order(V);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return total[a] > total[b]; });
  const std::size_t M = std::min(V, kWordsPlacedByRange);
  std::vector<std::int64_t> placedIndex(V, -1);
  for (std::size_t m = 0; m < M; ++m) placedIndex[order[m]] = static_cast<std::int64_t>(m);

  // work[p M + m]: the work of placed word m in range p; share[p]: a block's share of range p.
  std::vector<double> work(P * M, 0.0), share(P, 0.0);
  for (std::size_t p = 0; p < P; ++p) {
    for (auto i = corpus.offsets[ranges[p].begin]; i < corpus.offsets[ranges[p].end]; ++i) {
      const auto w = static_cast<std::size_t>(corpus.tokens[static_cast<std::size_t>(i)]);
      share[p] += cost[w];
      if (placedIndex[w] >= 0) work[p * M + static_cast<std::size_t>(placedIndex[w])] += cost[w];
    }
    share[p] = std::max(share[p] / static_cast<double>(P), std::numeric_limits<double>::min());
  }
  std::vector<double> block(P * P, 0.0);  // block[p P + g]: range p's work in group g so far
  for (std::size_t m = 0; m < M; ++m) {
    std::size_t best = 0;
    double bestLargest = std::numeric_limits<double>::infinity();
    for (std::size_t g = 0; g < P; ++g) {
      double largest = 0.0;
      for (std::size_t p = 0; p < P; ++p) largest = std::max(largest, (block[p * P + g] + work[p * M + m]) / share[p]);
      if (largest < bestLargest) {
        bestLargest = largest;
        best = g;
      }
    }
    for (std::size_t p = 0; p < P; ++p) block[p * P + best] += work[p * M + m];
    groupOf[order[m]] = static_cast<std::uint32_t>(best);
  }

  // A word spread like the ranges adds total / (whole work) of each range's work to each of its
  // blocks, so total * P / (whole work) to every relative block of its group.
  const double perWork = static_cast<double>(P) / whole;
  using Largest = std::pair<double, std::uint32_t>;  // (largest relative block, group)
  std::priority_queue<Largest, std::vector<Largest>, std::greater<Largest>> lightest;
  for (std::uint32_t g = 0; g < P; ++g) {
    double largest = 0.0;
    for (std::size_t p = 0; p < P; ++p) largest = std::max(largest, block[p * P + g] / share[p]);
    lightest.push({largest, g});
  }
  for (std::size_t m = M; m < V; ++m) {
    auto [largest, g] = lightest.top();
    lightest.pop();
    groupOf[order[m]] = g;
    lightest.push({largest + total[order[m]] * perWork, g});
  }
  return groupOf;
}

std::size_t TokensByWordGroup::memoryBytes() const noexcept {
  std::size_t bytes = order.size() * sizeof(std::uint32_t) + groupStart.size() * sizeof(std::size_t);
  for (const auto& v : visits) bytes += v.size() * sizeof(Visit);
  return bytes;
}

TokensByWordGroup groupTokensByWordGroup(const Corpus& corpus, DocumentRange range,
                                         std::span<const std::uint32_t> groupOf, std::size_t groups) {
  constexpr std::size_t kNoDocument = std::numeric_limits<std::size_t>::max();
  TokensByWordGroup grouped;
  // First pass: each group's tokens and visits, to place the groups and size their visits.
  std::vector<std::size_t> next(groups, 0), visits(groups, 0), lastDocument(groups, kNoDocument);
  for (std::size_t d = range.begin; d < range.end; ++d)
    for (auto i = static_cast<std::size_t>(corpus.offsets[d]); i < static_cast<std::size_t>(corpus.offsets[d + 1]);
         ++i) {
      const std::size_t g = groupOf[static_cast<std::size_t>(corpus.tokens[i])];
      ++next[g];
      if (lastDocument[g] != d) {
        lastDocument[g] = d;
        ++visits[g];
      }
    }
  grouped.groupStart.assign(groups, 0);
  grouped.visits.assign(groups, {});
  std::size_t total = 0;
  for (std::size_t g = 0; g < groups; ++g) {
    grouped.groupStart[g] = total;
    total += next[g];
    next[g] = grouped.groupStart[g];
    grouped.visits[g].reserve(visits[g]);
  }
  // Second pass: each token to its group's next place, each document to the visits of the groups
  // it has tokens of.
  grouped.order.assign(total, 0);
  std::fill(lastDocument.begin(), lastDocument.end(), kNoDocument);
  std::vector<std::size_t> touched;
  for (std::size_t d = range.begin; d < range.end; ++d) {
    const auto first = static_cast<std::size_t>(corpus.offsets[d]),
               last = static_cast<std::size_t>(corpus.offsets[d + 1]);
    touched.clear();
    for (std::size_t i = first; i < last; ++i) {
      const std::size_t g = groupOf[static_cast<std::size_t>(corpus.tokens[i])];
      grouped.order[next[g]++] = static_cast<std::uint32_t>(i - first);
      if (lastDocument[g] != d) {
        lastDocument[g] = d;
        touched.push_back(g);
      }
    }
    for (const auto g : touched) grouped.visits[g].push_back(TokensByWordGroup::Visit{d, next[g]});
  }
  return grouped;
}

std::vector<DocumentRange> partitionDocuments(const Corpus& corpus, std::span<const std::int64_t> frequency, int topics,
                                              int partitions, PartitionBalance balance) {
  // Never more partitions than documents.
  const std::size_t D = corpus.documentCount();
  const std::size_t P = std::max<std::size_t>(
      1, std::min<std::size_t>(static_cast<std::size_t>(std::max(partitions, 1)), std::max<std::size_t>(D, 1)));
  if (balance != PartitionBalance::WordTopics || P == 1) return balancedRanges(corpus.offsets, P);
  // The running cost in fixed point (1/64 of a list entry), so that the ranges are cut by the
  // same integer code as token counts.
  std::vector<std::int64_t> tokenCost(frequency.size());
  for (std::size_t w = 0; w < tokenCost.size(); ++w)
    tokenCost[w] = std::llround(64.0 * sparseStartCost(frequency[w], topics));
  std::vector<std::int64_t> cumulative(D + 1, 0);
  for (std::size_t d = 0; d < D; ++d) {
    std::int64_t cost = 0;
    for (auto i = corpus.offsets[d]; i < corpus.offsets[d + 1]; ++i)
      cost += tokenCost[static_cast<std::size_t>(corpus.tokens[static_cast<std::size_t>(i)])];
    cumulative[d + 1] = cumulative[d] + cost;
  }
  return balancedRanges(cumulative, P);
}

std::vector<double> wordCosts(std::span<const std::int64_t> frequency, int topics, PartitionBalance balance) {
  std::vector<double> cost(frequency.size(), 1.0);
  if (balance == PartitionBalance::WordTopics)
    for (std::size_t w = 0; w < cost.size(); ++w) cost[w] = sparseStartCost(frequency[w], topics);
  return cost;
}

CorpusPlan planChain(const Corpus& corpus, int topics, int partitions, PartitionBalance balance) {
  const auto frequency = wordFrequencies(corpus);
  const auto ranges = partitionDocuments(corpus, frequency, topics, partitions, balance);
  CorpusPlan plan;
  for (const auto& range : ranges) plan.partitionEnds.push_back(static_cast<std::int64_t>(range.end));
  plan.wordGroups = balancedWordGroups(corpus, ranges, wordCosts(frequency, topics, balance));
  return plan;
}

std::vector<DocumentRange> balancedRanges(std::span<const std::int64_t> offsets, std::size_t parts) {
  // Contiguous ranges cut where the running count comes closest to p/P of the total, so that
  // every range holds about the same work, each with at least one item.
  const std::size_t D = offsets.size() - 1;
  const auto N = static_cast<double>(offsets.back() - offsets.front());
  std::vector<DocumentRange> ranges;
  std::size_t begin = 0;
  for (std::size_t p = 0; p < parts; ++p) {
    std::size_t end = D;
    if (p + 1 < parts) {
      const double target =
          static_cast<double>(offsets.front()) + N * static_cast<double>(p + 1) / static_cast<double>(parts);
      const std::size_t lastAllowed = D - (parts - 1 - p);  // leaves an item for each later range
      end = begin + 1;
      while (end < lastAllowed && static_cast<double>(offsets[end]) < target) ++end;
      // Cut on whichever side of the item that crosses the target lands closer to it.
      if (end > begin + 1 &&
          target - static_cast<double>(offsets[end - 1]) < static_cast<double>(offsets[end]) - target)
        --end;
    }
    ranges.push_back({begin, end});
    begin = end;
  }
  return ranges;
}

double sparseStartCost(std::int64_t frequency, int topics) noexcept {
  const double K = std::max(topics, 1);
  return -K * std::expm1(-static_cast<double>(frequency) / K);
}

double logGammaRatio(std::int64_t n, double a) noexcept {
  if (n == 0) return 0.0;
  if (n < 8) {  // the product a (a+1) ... (a+n-1) is exact enough and cheaper than two lgammas
    double product = a;
    for (std::int64_t i = 1; i < n; ++i) product *= a + static_cast<double>(i);
    return std::log(product);
  }
  return std::lgamma(static_cast<double>(n) + a) - std::lgamma(a);
}

TopicWordHistograms topicWordHistograms(std::span<const std::int64_t> countHistogram,
                                        std::span<const std::int64_t> topicTotals) {
  TopicWordHistograms h;
  h.count.assign(countHistogram.begin(), countHistogram.end());
  std::int64_t largest = 0;
  for (const auto n : topicTotals) largest = std::max(largest, n);
  h.topicSize.assign(static_cast<std::size_t>(largest) + 1, 0);
  for (const auto n : topicTotals)
    if (n > 0) ++h.topicSize[static_cast<std::size_t>(n)];
  return h;
}

double logLikelihoodOfWords(const TopicWordHistograms& histograms, std::span<const std::int64_t> topicTotals,
                            double beta, int vocabularySize) {
  double sum = 0.0;
  for (std::size_t c = 1; c < histograms.count.size(); ++c)
    if (histograms.count[c] != 0)
      sum += static_cast<double>(histograms.count[c]) * logGammaRatio(static_cast<std::int64_t>(c), beta);
  const double betaV = beta * vocabularySize;
  for (const auto n : topicTotals) sum -= logGammaRatio(n, betaV);
  return sum;
}

}  // namespace latent::core::topic
