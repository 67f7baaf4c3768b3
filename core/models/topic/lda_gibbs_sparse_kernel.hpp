// SPDX-License-Identifier: GPL-3.0-or-later
// The SparseLDA sampler (Yao, Mimno & McCallum 2009, "Efficient methods for topic model inference
// on streaming document collections", §3.4): exact collapsed Gibbs draws from 000 eq. 27.37 at a
// cost that follows the nonzero counts of the token's word and document rather than K.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <vector>

#include "core/models/topic/lda_gibbs_distribution.hpp"
#include "core/models/topic/lda_gibbs_document_counts.hpp"
#include "core/models/topic/lda_gibbs_packed_lists.hpp"
#include "core/models/topic/lda_gibbs_process_ring.hpp"
#include "core/models/topic/lda_gibbs_rounds.hpp"
#include "core/models/topic/lda_gibbs_state.hpp"
#include "core/util/sparse_counts.hpp"

namespace latent::core::topic {

// The conditional of token i (word w, document d) with its own count removed,
//   p(k) ~ (alpha_k + n_dk)(beta + n_wk) / (V beta + n_k)          (000 eq. 27.37; 001 eq. 4)
// is split into three buckets (Yao et al. 2009, eq. 4):
//   s = sum_k alpha_k beta / (V beta + n_k)                       smoothing only: kept up to date incrementally
//   r = sum_{k: n_dk > 0} n_dk beta / (V beta + n_k)             document: a sum over the document's topics
//   q = sum_{k: n_wk > 0} (alpha_k + n_dk) n_wk / (V beta + n_k)  word: a sum over the word's topics,
// with the coefficient (alpha_k + n_dk)/(V beta + n_k) cached per topic. A uniform draw on
// [0, s + r + q) picks the bucket and then the topic within it, so the draw is exact; q holds
// most of the mass once topics are sparse, and its walk is short because each word's counts are
// kept sorted, largest first.
//
// Each word's counts n_wk are one contiguous array of packed (count << topicBits | topic)
// entries, descending, nonzero first; its capacity min(K, frequency of w) can never overflow.
// Packed = uint32_t when every count fits beside the topic bits (a word's, and a document's, which
// several partitions keep packed the same way: lda_gibbs_document_counts.hpp), else uint64_t.
//
// With one partition the sampler runs through the documents in order: the exact sequential
// sampler. With P partitions (of documents) the words are split too, into P groups
// (balancedWordGroups: every partition's share of every group about the same work), and a sweep
// has P rounds: in round r, partition p samples the tokens of its
// documents whose word is in group (p + r) mod P, document by document (a Gibbs sweep may visit
// the tokens in any order). No two partitions touch one word's counts, or one document's, in the
// same round, so all of them sample from the one table of word-topic counts and every n_wk and
// n_dk they read is current; only the totals n_k of the other partitions' moves are up to one
// round old (each partition keeps a copy, merged after each round). This is the block schedule
// of Yan, Xu & Qi 2009 ("Parallel inference for LDA on GPUs", §4). It replaced AD-LDA (Newman
// et al. 2009: each partition sampled against its own copy of every word's counts, merged after
// the sweep), whose copies were a sweep old: its chains kept more nonzero word-topic counts, so
// each token's word bucket was longer and a sweep cost more instructions than the sequential
// chain's, where this schedule costs about as many (tests/benchmarks/README.md, "Why a
// 2-partition sweep cost more than a sequential one").
//
// Across processes (GibbsDistribution: latent-cli fit --distributed) the schedule is the same.
// Process q of Q holds partitions [q P/Q, (q + 1) P/Q) and every process holds the whole table,
// but only the word groups its own partitions sample next are current there. After each round
// a process sends the group its first partition just sampled to process q - 1 (whose last
// partition samples it next) and receives from process q + 1 the group its own last partition
// samples next: one group moves around the ring per round, a shift of the table per sweep. The
// totals' changes of the round are summed over the processes. Every partition thus samples from
// the very counts it would in one process with P partitions, from the same random stream, so the
// chain is the one-process chain with --partitions P, bit for bit. Whatever needs the whole
// table (evaluation, hyperparameters, snapshots, results) asks for synchronize() first: every
// process's current groups to all. Only process 0's results need every assignment
// (synchronize(true)); the table a kernel starts from, the log prior and alpha's histograms are
// summed from each process's documents, which are all a process other than 0 holds.
template <typename Packed>
class SparseGibbsKernel {
 public:
  static constexpr std::size_t kPrefetchDistance = 2;  // tokens ahead whose word counts are fetched

