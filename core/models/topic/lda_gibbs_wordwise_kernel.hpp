// SPDX-License-Identifier: GPL-3.0-or-later
// The exact collapsed Gibbs sampler swept word by word (Yu, Hsieh, Yun, Vishwanathan & Dhillon
// 2015, "A scalable asynchronous distributed algorithm for topic modeling", §3: F+LDA's word-by-word
// order): the same conditional as the SparseLDA sampler (lda_gibbs_sparse_kernel.hpp), split so
// that a token's cost follows its document's topics rather than its word's.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <vector>

#include "core/models/topic/lda_gibbs_distribution.hpp"
#include "core/models/topic/lda_gibbs_packed_lists.hpp"
#include "core/models/topic/lda_gibbs_process_ring.hpp"
#include "core/models/topic/lda_gibbs_rounds.hpp"
#include "core/models/topic/lda_gibbs_state.hpp"
#include "core/util/sparse_counts.hpp"

namespace latent::core::topic {

// The conditional of token i (word w, document d) with its own count removed,
//   p(k) ~ (alpha_k + n_dk)(beta + n_wk) / (V beta + n_k)          (000 eq. 27.37; 001 eq. 4)
// is split into three buckets, the roles of word and document swapped from Yao et al. 2009:
//   s = sum_k alpha_k beta / (V beta + n_k)                      smoothing: kept up to date incrementally
//   a = sum_{k: n_wk > 0} alpha_k n_wk / (V beta + n_k)          the word's: kept up to date incrementally
//   r = sum_{k: n_dk > 0} n_dk (beta + n_wk) / (V beta + n_k)    the document's: a sum over its topics
// With the tokens visited word by word, n_wk of the current word is a dense array, so r costs the
// document's topics and a and s change only at the token's old and new topic. A document holds
// fewer topics than a frequent word (man1 at K = 1000 after 100 sweeps, weighted by tokens: 15
// against 61), and alpha is small beside the counts, so r carries most of the mass and the walk of
// a, over the word's topics, is rare. A word's tokens in one document are visited one after
// another, and between two of them r changes in two topics only; so only the first of them walks
// the document (on man1 two tokens in three follow one of their word in their document). When the
// one before was drawn to this one's topic, taking this one out gives the counts that draw saw (the
// two tokens' places swapped), so the draw is made again from that one's masses, and nothing is
// written when it keeps its topic.
//
// The word-topic counts are the sparse kernel's packed lists (count << bits | topic, nonzero first,
// min(K, frequency) places), unsorted here: each word's list is read into the dense array when its
// tokens' turn comes and written back after. Each document's counts are packed the same way, kept
// in descending order so that the draw's walk over them is short. The tokens are visited word by
// word, a word's in document order, and the kernel keeps their topics in that order too, so that a
// sweep reads and writes them in sequence; the state's assignments (document order) are written
// from them when something reads them: the log prior, the re-estimation of alpha, synchronize(true)
// and the end of the kernel (storeAssignments).
//
// With one partition the chain is the exact sequential sampler in that order. With P partitions
// (of documents) the words are split into P groups and a sweep has P rounds, as in the sparse
// kernel's block schedule (Yan, Xu & Qi 2009, §4): in round r partition p samples the tokens of
// its documents whose word is in group (p + r) mod P, word by word. No two partitions touch one
// word's counts, or one document's, in the same round; only the totals n_k of the other
// partitions' moves are up to one round old (each partition keeps a copy, merged after each
// round). A token costs about the same whatever its word here, so the groups balance tokens.
// Across processes (latent-cli fit --distributed) the schedule is the same
// (lda_gibbs_process_ring.hpp): each process samples its partitions and holds their tokens' topics.
template <typename Packed>
class WordwiseGibbsKernel {
 public:
  static constexpr std::size_t kPrefetchDistance = 2;  // tokens ahead whose document counts are fetched

  static bool fits(int topics, std::int64_t maxCount) { return packedCountsFit<Packed>(topics, maxCount); }

  // Aligned to a cache line: a partition writes its own members (masses, totals) for every
  // token, and its neighbour in m_partitions must not share that line.
  class alignas(kCacheLine) Partition {
   public:
    Partition(WordwiseGibbsKernel& kernel, std::size_t index)
        : m_kernel(kernel),
          m_state(kernel.m_state),
          m_index(index),
          m_totals(kernel.m_totals),
          m_invDenominator(static_cast<std::size_t>(kernel.m_K)),
          m_alphaBeta(static_cast<std::size_t>(kernel.m_K)),
          m_docScore(static_cast<std::size_t>(kernel.m_K)),
          m_invBelow(static_cast<std::size_t>(kernel.m_K)),
          m_wordFactor(static_cast<std::size_t>(kernel.m_K)),
          m_word(static_cast<std::size_t>(kernel.m_K)) {}

