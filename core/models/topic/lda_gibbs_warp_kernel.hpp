// SPDX-License-Identifier: GPL-3.0-or-later
// The "warp" sampler: WarpLDA's cache-friendly Metropolis-Hastings (Chen, Li, Zhu & Chen 2016,
// "WarpLDA: a cache efficient O(1) algorithm for Latent Dirichlet Allocation"). APPROXIMATE: its
// proposals are drawn from counts one phase old and it does not correct for that, so unlike the
// sparse and alias samplers it does not sample the collapsed posterior exactly. It is offered,
// labelled so, for thousands of topics, where it reaches a given held-out perplexity sooner than
// either exact sampler (tests/benchmarks/README.md, "the warp sampler, and `--warp_start`").
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <stop_token>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/models/topic/alias_table.hpp"
#include "core/models/topic/lda_gibbs_state.hpp"
#include "core/models/topic/word_major_order.hpp"
#include "core/util/sparse_counts.hpp"

namespace latent::core::topic {

// Why it is fast. Each token keeps its topic and M = mh_steps proposals. A sweep has two phases:
// * word phase, word by word: the word's counts n_wk are built from its tokens' topics and stay
//   in cache while each token accepts or rejects the M document proposals drawn for it in the
//   last document phase (q ~ n_dk + alpha_k), by
//     a = min(1, (n_wt + beta)(n_s + V beta) / [(n_ws + beta)(n_t + V beta)]);
//   then each token draws M word proposals, q ~ n_wk + beta (the topic of a random token of the
//   word, or a uniform topic);
// * document phase, document by document: n_dk is built likewise, and each token accepts or
//   rejects its word proposals by
//     a = min(1, (n_dt + alpha_t)(n_s + V beta) / [(n_ds + alpha_s)(n_t + V beta)]),
//   then draws M document proposals (a random token's topic, or a draw from alpha).
// Every count a phase reads is of the word or document in hand, or the K totals: no random reads
// of a V x K table, which is what bounds the exact samplers at large K. Each token's topic and
// proposals are kept twice, in word-major and in document-major order, and a phase writes what the
// other will read to the other order (one scattered write of a few bytes per token).
//
// What makes it approximate (and what WarpLDA's paper calls Monte Carlo EM): a proposal drawn in
// one phase is judged in the next as if it came from the counts as they are then, but the tokens
// of its word or document have moved in between; and the totals n_k stay as they were at the start
// of each phase. The counts of the word (word phase) or document (document phase) in hand are
// exact and exclude the token itself, as is n_k at the phase's start. The tests check it against
// the truth (tests/evidence/tst_lda_gibbs_evidence) and the benchmarks README says how far its
// held-out perplexity is from the exact samplers'.
//
// Parallel over words in the word phase and over documents in the document phase, each partition
// with its own random stream (partition p draws from LdaGibbsState::rng(p) in both phases), so the
// chain depends only on the seed and the number of partitions. Nothing is merged between phases
// but the K totals.
class WarpGibbsKernel {
 public:
  static constexpr std::size_t kPrefetchDistance = 8;  // tokens ahead whose scattered record is fetched

  WarpGibbsKernel(LdaGibbsState& state, int mhSteps)
      : m_state(state),
        m_K(state.topics()),
        m_steps(mhSteps),
        m_stride(static_cast<std::size_t>(mhSteps) + 1),
        m_totals(static_cast<std::size_t>(state.topics()), 0),
        m_scratch([K = static_cast<std::size_t>(state.topics())] { return SparseCounts(K); }) {
    const auto& tokens = state.corpus().tokens;
    const auto V = static_cast<std::size_t>(state.vocabularySize());
    // Both position maps have kPrefetchDistance entries past the end (pointing at token 0), so
    // that the phases prefetch ahead without a bounds check.
    auto order = WordMajorOrder::build(state.corpus(), state.wordFrequencies(), "warp", kPrefetchDistance);
    m_wordStart = std::move(order.start);
    m_wordPosition = std::move(order.position);
    m_documentPosition.assign(tokens.size() + kPrefetchDistance, 0);
    for (std::size_t i = 0; i < tokens.size(); ++i)
      m_documentPosition[m_wordPosition[i]] = static_cast<std::uint32_t>(i);
    const auto z = state.assignments();
    m_byDocument.assign(tokens.size() * m_stride, 0);
    m_byWord.assign(tokens.size() * m_stride, 0);
    for (std::size_t i = 0; i < tokens.size(); ++i) {
      m_byDocument[i * m_stride] = z[i];
      m_byWord[m_wordPosition[i] * m_stride] = z[i];
      ++m_totals[static_cast<std::size_t>(z[i])];
    }
    // Word ranges of about equal token counts, one per partition (empty ones when there are more
    // partitions than words).
    const std::size_t P = state.partitions().size();
    m_wordRanges = balancedRanges(m_wordStart, std::max<std::size_t>(1, std::min(P, V)));
    m_wordRanges.resize(P, DocumentRange{V, V});
    m_workers.resize(P);
    for (auto& worker : m_workers) {
      worker.counts.assign(static_cast<std::size_t>(m_K), 0);
      worker.delta.assign(static_cast<std::size_t>(m_K), 0);
    }
    // The first word phase judges document proposals: draw them from the start's counts.
    prepareSweep();
    std::vector<double> unused(P, 0.0);
    withSteps([&](auto steps) {
      return runPhase(
          [&](std::size_t p, const std::stop_token& stop) {
            return documentPhase<decltype(steps)::value>(p, stop, false, false, unused[p]);
          },
          {});
    });
  }
  WarpGibbsKernel(const WarpGibbsKernel&) = delete;
  WarpGibbsKernel& operator=(const WarpGibbsKernel&) = delete;