  static bool fits(int topics, std::int64_t maxCount) { return packedCountsFit<Packed>(topics, maxCount); }

  // Aligned to a cache line: a partition writes its own members (masses, totals' caches) for
  // every token, and its neighbour in m_partitions must not share that line.
  class alignas(kCacheLine) Partition {
   public:
    Partition(SparseGibbsKernel& kernel, std::size_t index)
        : m_kernel(kernel),
          m_state(kernel.m_state),
          m_index(index),
          m_totals(kernel.m_totals),
          m_invDenominator(static_cast<std::size_t>(kernel.m_K)),
          m_coefficient(static_cast<std::size_t>(kernel.m_K)),
          m_alphaBeta(static_cast<std::size_t>(kernel.m_K)),
          m_wordScore(static_cast<std::size_t>(kernel.m_K)),
          m_doc(static_cast<std::size_t>(kernel.m_K)) {}

    // Caches that depend on the hyperparameters and the topic totals.
    void beginSweep() {
      m_lists = m_kernel.m_global.data();
      m_rng = &m_state.rng(m_index);
      m_alpha = m_state.alpha().data();
      m_beta = m_state.beta();
      m_betaV = m_beta * m_state.vocabularySize();
      for (int k = 0; k < m_kernel.m_K; ++k) {
        const auto kk = static_cast<std::size_t>(k);
        m_invDenominator[kk] = 1.0 / (m_betaV + static_cast<double>(m_totals[kk]));
        m_coefficient[kk] = m_alpha[kk] * m_invDenominator[kk];
        m_alphaBeta[kk] = m_alpha[kk] * m_beta;
      }
      recomputeSmoothingMass();
    }

    void beginDocument(std::size_t d) {
      const auto& offsets = m_state.corpus().offsets;
      m_document = d;
      m_docBegin = static_cast<std::size_t>(offsets[d]);
      m_docEnd = static_cast<std::size_t>(offsets[d + 1]);
      if (m_kept.empty()) {
        const auto z = m_state.assignments();
        for (std::size_t i = m_docBegin; i < m_docEnd; ++i) m_doc.add(static_cast<std::size_t>(z[i]), 1);
      } else {
        m_kept.load(d, m_doc);
      }
      m_docMass = 0.0;
      for (const auto topic : m_doc.nonzero()) {
        const auto k = static_cast<std::size_t>(topic);
        m_docMass += m_doc[k] * m_beta * m_invDenominator[k];
        m_coefficient[k] = (m_alpha[k] + m_doc[k]) * m_invDenominator[k];
      }
      // s is updated incrementally; recomputing it every K tokens keeps rounding from piling up
      // at O(1) cost per token.
      m_sinceSmoothingRecompute += m_docEnd - m_docBegin;
      if (m_sinceSmoothingRecompute >= static_cast<std::size_t>(m_kernel.m_K)) recomputeSmoothingMass();
    }

    // Resamples token i (of the current document) from its full conditional.
    void sampleToken(std::size_t i) {
      sampleToken(i, i + kPrefetchDistance < m_docEnd ? i + kPrefetchDistance : kNone,
                  i + 2 * kPrefetchDistance < m_docEnd ? i + 2 * kPrefetchDistance : kNone);
    }