    // Caches that depend on the hyperparameters and the topic totals.
    void beginSweep() {
      m_rng = &m_state.rng(m_index);
      m_alpha = m_state.alpha().data();
      m_beta = m_state.beta();
      m_betaV = m_beta * m_state.vocabularySize();
      for (std::size_t k = 0; k < m_invDenominator.size(); ++k) {
        m_invDenominator[k] = 1.0 / (m_betaV + static_cast<double>(m_totals[k]));
        m_invBelow[k] = 1.0 / (m_betaV + static_cast<double>(m_totals[k] - 1));
        m_alphaBeta[k] = m_alpha[k] * m_beta;
        m_wordFactor[k] = (m_beta + static_cast<double>(m_word[k])) * m_invDenominator[k];
      }
      recomputeSmoothingMass();
    }

    // Reads word w's counts into the dense array.
    void beginWord(std::size_t w) {
      const auto& kernel = m_kernel;
      m_w = w;
      m_runDocument = kNoDocument;
      m_lastTopic = kNoTopic;
      kernel.forEachTopicOfWord(w, [&](std::int32_t k, std::int64_t c) {
        m_word.add(static_cast<std::size_t>(k), static_cast<std::int32_t>(c));
      });
      for (const auto k : m_word.nonzero()) setWordFactor(static_cast<std::size_t>(k));
      recomputeWordMass();
    }

    // Writes the word's counts back and clears the dense array.
    void endWord() {
      auto& kernel = m_kernel;
      packCounts(m_word, kernel.m_words.data() + kernel.m_wordStart[m_w],
                 kernel.m_words.data() + kernel.m_wordStart[m_w + 1], kernel.m_bits);
      for (const auto k : m_word.nonzero())
        m_wordFactor[static_cast<std::size_t>(k)] = m_beta * m_invDenominator[static_cast<std::size_t>(k)];
      m_word.clear();
    }