  // One sweep: the word phase, then the document phase (which leaves the document-major
  // assignments current and can sum log P(Z | alpha) as it goes).
  bool sweep(const std::stop_token& stop, bool wantLogPrior, std::vector<double>& logPrior) {
    prepareSweep();
    const std::size_t P = m_workers.size();
    logPrior.assign(P, 0.0);
    const bool complete = withSteps([&](auto steps) {
      return runPhase([&](std::size_t p, const std::stop_token& s) { return wordPhase<decltype(steps)::value>(p, s); },
                      stop) &&
             runPhase(
                 [&](std::size_t p, const std::stop_token& s) {
                   return documentPhase<decltype(steps)::value>(p, s, true, wantLogPrior, logPrior[p]);
                 },
                 stop);
    });
    if (!complete) synchroniseAfterStop();
    return complete;
  }

  // n_wk of word w from the word-major topics, for every k with n_wk > 0 (in no set order).
  template <typename F>
  void forEachTopicOfWord(std::size_t w, F&& f) const {
    SparseCounts& counts = m_scratch.local();
    for (auto j = m_wordStart[w]; j < m_wordStart[w + 1]; ++j)
      counts.add(static_cast<std::size_t>(m_byWord[static_cast<std::size_t>(j) * m_stride]), 1);
    for (const auto k : counts.nonzero()) f(k, static_cast<std::int64_t>(counts[static_cast<std::size_t>(k)]));
    counts.clear();
  }
  const std::vector<std::int64_t>& topicTotals() const noexcept { return m_totals; }

  std::size_t memoryBytes() const {
    return (m_byWord.size() + m_byDocument.size()) * sizeof(std::int32_t) +
           (m_wordPosition.size() + m_documentPosition.size()) * sizeof(std::uint32_t) +
           m_wordStart.size() * sizeof(std::int64_t);
  }

 private:
  // Calls f with the number of steps as a compile-time constant for the common 1, 2 and 4 (so that
  // the loops over a token's proposals unroll; 1 is WarpLDA's default), else with 0: read at run time.
  template <typename F>
  bool withSteps(F&& f) {
    switch (m_steps) {
      case 1:
        return f(std::integral_constant<int, 1>{});
      case 2:
        return f(std::integral_constant<int, 2>{});
      case 4:
        return f(std::integral_constant<int, 4>{});
      default:
        return f(std::integral_constant<int, 0>{});
    }
  }

  // A partition's scratch, on cache lines of its own.
  struct alignas(kCacheLine) Worker {
    std::vector<std::int32_t> counts;  // n_wk or n_dk of the word or document in hand; zero between
    std::vector<std::int64_t> delta;   // change of n_k during the phase
  };

  // The hyperparameters and the totals' reciprocals for the phase about to run.
  void prepareSweep() {
    m_alphaTable.build(m_state.alpha());
    m_beta = m_state.beta();
    m_betaV = m_beta * m_state.vocabularySize();
    refreshDenominators();
  }

  // 1 / (n_k + V beta), and the same with one token fewer (for a token that held k when the
  // phase began: its conditional excludes it).
  void refreshDenominators() {
    const auto K = static_cast<std::size_t>(m_K);
    m_inverse.resize(K);
    m_inverseWithout.resize(K);
    for (std::size_t k = 0; k < K; ++k) {
      const auto n = static_cast<double>(m_totals[k]);
      m_inverse[k] = 1.0 / (n + m_betaV);
      m_inverseWithout[k] = m_totals[k] > 0 ? 1.0 / (n - 1.0 + m_betaV) : m_inverse[k];
    }
  }