    // The same, fetching ahead the counts of token `next` (and where those of `nextButOne` are):
    // the tokens sampled after this one, or kNone.
    void sampleToken(std::size_t i, std::size_t next, std::size_t nextButOne) {
      const auto& kernel = m_kernel;
      const Packed mask = kernel.m_mask;
      const int bits = kernel.m_bits;
      const auto z = m_state.assignments();
      const std::int32_t* tokens = m_state.corpus().tokens.data();
      const auto w = static_cast<std::size_t>(tokens[i]);
      Packed* const list = m_lists + kernel.m_offsets[w];
      // The words of the next tokens are known: start fetching their counts now. Reading a word's
      // list was the one cache miss of most tokens (tests/benchmarks/README.md, "the sparse
      // sampler fetches ahead"). The offset is needed to find the list, so it is fetched further
      // ahead.
      if (nextButOne != kNone) __builtin_prefetch(kernel.m_offsets.data() + tokens[nextButOne]);
      if (next != kNone) __builtin_prefetch(m_lists + kernel.m_offsets[static_cast<std::size_t>(tokens[next])]);
      const auto capacity = static_cast<std::size_t>(kernel.m_offsets[w + 1] - kernel.m_offsets[w]);

      const auto s = static_cast<std::size_t>(z[i]);
      changeTopicCount(s, -1);

      // One pass computes the word bucket with the token's own count taken out of its entry (the
      // entry itself is changed only once the new topic is known: usually it is the old one).
      // The arrays are read through locals: through the members, the compiler reloaded both data
      // pointers on every entry, since the stores to the scores might have changed them.
      const double* const coefficient = m_coefficient.data();
      double* const wordScore = m_wordScore.data();
      std::size_t n = 0, own = 0;
      const auto score = [&](Packed e, std::size_t j) {
        const auto k = static_cast<std::size_t>(e & mask);
        const bool isOwn = k == s;
        own = isOwn ? j : own;
        const double value = coefficient[k] * static_cast<double>((e >> bits) - static_cast<Packed>(isOwn));
        wordScore[j] = value;
        return value;
      };
      // Two running sums, even and odd entries: one sum would make every entry wait for the
      // previous addition (same README section). The list is descending, so a nonzero entry n + 1
      // means entry n is nonzero too.
      double evenMass = 0.0, oddMass = 0.0;
      for (; n + 1 < capacity && list[n + 1] != 0; n += 2) {
        evenMass += score(list[n], n);
        oddMass += score(list[n + 1], n + 1);
      }
      if (n < capacity && list[n] != 0) {
        evenMass += score(list[n], n);
        ++n;
      }
      const double wordMass = evenMass + oddMass;

      double u = m_rng->uniform() * (m_smoothingMass + m_docMass + wordMass);
      std::size_t t;
      std::size_t at = capacity;  // the entry of t in the word's list, when the draw came from it
      if (u < wordMass) {
        std::size_t j = 0;
        while (j + 1 < n && (u -= wordScore[j]) >= 0.0) ++j;
        t = static_cast<std::size_t>(list[j] & mask);
        at = j;
      } else {
        u -= wordMass;
        const auto docTopics = m_doc.nonzero();
        if (u < m_docMass && !docTopics.empty()) {
          std::size_t j = 0;
          for (; j + 1 < docTopics.size(); ++j) {
            const auto k = static_cast<std::size_t>(docTopics[j]);
            u -= m_doc[k] * m_beta * m_invDenominator[k];
            if (u < 0.0) break;
          }
          t = static_cast<std::size_t>(docTopics[j]);
        } else {
          u -= m_docMass;
          t = 0;
          for (const auto K = static_cast<std::size_t>(kernel.m_K); t + 1 < K; ++t) {
            u -= m_alphaBeta[t] * m_invDenominator[t];
            if (u < 0.0) break;
          }
        }
      }
      if (t != s) {
        // Move the token in the word's list: out of s (its entry sinks), into t.
        const std::size_t sunk = removeAt(list, capacity, own, kernel.m_one);
        if (at != capacity) {
          if (at > own && at <= sunk) --at;  // the entries between moved up by one
          incrementAt(list, at, kernel.m_one);
        } else {
          addToList(list, capacity, static_cast<Packed>(t), mask, kernel.m_one);
        }
      }
      changeTopicCount(t, +1);
      z[i] = static_cast<std::int32_t>(t);
    }

    // Leaves the per-document caches clean; returns the document's term of log P(Z) when asked.
    double endDocument(bool wantLogPrior) {
      double logPrior = 0.0;
      if (wantLogPrior && m_docEnd > m_docBegin)
        logPrior = std::lgamma(m_state.alphaSum()) -
                   std::lgamma(static_cast<double>(m_docEnd - m_docBegin) + m_state.alphaSum());
      for (const auto topic : m_doc.nonzero()) {
        const auto k = static_cast<std::size_t>(topic);
        if (wantLogPrior) logPrior += logGammaRatio(m_doc[k], m_alpha[k]);
        m_coefficient[k] = m_alpha[k] * m_invDenominator[k];
      }
      if (!m_kept.empty()) m_kept.keep(m_document, m_doc);
      m_doc.clear();
      return logPrior;
    }