    // Resamples the j-th token of the kernel's token order (one of the current word's in this
    // partition's documents) from its full conditional.
    void sampleToken(std::size_t j) {
      auto& kernel = m_kernel;
      const std::size_t ahead = j + kPrefetchDistance;
      if (ahead < m_tokenEnd) {
        __builtin_prefetch(kernel.m_documents.data() +
                           kernel.m_documentStart[kernel.m_tokenDocument[ahead - kernel.m_tokenBase]]);
      }
      const Packed mask = kernel.m_mask;
      const int bits = kernel.m_bits;
      const auto d = static_cast<std::size_t>(kernel.m_tokenDocument[j - kernel.m_tokenBase]);
      Packed* const list = kernel.m_documents.data() + kernel.m_documentStart[d];
      const auto capacity = static_cast<std::size_t>(kernel.m_documentStart[d + 1] - kernel.m_documentStart[d]);
      auto& z = kernel.m_z[j - kernel.m_tokenBase];
      const auto s = static_cast<std::size_t>(z);
      const bool again = d == m_runDocument;
      const double draw = m_rng->uniform();
      // The last token, of this word in this document, was drawn to this one's topic: taking this
      // one out leaves the very counts the last draw saw (the two tokens' places swapped), so the
      // draw is made from that one's masses and scores, and when it keeps the topic nothing is
      // written at all. When it lands on another entry of the document's list, the step below
      // takes that entry.
      const bool repeat = again && s == m_lastTopic;
      std::size_t repeated = capacity;
      if (repeat) {
        repeated = repeatedDraw(list, capacity, draw * m_lastTotal);
        if (repeated == m_lastEntry) return;
      }
      // What taking the token out changes is kept: most tokens keep their topic, and then it is
      // put back as it was, without a division or rounding.
      const double keptInverse = m_invDenominator[s], keptFactor = m_wordFactor[s];
      // The masses s and a in locals for the token's step: stores through the caches' pointers could
      // alias members, which would keep them in memory and put a store and a load on their chain.
      double smoothingMass = m_smoothingMass, wordMass = m_wordMass;
      const double keptSmoothingMass = smoothingMass, keptWordMass = wordMass;

      // The document bucket, sum over the document's topics of (n_dk - [k = s]) f_k with f_k the
      // word factor after the token is taken out (its entry itself changes only once the new topic
      // is known: usually it is the old one). A word's tokens in one document come one after
      // another, and between two of them the bucket changes in topics s and t only; so for all but
      // the first of them it follows from the last one's (m_runMass) without the walk, and the
      // draw, which usually stops within the first few (largest) entries, scores them itself.
      const double* const factor = m_wordFactor.data();
      double* const score = m_docScore.data();
      std::size_t n = 0, own = 0;
      double docMass;
      if (again) {
        while ((list[own] & mask) != s) ++own;
        removeFromTopic(s, smoothingMass, wordMass);
        const auto c = static_cast<double>(list[own] >> bits);
        docMass = repeat ? m_lastDocMass : m_runMass + (c - 1.0) * factor[s] - c * keptFactor;
      } else {
        removeFromTopic(s, smoothingMass, wordMass);
        // Two running sums, so that an entry does not wait for the previous addition.
        const auto scoreOf = [&](Packed e, std::size_t at) {
          const auto k = static_cast<std::size_t>(e & mask);
          const bool isOwn = k == s;
          own = isOwn ? at : own;
          const double value = static_cast<double>((e >> bits) - static_cast<Packed>(isOwn)) * factor[k];
          score[at] = value;
          return value;
        };
        double evenMass = 0.0, oddMass = 0.0;
        for (; n + 1 < capacity && list[n + 1] != 0; n += 2) {
          evenMass += scoreOf(list[n], n);
          oddMass += scoreOf(list[n + 1], n + 1);
        }
        if (n < capacity && list[n] != 0) {
          evenMass += scoreOf(list[n], n);
          ++n;
        }
        docMass = evenMass + oddMass;
      }
      const Packed ownCount = list[own] >> bits;

      const double* const inverse = m_invDenominator.data();
      // A repeat's masses computed again after the last token's move are its own up to rounding;
      // the last draw's total keeps the step on the entry repeatedDraw found.
      const double total = repeat ? m_lastTotal : docMass + wordMass + smoothingMass;
      double u = draw * total;
      std::size_t t;
      std::size_t at = capacity;  // the entry of t in the document's list, when the draw came from it
      if (u < docMass) {
        std::size_t e = 0;
        if (repeated != capacity) {
          e = repeated;
        } else if (again) {
          e = walkDocument(list, capacity, u, own, static_cast<double>(ownCount - 1) * factor[s]);
        } else {
          while (e + 1 < n && (u -= score[e]) >= 0.0) ++e;
        }
        t = static_cast<std::size_t>(list[e] & mask);
        at = e;
      } else {
        u -= docMass;
        const auto wordTopics = m_word.nonzero();
        if (u < wordMass && !wordTopics.empty()) {
          std::size_t e = 0;
          for (; e + 1 < wordTopics.size(); ++e) {
            const auto k = static_cast<std::size_t>(wordTopics[e]);
            u -= m_alpha[k] * m_word[k] * inverse[k];
            if (u < 0.0) break;
          }
          t = static_cast<std::size_t>(wordTopics[e]);
        } else {
          u -= wordMass;
          t = 0;
          for (const auto K = m_invDenominator.size(); t + 1 < K; ++t) {
            u -= m_alphaBeta[t] * inverse[t];
            if (u < 0.0) break;
          }
        }
      }
      // n_dt without the token, and f_t before it is added: what the next token of this word and
      // document starts its bucket from.
      Packed countOfT;
      const double factorOfT = factor[t];
      std::size_t entryOfT;
      if (t == s) {
        countOfT = ownCount - 1;
        entryOfT = own;
        ++m_totals[s];
        m_word.add(s, +1);
        m_invDenominator[s] = keptInverse;
        m_wordFactor[s] = keptFactor;
        smoothingMass = keptSmoothingMass;
        wordMass = keptWordMass;
      } else {
        const std::size_t sunk = removeAt(list, capacity, own, kernel.m_one);
        std::size_t placed;
        if (at != capacity) {
          if (at > own && at <= sunk) --at;  // the entries between moved up by one
          placed = incrementAt(list, at, kernel.m_one);
        } else {
          placed = addToList(list, capacity, static_cast<Packed>(t), mask, kernel.m_one);
        }
        countOfT = (list[placed] >> bits) - 1;
        entryOfT = placed;
        m_invBelow[s] = 1.0 / (m_betaV + static_cast<double>(m_totals[s] - 1));
        addToTopic(t, smoothingMass, wordMass);
        z = static_cast<std::int32_t>(t);
      }
      m_runDocument = d;
      m_lastTopic = t;
      m_lastEntry = entryOfT;
      m_lastScore = static_cast<double>(countOfT) * factorOfT;
      m_lastDocMass = docMass;
      m_lastTotal = total;
      m_runMass = docMass + static_cast<double>(countOfT + 1) * factor[t] - static_cast<double>(countOfT) * factorOfT;
      m_smoothingMass = smoothingMass;
      m_wordMass = wordMass;
      // a and s are updated incrementally; recomputing them every max(K, kRecomputeEvery) tokens
      // keeps rounding from piling up at O(1) cost per token.
      if (++m_sinceRecompute >= m_recomputeEvery) {
        recomputeSmoothingMass();
        recomputeWordMass();
        m_lastTopic = kNoTopic;  // the masses the last draw was made from changed
      }
    }