  // Runs phase(p, stop) for every partition in parallel; then n_k takes the partitions' changes.
  template <typename Phase>
  bool runPhase(const Phase& phase, const std::stop_token& stop) {
    const std::size_t P = m_workers.size();
    std::vector<char> finished(P, 0);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, P, 1), [&](const auto& r) {
      for (std::size_t p = r.begin(); p != r.end(); ++p) finished[p] = phase(p, stop);
    });
    for (auto& worker : m_workers)
      for (std::size_t k = 0; k < worker.delta.size(); ++k) {
        m_totals[k] += worker.delta[k];
        worker.delta[k] = 0;
      }
    refreshDenominators();
    return std::all_of(finished.begin(), finished.end(), [](char f) { return f != 0; });
  }

  // Accepts or rejects the proposals in record[1..M] of one token whose topic is record[0], given
  // `weight(k)`: the counts of the word or document in hand plus its prior, the token excluded.
  // Returns the new topic; `counts` is left including the token at it, and a move is recorded in
  // `delta` (the phase's change of n_k).
  template <typename Weight>
  std::int32_t judge(std::int32_t* record, int steps, std::int32_t* counts, std::int64_t* delta, Rng& rng,
                     const Weight& weight) const {
    const std::int32_t start = record[0];
    const double* inverse = m_inverse.data();
    const double* without = m_inverseWithout.data();
    const auto denominator = [&](std::int32_t k) { return k == start ? without[k] : inverse[k]; };
    std::int32_t s = start;
    --counts[s];
    double current = weight(s) * denominator(s);
    for (int m = 1; m <= steps; ++m) {
      const std::int32_t t = record[m];
      if (t == s) continue;
      const double proposed = weight(t) * denominator(t);
      if (rng.uniform() * current < proposed) {
        s = t;
        current = proposed;
      }
    }
    ++counts[s];
    record[0] = s;
    if (s != start) {
      --delta[start];
      ++delta[s];
    }
    return s;
  }

  // Both phases work on local copies of the random stream and of the sizes: stores through the
  // int32 and int64 count pointers could alias members, which the compiler would then reload for
  // every token (cachegrind: the stream's state was loaded and stored on every draw).
  template <int kSteps>
  bool wordPhase(std::size_t p, const std::stop_token& stop) {
    Worker& worker = m_workers[p];
    Rng rng = m_state.rng(p);
    std::int32_t* counts = worker.counts.data();
    std::int64_t* delta = worker.delta.data();
    const double beta = m_beta;
    const int steps = kSteps > 0 ? kSteps : m_steps, K = m_K;
    const auto S = static_cast<std::size_t>(steps) + 1;
    const auto range = m_wordRanges[p];
    bool stopped = false;
    for (std::size_t w = range.begin; w < range.end; ++w) {
      if (stop.stop_requested()) {
        stopped = true;
        break;
      }
      const auto a = static_cast<std::size_t>(m_wordStart[w]);
      const auto b = static_cast<std::size_t>(m_wordStart[w + 1]);
      if (a == b) continue;
      std::int32_t* records = m_byWord.data() + a * S;
      const std::size_t f = b - a;
      for (std::size_t j = 0; j < f; ++j) ++counts[records[j * S]];
      for (std::size_t j = 0; j < f; ++j)
        judge(records + j * S, steps, counts, delta, rng, [&](std::int32_t k) { return counts[k] + beta; });
      // Word proposals for the document phase, q(k) ~ n_wk + beta with the word's counts as they
      // are now, written with the topic to each token's document-major record; the counts are
      // cleared on the way.
      const auto frequency = static_cast<double>(f);
      const double mass = frequency + K * beta;
      for (std::size_t j = 0; j < f; ++j) {
        __builtin_prefetch(m_byDocument.data() + m_documentPosition[a + j + kPrefetchDistance] * S, 1);
        std::int32_t* target = m_byDocument.data() + m_documentPosition[a + j] * S;
        target[0] = records[j * S];
        counts[records[j * S]] = 0;
        for (int m = 1; m <= steps; ++m) {
          const double u = rng.uniform() * mass;
          target[m] = u < frequency ? records[std::min(static_cast<std::size_t>(u), f - 1) * S]
                                    : std::min(static_cast<std::int32_t>((u - frequency) / beta), K - 1);
        }
      }
    }
    m_state.rng(p) = rng;
    return !stopped;
  }

  // With `judgeProposals` false it only draws the document proposals (the kernel's start).
  template <int kSteps>
  bool documentPhase(std::size_t p, const std::stop_token& stop, bool judgeProposals, bool wantLogPrior,
                     double& logPrior) {
    Worker& worker = m_workers[p];
    Rng rng = m_state.rng(p);
    std::int32_t* counts = worker.counts.data();
    std::int64_t* delta = worker.delta.data();
    const double* alpha = m_state.alpha().data();
    const double alphaSum = m_state.alphaSum();
    const int steps = kSteps > 0 ? kSteps : m_steps;
    const auto S = static_cast<std::size_t>(steps) + 1;
    const AliasTable& alphaTable = m_alphaTable;
    bool stopped = false;
    const auto& offsets = m_state.corpus().offsets;
    const auto z = m_state.assignments();
    const auto range = m_state.partitions()[p];
    for (std::size_t d = range.begin; d < range.end; ++d) {
      if (stop.stop_requested()) {
        stopped = true;
        break;
      }
      const auto a = static_cast<std::size_t>(offsets[d]);
      const auto b = static_cast<std::size_t>(offsets[d + 1]);
      if (a == b) continue;
      std::int32_t* records = m_byDocument.data() + a * S;
      const std::size_t length = b - a;
      for (std::size_t i = 0; i < length; ++i) ++counts[records[i * S]];
      if (judgeProposals) {
        for (std::size_t i = 0; i < length; ++i)
          z[a + i] =
              judge(records + i * S, steps, counts, delta, rng, [&](std::int32_t k) { return counts[k] + alpha[k]; });
      }
      if (wantLogPrior) {
        logPrior += std::lgamma(alphaSum) - std::lgamma(static_cast<double>(length) + alphaSum);
        for (std::size_t i = 0; i < length; ++i) {
          const auto k = records[i * S];
          // Each topic once: its count is zeroed after it is added.
          if (counts[k] != 0) logPrior += logGammaRatio(counts[k], alpha[k]);
          counts[k] = 0;
        }
      }
      // Document proposals for the word phase, q(k) ~ n_dk + alpha_k, written with the topic to
      // each token's word-major record; the counts are cleared on the way.
      const auto tokens = static_cast<double>(length);
      const double mass = tokens + alphaSum;
      for (std::size_t i = 0; i < length; ++i) {
        __builtin_prefetch(m_byWord.data() + m_wordPosition[a + i + kPrefetchDistance] * S, 1);
        std::int32_t* target = m_byWord.data() + m_wordPosition[a + i] * S;
        target[0] = records[i * S];
        counts[records[i * S]] = 0;
        for (int m = 1; m <= steps; ++m) {
          const double v = rng.uniform() * mass;
          target[m] =
              v < tokens ? records[std::min(static_cast<std::size_t>(v), length - 1) * S] : alphaTable.draw(rng);
        }
      }
    }
    m_state.rng(p) = rng;
    return !stopped;
  }

  // A stop in the middle of a phase leaves every token's word-major record current (each change is
  // written there in the same step); the document-major topics and the totals follow from it.
  void synchroniseAfterStop() {
    const auto z = m_state.assignments();
    std::fill(m_totals.begin(), m_totals.end(), 0);
    for (std::size_t j = 0; j < z.size(); ++j) {
      const std::int32_t k = m_byWord[j * m_stride];
      z[m_documentPosition[j]] = k;
      m_byDocument[m_documentPosition[j] * m_stride] = k;
      ++m_totals[static_cast<std::size_t>(k)];
    }
    for (auto& worker : m_workers) {
      std::fill(worker.delta.begin(), worker.delta.end(), 0);
      std::fill(worker.counts.begin(), worker.counts.end(), 0);
    }
    refreshDenominators();
  }

  LdaGibbsState& m_state;
  int m_K;
  int m_steps;
  std::size_t m_stride;                           // M + 1: a record is the topic, then M proposals
  std::vector<std::int64_t> m_totals;             // n_k
  std::vector<std::int64_t> m_wordStart;          // word w's tokens: [start[w], start[w + 1]) word-major
  std::vector<std::uint32_t> m_wordPosition;      // document-major token i's word-major place
  std::vector<std::uint32_t> m_documentPosition;  // and back
  std::vector<std::int32_t> m_byWord;             // records word-major: topic, document proposals
  std::vector<std::int32_t> m_byDocument;         // records document-major: topic, word proposals
  std::vector<DocumentRange> m_wordRanges;        // partition p's words in the word phase
  std::vector<Worker> m_workers;
  std::vector<double> m_inverse, m_inverseWithout;
  AliasTable m_alphaTable;
  double m_beta = 0.0, m_betaV = 0.0;
  mutable tbb::enumerable_thread_specific<SparseCounts> m_scratch;  // forEachTopicOfWord's, per thread
};

}  // namespace latent::core::topic