    // One sweep over the partition's documents; false when stopped (the state stays consistent).
    bool run(const std::stop_token& stop, bool wantLogPrior, double& logPrior) {
      beginSweep();
      const auto range = m_state.partitions()[m_index];
      for (std::size_t d = range.begin; d < range.end; ++d) {
        if (stop.stop_requested()) return false;
        beginDocument(d);
        for (std::size_t i = m_docBegin; i < m_docEnd; ++i) {
          if (((i - m_docBegin) & 4095) == 4095 && stop.stop_requested()) {
            endDocument(false);
            return false;
          }
          sampleToken(i);
        }
        logPrior += endDocument(wantLogPrior);
      }
      return true;
    }

    // One round of a sweep with several partitions: the tokens of word group `group` in the
    // partition's documents. False when stopped (the state stays consistent).
    bool runRound(const std::stop_token& stop, std::size_t group) {
      beginSweep();
      const auto& offsets = m_state.corpus().offsets;
      const std::uint32_t* order = m_grouped.order.data();
      std::size_t begin = m_grouped.groupStart[group];
      for (const auto& visit : m_grouped.visits[group]) {
        if (stop.stop_requested()) return false;
        beginDocument(visit.document);
        const auto base = static_cast<std::size_t>(offsets[visit.document]);
        for (std::size_t j = begin; j < visit.end; ++j) {
          if (((j - begin) & 4095) == 4095 && stop.stop_requested()) {
            endDocument(false);
            return false;
          }
          sampleToken(base + order[j], j + kPrefetchDistance < visit.end ? base + order[j + kPrefetchDistance] : kNone,
                      j + 2 * kPrefetchDistance < visit.end ? base + order[j + 2 * kPrefetchDistance] : kNone);
        }
        endDocument(false);
        begin = visit.end;
      }
      return true;
    }

    std::vector<std::int64_t>& totals() noexcept { return m_totals; }
    const std::vector<std::int64_t>& totals() const noexcept { return m_totals; }

   private:
    friend class SparseGibbsKernel;

    static constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();

    void recomputeSmoothingMass() {
      m_smoothingMass = 0.0;
      for (std::size_t k = 0; k < m_alphaBeta.size(); ++k) m_smoothingMass += m_alphaBeta[k] * m_invDenominator[k];
      m_sinceSmoothingRecompute = 0;
    }

    // n_k and n_dk of topic k change by delta; s, r and the coefficient follow.
    void changeTopicCount(std::size_t k, int delta) {
      const double oldInverse = m_invDenominator[k];
      m_smoothingMass -= m_alphaBeta[k] * oldInverse;
      m_docMass -= m_doc[k] * m_beta * oldInverse;
      m_totals[k] += delta;
      m_doc.add(k, delta);
      const double inverse = 1.0 / (m_betaV + static_cast<double>(m_totals[k]));
      m_invDenominator[k] = inverse;
      m_smoothingMass += m_alphaBeta[k] * inverse;
      m_docMass += m_doc[k] * m_beta * inverse;
      m_coefficient[k] = (m_alpha[k] + m_doc[k]) * inverse;
    }

    SparseGibbsKernel& m_kernel;
    LdaGibbsState& m_state;
    std::size_t m_index;
    Packed* m_lists = nullptr;
    Rng* m_rng = nullptr;
    const double* m_alpha = nullptr;
    double m_beta = 0.0, m_betaV = 0.0;
    std::vector<std::int64_t> m_totals;
    std::vector<double> m_invDenominator, m_coefficient, m_alphaBeta, m_wordScore;
    SparseCounts m_doc;                   // n_dk of the current document, with its list of topics
    TokensByWordGroup m_grouped;          // with several partitions: the order of the rounds
    PackedDocumentCounts<Packed> m_kept;  // with several partitions: its documents' n_dk between rounds
    std::size_t m_document = 0;           // the current document
    std::size_t m_docBegin = 0, m_docEnd = 0, m_sinceSmoothingRecompute = 0;
    double m_smoothingMass = 0.0, m_docMass = 0.0;
  };