    std::vector<std::int64_t>& totals() noexcept { return m_totals; }
    const std::vector<std::int64_t>& totals() const noexcept { return m_totals; }

    // Where token i of the corpus (one of this partition's) sits in the kernel's token order: after
    // the tokens of its word that come before it in the partition's documents.
    std::size_t orderOf(std::size_t i) const {
      const auto& corpus = m_state.corpus();
      const auto range = m_state.partitions()[m_index];
      const auto first = static_cast<std::size_t>(corpus.offsets[range.begin]);
      if (i < first || i >= m_tokenEnd)
        throw std::invalid_argument("token " + std::to_string(i) + " is not this partition's");
      const auto w = corpus.tokens[i];
      return static_cast<std::size_t>(m_tokenStart[static_cast<std::size_t>(w)] +
                                      std::count(corpus.tokens.begin() + static_cast<std::ptrdiff_t>(first),
                                                 corpus.tokens.begin() + static_cast<std::ptrdiff_t>(i), w));
    }

    // The tokens of word group `group` in this partition's documents, word by word; false when
    // stopped (the state stays consistent).
    bool runRound(const std::stop_token& stop, std::size_t group) {
      beginSweep();
      const auto& start = m_tokenStart;
      for (const auto word : m_kernel.m_groupWords[group]) {
        const auto w = static_cast<std::size_t>(word);
        const auto first = static_cast<std::size_t>(start[w]), last = static_cast<std::size_t>(start[w + 1]);
        if (first == last) continue;
        if (stop.stop_requested()) return false;
        beginWord(w);
        for (std::size_t j = first; j < last; ++j) {
          if (((j - first) & 4095) == 4095 && stop.stop_requested()) {
            endWord();
            return false;
          }
          sampleToken(j);
        }
        endWord();
      }
      return true;
    }

   private:
    // The draw of a token whose counts taken out are those the last draw saw (a repeat, above):
    // the entry of the document's list that u = draw x total falls on, walking it as the full step
    // would, with the token's topic scored as the last draw scored it; `capacity` when u falls
    // beyond the document bucket.
    [[gnu::always_inline]] std::size_t repeatedDraw(const Packed* list, std::size_t capacity, double u) const {
      return u < m_lastDocMass ? walkDocument(list, capacity, u, m_lastEntry, m_lastScore) : capacity;
    }
    // The entry of the document's list on which u < its bucket falls, each entry scored n_dk f_k
    // but entry `entry`, whose score (the token's own topic, with the token taken out) is given.
    [[gnu::always_inline]] std::size_t walkDocument(const Packed* list, std::size_t capacity, double u,
                                                    std::size_t entry, double entryScore) const {
      const Packed mask = m_kernel.m_mask;
      const int bits = m_kernel.m_bits;
      const double* const factor = m_wordFactor.data();
      std::size_t e = 0;
      for (;; ++e) {
        u -= e == entry ? entryScore
                        : static_cast<double>(list[e] >> bits) * factor[static_cast<std::size_t>(list[e] & mask)];
        if (u < 0.0 || e + 1 == capacity || list[e + 1] == 0) break;
      }
      return e;
    }

    void recomputeSmoothingMass() {
      m_smoothingMass = 0.0;
      for (std::size_t k = 0; k < m_alphaBeta.size(); ++k) m_smoothingMass += m_alphaBeta[k] * m_invDenominator[k];
      m_sinceRecompute = 0;
    }
    void setWordFactor(std::size_t k) {
      m_wordFactor[k] = (m_beta + static_cast<double>(m_word[k])) * m_invDenominator[k];
    }
    void recomputeWordMass() {
      m_wordMass = 0.0;
      for (const auto topic : m_word.nonzero()) {
        const auto k = static_cast<std::size_t>(topic);
        m_wordMass += m_alpha[k] * m_word[k] * m_invDenominator[k];
      }
    }

    // n_k and n_wk of topic k fall by one; s and a (`smoothingMass`, `wordMass`) follow. The new
    // 1 / (V beta + n_k) was ready in m_invBelow, so no division waits here, before the draw; the
    // caller brings m_invBelow[k] up to date once the token's new topic is known. Inlined, so that
    // the masses stay in registers.
    [[gnu::always_inline]] void removeFromTopic(std::size_t k, double& smoothingMass, double& wordMass) {
      const double oldInverse = m_invDenominator[k], inverse = m_invBelow[k];
      smoothingMass -= m_alphaBeta[k] * oldInverse;
      wordMass -= m_alpha[k] * m_word[k] * oldInverse;
      --m_totals[k];
      m_word.add(k, -1);
      m_invDenominator[k] = inverse;
      setWordFactor(k);
      smoothingMass += m_alphaBeta[k] * inverse;
      wordMass += m_alpha[k] * m_word[k] * inverse;
    }
    // n_k and n_wk of topic k rise by one; s and a follow.
    [[gnu::always_inline]] void addToTopic(std::size_t k, double& smoothingMass, double& wordMass) {
      const double oldInverse = m_invDenominator[k];
      smoothingMass -= m_alphaBeta[k] * oldInverse;
      wordMass -= m_alpha[k] * m_word[k] * oldInverse;
      ++m_totals[k];
      m_word.add(k, +1);
      const double inverse = 1.0 / (m_betaV + static_cast<double>(m_totals[k]));
      m_invBelow[k] = oldInverse;
      m_invDenominator[k] = inverse;
      setWordFactor(k);
      smoothingMass += m_alphaBeta[k] * inverse;
      wordMass += m_alpha[k] * m_word[k] * inverse;
    }

    friend class WordwiseGibbsKernel;

    WordwiseGibbsKernel& m_kernel;
    LdaGibbsState& m_state;
    std::size_t m_index;
    std::vector<std::int64_t> m_totals;      // n_k as this partition sees it
    std::vector<std::int64_t> m_tokenStart;  // word w's tokens here: the kernel's order [m_tokenStart[w], ...[w + 1])
    std::size_t m_tokenEnd = 0;              // one past this partition's last token in that order
    Rng* m_rng = nullptr;
    const double* m_alpha = nullptr;
    double m_beta = 0.0, m_betaV = 0.0;
    std::vector<double> m_invDenominator, m_alphaBeta, m_docScore;
    // 1 / (V beta + n_k - 1): what taking a token of topic k out makes m_invDenominator[k]
    std::vector<double> m_invBelow;
    std::vector<double> m_wordFactor;  // (beta + n_wk) / (V beta + n_k) of the current word w, every topic
    SparseCounts m_word;               // n_wk of the current word, with its list of topics
    std::size_t m_w = 0;               // the current word
    static constexpr std::size_t kNoDocument = std::numeric_limits<std::size_t>::max();
    std::size_t m_runDocument = kNoDocument;  // the last token's document, while it is of the current word
    double m_runMass = 0.0;                   // the document bucket sum_k n_dk f_k after the last token was sampled
    // The topic the run's last token was drawn to, that topic's entry in the document's list now, and
    // of its draw: the topic's score and the document bucket and total mass.
    static constexpr std::size_t kNoTopic = std::numeric_limits<std::size_t>::max();
    std::size_t m_lastTopic = kNoTopic;
    std::size_t m_lastEntry = 0;
    double m_lastScore = 0.0, m_lastDocMass = 0.0, m_lastTotal = 0.0;
    // Not every K tokens when K is small: each recompute also ends a repeat (m_lastTopic), which
    // with a handful of topics would leave few tokens to take that path, in the tests too.
    static constexpr std::size_t kRecomputeEvery = 64;
    std::size_t m_recomputeEvery = std::max<std::size_t>(m_invDenominator.size(), kRecomputeEvery);
    std::size_t m_sinceRecompute = 0;
    double m_smoothingMass = 0.0, m_wordMass = 0.0;
  };