  // `distribution` (null: this process alone) must outlive the kernel.
  explicit SparseGibbsKernel(LdaGibbsState& state, GibbsDistribution* distribution = nullptr)
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
    const auto V = static_cast<std::size_t>(state.vocabularySize());
    const auto& frequency = state.wordFrequencies();
    const std::size_t P = state.partitions().size();
    m_offsets.assign(V + 1, 0);
    for (std::size_t w = 0; w < V; ++w) m_offsets[w + 1] = m_offsets[w] + std::min<std::int64_t>(frequency[w], m_K);
    m_global.assign(static_cast<std::size_t>(m_offsets[V]), 0);
    buildGlobalCounts();
    for (std::size_t p = 0; p < P; ++p) m_partitions.emplace_back(*this, p);
    if (P > 1) {
      const auto groupOf = state.wordGroups();
      m_groupWords.assign(P, {});
      for (std::size_t w = 0; w < V; ++w) m_groupWords[groupOf[w]].push_back(static_cast<std::uint32_t>(w));
      tbb::parallel_for(tbb::blocked_range<std::size_t>(m_ring.first(), m_ring.last(), 1), [&](const auto& r) {
        for (std::size_t p = r.begin(); p != r.end(); ++p) {
          m_partitions[p].m_grouped = groupTokensByWordGroup(state.corpus(), state.partitions()[p], groupOf, P);
          auto& part = m_partitions[p];
          part.m_kept = PackedDocumentCounts<Packed>(state.corpus(), state.partitions()[p], state.assignments(), m_K,
                                                     m_bits, part.m_doc);
        }
      });
    }
  }
  SparseGibbsKernel(const SparseGibbsKernel&) = delete;
  SparseGibbsKernel& operator=(const SparseGibbsKernel&) = delete;

  Partition& partition(std::size_t p) { return m_partitions[p]; }

  // The partitions share only the word-topic counts, each round on words no other partition
  // touches; what a partition sampled alone (the per-partition steps, outside sweep()) needs is
  // the totals, which a sweep of several partitions leaves one round old in each partition.
  void prepareSweep() {
    for (auto& part : m_partitions) part.m_totals = m_totals;
  }

  // One sweep: with one partition, through its documents; with several, P rounds of all of
  // them in parallel, each followed by the merge of the totals. Returns false when stopped (the
  // counts are consistent either way). logPrior[p] receives partition p's part of log P(Z) when
  // asked (with several partitions, all of it goes to logPrior[0]).
  bool sweep(const std::stop_token& stop, bool wantLogPrior, std::vector<double>& logPrior) {
    const std::size_t P = m_partitions.size();
    if (m_ring.active()) return distributedSweep(wantLogPrior, logPrior);
    logPrior.assign(P, 0.0);
    if (P == 1) {
      const bool finished = m_partitions[0].run(stop, wantLogPrior, logPrior[0]);
      m_totals = m_partitions[0].m_totals;
      return finished;
    }
    if (!sweepInRounds(m_partitions, m_totals, stop, m_affinity)) return false;
    if (wantLogPrior) logPrior[0] = m_state.logPriorOfAssignments();
    return true;
  }

  // Makes the whole table current on every process of a distributed chain, and with
  // `assignments` every token's topic on process 0; nothing to do in one process. Collective: every process calls it at
  // the same point of the chain.
  void synchronize(bool assignments) {
    if (!m_ring.active()) return;
    m_ring.makeTableCurrent(m_groupWords, m_offsets, m_global);
    if (assignments) m_ring.gatherAssignmentsOnProcessZero(m_state);
  }

  // The histograms of n_dk and of document lengths over every document of the chain (for alpha's
  // re-estimation). Distributed: each process's, for its own documents, summed over the processes,
  // so that no process needs the others' assignments for it.
  DocumentTopicHistograms documentTopicHistograms() const {
    if (!m_ring.active()) return m_state.documentTopicHistograms();
    return gatheredHistograms(m_ring.group(), m_state);
  }

  // Bytes this process sent around the ring and in the totals' sums per sweep, on average.
  double communicatedBytesPerSweep() const { return m_ring.communicatedBytesPerSweep(); }
  // Bytes this process sent outside the sweeps' rounds so far: the synchronisations, from the
  // counts summed when the kernel was built to the results' topics (docs/DISTRIBUTED.md).
  std::int64_t synchronizationBytes() const { return m_ring.synchronizationBytes(); }