  // `distribution` (null: this process alone) must outlive the kernel.
  explicit WordwiseGibbsKernel(LdaGibbsState& state, GibbsDistribution* distribution = nullptr)
      : m_state(state),
        m_K(state.topics()),
        m_bits(topicBits(state.topics())),
        m_mask((Packed{1} << m_bits) - 1),
        m_one(Packed{1} << m_bits),
        m_totals(static_cast<std::size_t>(state.topics()), 0),
        m_ring(distribution, state.partitions().size()) {
    if (!fits(m_K, state.maxCount()))
      throw std::invalid_argument("the counts of " + std::to_string(state.maxCount()) +
                                  " tokens do not fit this kernel's packed entries");
    const auto& corpus = state.corpus();
    if (corpus.documentCount() > std::numeric_limits<std::uint32_t>::max())
      throw std::invalid_argument("the wordwise sampler holds at most 2^32 - 1 documents");
    buildCounts();
    const std::size_t P = state.partitions().size();
    const auto V = static_cast<std::size_t>(state.vocabularySize());
    m_groupWords.assign(P, {});
    const auto groupOf = state.wordGroups();
    for (std::size_t w = 0; w < V; ++w) m_groupWords[groupOf[w]].push_back(static_cast<std::uint32_t>(w));
    const auto documents = m_ring.documents(state);
    m_tokenBase = static_cast<std::size_t>(corpus.offsets[documents.begin]);
    const auto tokenEnd = static_cast<std::size_t>(corpus.offsets[documents.end]);
    m_tokenDocument.resize(tokenEnd - m_tokenBase);
    m_z.resize(tokenEnd - m_tokenBase);
    m_partitions.reserve(P);
    for (std::size_t p = 0; p < P; ++p) m_partitions.emplace_back(*this, p);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(m_ring.first(), m_ring.last(), 1), [&](const auto& r) {
      for (std::size_t p = r.begin(); p != r.end(); ++p) orderTokens(m_partitions[p]);
    });
  }
  // The state's assignments are left as the chain reached them.
  ~WordwiseGibbsKernel() { storeAssignments(); }
  WordwiseGibbsKernel(const WordwiseGibbsKernel&) = delete;
  WordwiseGibbsKernel& operator=(const WordwiseGibbsKernel&) = delete;

  // A partition handed out may be sampled (the tests do), so the state's assignments may be stale.
  Partition& partition(std::size_t p) {
    m_assignmentsStored = false;
    return m_partitions[p];
  }

  // What a partition sampled alone (outside sweep(), as the tests do) needs: the current totals.
  void prepareSweep() {
    for (auto& part : m_partitions) part.m_totals = m_totals;
  }

  // One sweep: P rounds of all partitions in parallel (lda_gibbs_rounds.hpp; one round with one
  // partition), or of this process's in a distributed chain. Returns false when stopped (the
  // counts are consistent either way). logPrior[0] receives log P(Z) when asked (the other P - 1
  // entries stay 0).
  bool sweep(const std::stop_token& stop, bool wantLogPrior, std::vector<double>& logPrior) {
    logPrior.assign(m_partitions.size(), 0.0);
    m_assignmentsStored = false;
    if (m_ring.active()) {
      if (!m_ring.sweep(m_partitions, m_totals, m_affinity, m_groupWords, m_wordStart, m_words)) return false;
    } else if (!sweepInRounds(m_partitions, m_totals, stop, m_affinity)) {
      return false;
    }
    if (wantLogPrior) {
      storeAssignments();
      if (m_ring.active()) {
        synchronize(false);  // what asks for the prior asks for the log joint, which reads the table
        logPrior[0] = gatheredLogPrior(m_ring.group(), m_state);
      } else {
        logPrior[0] = m_state.logPriorOfAssignments();
      }
    }
    return true;
  }

  // Writes the tokens' topics into the state's assignments (document order) when `assignments`,
  // and in a distributed chain makes the whole table current on every process, and then every
  // token's topic on process 0 (collective: every process calls it at the same point of the chain).
  void synchronize(bool assignments) {
    if (m_ring.active()) m_ring.makeTableCurrent(m_groupWords, m_wordStart, m_words);
    if (!assignments) return;
    storeAssignments();
    if (m_ring.active()) m_ring.gatherAssignmentsOnProcessZero(m_state);
  }

  // The histograms of n_dk for the re-estimation of alpha, from the state's assignments made
  // current; distributed, each process's for its own documents, summed over the processes.
  DocumentTopicHistograms documentTopicHistograms() const {
    storeAssignments();
    return m_ring.active() ? gatheredHistograms(m_ring.group(), m_state) : m_state.documentTopicHistograms();
  }

  double communicatedBytesPerSweep() const { return m_ring.communicatedBytesPerSweep(); }
  std::int64_t synchronizationBytes() const { return m_ring.synchronizationBytes(); }

  // The topic of the j-th token of the kernel's order (Partition::orderOf).
  std::int32_t topicAt(std::size_t j) const { return m_z[j - m_tokenBase]; }

  // The global count n_wk of every nonzero (topic, count) of word w.
  template <typename F>
  void forEachTopicOfWord(std::size_t w, F&& f) const {
    forEachPackedCount(m_words.data() + m_wordStart[w], static_cast<std::size_t>(m_wordStart[w + 1] - m_wordStart[w]),
                       m_mask, m_bits, f);
  }
  const std::vector<std::int64_t>& topicTotals() const noexcept { return m_totals; }

  std::size_t memoryBytes() const {
    std::size_t bytes = m_words.size() * sizeof(Packed) + m_wordStart.size() * sizeof(std::int64_t) +
                        m_documents.size() * sizeof(Packed) + m_documentStart.size() * sizeof(std::int64_t) +
                        m_tokenDocument.size() * sizeof(std::uint32_t) + m_z.size() * sizeof(std::int32_t);
    for (const auto& part : m_partitions) bytes += part.m_tokenStart.size() * sizeof(std::int64_t);
    return bytes;
  }

 private:
  // A partition's tokens by word (a stable counting sort, so each word's are in document order),
  // in the place of the kernel's token order that its documents' tokens hold in the corpus.
  void orderTokens(Partition& part) {
    const auto& corpus = m_state.corpus();
    const auto range = m_state.partitions()[part.m_index];
    const auto V = static_cast<std::size_t>(m_state.vocabularySize());
    const auto first = static_cast<std::size_t>(corpus.offsets[range.begin]);
    const auto last = static_cast<std::size_t>(corpus.offsets[range.end]);
    auto& start = part.m_tokenStart;
    start.assign(V + 1, 0);
    for (std::size_t i = first; i < last; ++i) ++start[static_cast<std::size_t>(corpus.tokens[i]) + 1];
    start[0] = static_cast<std::int64_t>(first);
    for (std::size_t w = 0; w < V; ++w) start[w + 1] += start[w];
    const auto z = m_state.assignments();
    forEachTokenInOrder(part, [&](std::size_t d, std::size_t i, std::size_t j) {
      m_tokenDocument[j - m_tokenBase] = static_cast<std::uint32_t>(d);
      m_z[j - m_tokenBase] = z[i];
    });
    part.m_tokenEnd = last;
  }

  // f(document, corpus position, place in the kernel's order) for each of the partition's tokens,
  // in corpus order.
  template <typename F>
  void forEachTokenInOrder(const Partition& part, F&& f) const {
    const auto& corpus = m_state.corpus();
    const auto range = m_state.partitions()[part.m_index];
    std::vector<std::int64_t> next(part.m_tokenStart.begin(), part.m_tokenStart.end() - 1);
    for (std::size_t d = range.begin; d < range.end; ++d)
      for (auto i = static_cast<std::size_t>(corpus.offsets[d]); i < static_cast<std::size_t>(corpus.offsets[d + 1]);
           ++i)
        f(d, i, static_cast<std::size_t>(next[static_cast<std::size_t>(corpus.tokens[i])]++));
  }

  // The tokens' topics into the state's assignments, in the corpus's order, unless they are there
  // already (an evaluation sweep that re-estimates alpha, the end of a fit and the kernel's end).
  void storeAssignments() const {
    if (m_assignmentsStored) return;
    const auto z = m_state.assignments();
    tbb::parallel_for(tbb::blocked_range<std::size_t>(m_ring.first(), m_ring.last(), 1), [&](const auto& r) {
      for (std::size_t p = r.begin(); p != r.end(); ++p)
        forEachTokenInOrder(m_partitions[p],
                            [&](std::size_t, std::size_t i, std::size_t j) { z[i] = m_z[j - m_tokenBase]; });
    });
    m_assignmentsStored = true;
  }