  // The global count n_wk of every nonzero (topic, count) of word w.
  template <typename F>
  void forEachTopicOfWord(std::size_t w, F&& f) const {
    forEachPackedCount(m_global.data() + m_offsets[w], static_cast<std::size_t>(m_offsets[w + 1] - m_offsets[w]),
                       m_mask, m_bits, f);
  }
  const std::vector<std::int64_t>& topicTotals() const noexcept { return m_totals; }

  std::size_t memoryBytes() const {
    std::size_t bytes = m_global.size() * sizeof(Packed) + m_offsets.size() * sizeof(std::int64_t);
    for (const auto& part : m_partitions) {
      bytes += part.m_grouped.memoryBytes() + part.m_kept.memoryBytes();
    }
    return bytes;
  }

 private:
  // One sweep of a distributed chain (lda_gibbs_process_ring.hpp).
  bool distributedSweep(bool wantLogPrior, std::vector<double>& logPrior) {
    logPrior.assign(m_partitions.size(), 0.0);
    if (!m_ring.sweep(m_partitions, m_totals, m_affinity, m_groupWords, m_offsets, m_global)) return false;
    if (wantLogPrior) {
      synchronize(false);  // what asks for the prior asks for the log joint, which reads the table
      logPrior[0] = gatheredLogPrior(m_ring.group(), m_state);
    }
    return true;
  }

  // Counts from the assignments, word by word: of this process's documents, then (distributed)
  // summed over the processes.
  void buildGlobalCounts() {
    const auto documents = m_ring.documents(m_state);
    const auto& offsets = m_state.corpus().offsets;
    const auto z =
        m_state.assignments().subspan(static_cast<std::size_t>(offsets[documents.begin]),
                                      static_cast<std::size_t>(offsets[documents.end] - offsets[documents.begin]));
    const auto V = m_offsets.size() - 1;
    std::vector<std::int64_t> start;
    std::vector<std::int32_t> topicsByWord;
    m_state.topicsByWord(documents, start, topicsByWord);
    const auto K = static_cast<std::size_t>(m_K);
    tbb::enumerable_thread_specific<std::vector<std::int64_t>> scratch([&] { return std::vector<std::int64_t>(K, 0); });
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, V, 512), [&](const auto& r) {
      auto& counts = scratch.local();
      std::vector<Packed> merged;
      for (std::size_t w = r.begin(); w != r.end(); ++w) {
        merged.clear();
        for (auto j = start[w]; j < start[w + 1]; ++j)
          ++counts[static_cast<std::size_t>(topicsByWord[static_cast<std::size_t>(j)])];
        for (auto j = start[w]; j < start[w + 1]; ++j) {
          const auto k = static_cast<std::size_t>(topicsByWord[static_cast<std::size_t>(j)]);
          if (counts[k] != 0) merged.push_back((static_cast<Packed>(counts[k]) << m_bits) | static_cast<Packed>(k));
          counts[k] = 0;
        }
        std::sort(merged.begin(), merged.end(), std::greater<Packed>());
        std::copy(merged.begin(), merged.end(), m_global.begin() + m_offsets[w]);
      }
    });
    for (std::size_t i = 0; i < z.size(); ++i) ++m_totals[static_cast<std::size_t>(z[i])];
    if (m_ring.active()) m_ring.sumCounts(m_offsets, m_global, m_bits, m_totals);
  }

  LdaGibbsState& m_state;
  int m_K;
  int m_bits;
  Packed m_mask, m_one;
  std::vector<std::int64_t> m_offsets;  // word w's entries: [m_offsets[w], m_offsets[w + 1])
  std::vector<Packed> m_global;         // every partition samples from these counts
  std::vector<std::int64_t> m_totals;   // n_k, global
  std::vector<Partition> m_partitions;
  tbb::affinity_partitioner m_affinity;                  // which thread swept which partition, replayed each sweep
  std::vector<std::vector<std::uint32_t>> m_groupWords;  // with several partitions: group g's words, ascending
  ProcessRing m_ring;                                    // this process's partitions, and its place among the processes
};

}  // namespace latent::core::topic