  // The word and document counts and the totals from the assignments.
  void buildCounts() {
    const auto& corpus = m_state.corpus();
    const auto z = m_state.assignments();
    const auto V = static_cast<std::size_t>(m_state.vocabularySize());
    const auto K = static_cast<std::size_t>(m_K);
    SparseCounts counts(K);
    // Each list packed in descending order.
    const auto keep = [&](Packed* out, Packed* end) {
      std::sort(out, packCounts(counts, out, end, m_bits), std::greater<Packed>());
      counts.clear();
    };
    // Word lists from this process's documents' tokens, summed over the processes below, each of
    // the places its word's tokens in the whole corpus may fill.
    const auto [firstDocument, endDocument] = m_ring.documents(m_state);
    std::vector<std::int64_t> start;
    std::vector<std::int32_t> topicsByWord;
    m_state.topicsByWord({firstDocument, endDocument}, start, topicsByWord);
    const auto& frequency = m_state.wordFrequencies();
    m_wordStart.assign(V + 1, 0);
    for (std::size_t w = 0; w < V; ++w) m_wordStart[w + 1] = m_wordStart[w] + std::min<std::int64_t>(frequency[w], m_K);
    m_words.assign(static_cast<std::size_t>(m_wordStart[V]), Packed{0});
    for (std::size_t w = 0; w < V; ++w) {
      for (auto j = start[w]; j < start[w + 1]; ++j)
        counts.add(static_cast<std::size_t>(topicsByWord[static_cast<std::size_t>(j)]), 1);
      keep(m_words.data() + m_wordStart[w], m_words.data() + m_wordStart[w + 1]);
    }
    // Only this process's documents have lists (places): the others' are sampled elsewhere.
    const std::size_t D = corpus.documentCount();
    m_documentStart.assign(D + 1, 0);
    for (std::size_t d = 0; d < D; ++d)
      m_documentStart[d + 1] =
          m_documentStart[d] + (d < firstDocument || d >= endDocument
                                    ? 0
                                    : std::min<std::int64_t>(corpus.offsets[d + 1] - corpus.offsets[d], m_K));
    m_documents.assign(static_cast<std::size_t>(m_documentStart[D]), Packed{0});
    for (std::size_t d = firstDocument; d < endDocument; ++d) {
      for (auto i = static_cast<std::size_t>(corpus.offsets[d]); i < static_cast<std::size_t>(corpus.offsets[d + 1]);
           ++i)
        counts.add(static_cast<std::size_t>(z[i]), 1);
      keep(m_documents.data() + m_documentStart[d], m_documents.data() + m_documentStart[d + 1]);
    }
    for (auto i = static_cast<std::size_t>(corpus.offsets[firstDocument]);
         i < static_cast<std::size_t>(corpus.offsets[endDocument]); ++i)
      ++m_totals[static_cast<std::size_t>(z[i])];
    if (m_ring.active()) m_ring.sumCounts(m_wordStart, m_words, m_bits, m_totals);
  }

  LdaGibbsState& m_state;
  int m_K;
  int m_bits;
  Packed m_mask, m_one;
  std::vector<std::int64_t> m_wordStart;      // word w's counts: m_words[m_wordStart[w], m_wordStart[w + 1])
  std::vector<Packed> m_words;                // unsorted, nonzero first
  std::vector<std::int64_t> m_documentStart;  // document d's counts: m_documents[m_documentStart[d], ...)
  std::vector<Packed> m_documents;            // descending, nonzero first; this process's documents'
  // This process's tokens in the order its partitions sample them: partition p's where its
  // documents' tokens are in the corpus (less m_tokenBase, where the process's first partition's
  // are), by word (Partition::m_tokenStart), each word's in document order.
  std::vector<std::uint32_t> m_tokenDocument;
  std::vector<std::int32_t> m_z;  // the tokens' topics (storeAssignments())
  std::size_t m_tokenBase = 0;
  mutable bool m_assignmentsStored = true;               // the state's assignments say what m_z does
  std::vector<std::int64_t> m_totals;                    // n_k, global
  std::vector<std::vector<std::uint32_t>> m_groupWords;  // group g's words, ascending (one group of all with P = 1)
  std::vector<Partition> m_partitions;
  tbb::affinity_partitioner m_affinity;  // which thread swept which partition, replayed each sweep
  ProcessRing m_ring;                    // this process's partitions, and its place among the processes
};

}  // namespace latent::core::topic
