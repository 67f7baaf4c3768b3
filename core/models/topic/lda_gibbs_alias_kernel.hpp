// SPDX-License-Identifier: GPL-3.0-or-later
// The Metropolis-Hastings sampler (the "alias" sampler): O(1) work per token whatever K, in the
// manner of LightLDA (Yuan et al. 2015) and WarpLDA (Chen et al. 2016), and exact in distribution
// because both proposals are functions of the current state and their acceptance ratios use them.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stop_token>
#include <utility>
#include <vector>

#include "core/models/topic/alias_table.hpp"
#include "core/models/topic/lda_gibbs_state.hpp"
#include "core/models/topic/word_major_order.hpp"
#include "core/models/topic/word_topic_table.hpp"

namespace latent::core::topic {

// Target: the conditional of token i (word w, document d) with its own count removed,
//   p(k) ~ (n_dk + alpha_k)(n_wk + beta)/(n_k + V beta)        (000 eq. 27.37)
// Each token runs `mhSteps` cycles of two Metropolis-Hastings moves (LightLDA's cycle proposal);
// each leaves p invariant, so their composition does too. In both, the proposal counts the
// current token at the chain's current state c, so q(t | c) and q(c | t) differ only in the
// factor the ratio below cancels; all n exclude token i.
//
// * word proposal q_w(k | c) ~ n_wk + [k = c] + beta (WarpLDA's): with probability
//   f_w / (f_w + K beta) the current topic of a uniformly chosen occurrence of word w in the corpus,
//   else a uniform topic. The topics of each word's occurrences are also kept word by word (a copy
//   of the assignments in word-major order, updated whenever a token changes topic), so that this
//   draw is one read in the word's contiguous block rather than two dependent random reads.
//   For t != c, q_w(c | t)/q_w(t | c) = (n_wc + beta)/(n_wt + beta), so
//     a = min(1, (n_dt + alpha_t)(n_c + V beta) / [(n_dc + alpha_c)(n_t + V beta)]).
// * document proposal q_d(k | c) ~ n_dk + [k = c] + alpha_k: with probability N_d/(N_d + alpha_0)
//   the topic of a uniformly chosen token of the document, else a draw from alpha (alias table), so
//     a = min(1, (n_wt + beta)(n_c + V beta) / [(n_wc + beta)(n_t + V beta)]),
//   with n_wt looked up in O(1) in a WordTopicTable.
//
// Not used, on purpose: LightLDA's word proposal (n_wk + beta)/(n_k + V beta) from per-word alias
// tables built at the start of a sweep. Those tables include the token's own assignment at that
// moment, and the assignments other tokens had before this sweep moved them, so the proposal
// depends on the state and its history in a way the acceptance ratio does not see; on a corpus
// small enough to enumerate the posterior, that chain ended a total-variation distance of 0.13
// from it (this sampler: 0.01, the Monte Carlo noise). See tst_lda_gibbs "chainMatchesThePosterior".
//
// Parallel as AD-LDA (Newman et al. 2009): each partition sees its own tokens' current topics
// and every other token's topic at the start of the sweep, through its own copy of the word-major
// assignments and of the counts, which are exactly the counts of that view. With one partition it
// is an exact sampler of the collapsed posterior. (The sparse kernel moved to a block schedule of
// documents and words, which keeps every n_wk current; this kernel has not been moved yet.)
class AliasGibbsKernel {
 public:
  static constexpr int kMaxSteps = 64;                 // mh_steps at most (the option's range)
  static constexpr std::size_t kPrefetchDistance = 4;  // tokens ahead whose proposals are fetched

  // Aligned to a cache line: a partition writes its own members (masses, totals' caches) for
  // every token, and its neighbour in m_partitions must not share that line.
  class alignas(kCacheLine) Partition {
   public:
    Partition(AliasGibbsKernel& kernel, std::size_t index)
        : m_kernel(kernel),
          m_state(kernel.m_state),
          m_index(index),
          m_table(kernel.m_tables[index]),
          m_byWord(kernel.m_byWord[index].data()),
          m_totals(kernel.m_totals),
          m_invDenominator(static_cast<std::size_t>(kernel.m_K)),
          m_docCounts(static_cast<std::size_t>(kernel.m_K), 0) {
      const auto& range = m_state.partitions()[index];
      m_tokenBegin = static_cast<std::size_t>(m_state.corpus().offsets[range.begin]);
      m_tokenEnd = static_cast<std::size_t>(m_state.corpus().offsets[range.end]);
    }

    void beginSweep() {
      m_alpha = m_state.alpha().data();
      m_alphaSum = m_state.alphaSum();
      m_beta = m_state.beta();
      m_betaV = m_beta * m_state.vocabularySize();
      m_rng = &m_state.rng(m_index);
      for (std::size_t k = 0; k < m_invDenominator.size(); ++k)
        m_invDenominator[k] = 1.0 / (m_betaV + static_cast<double>(m_totals[k]));
    }

    void beginDocument(std::size_t d) {
      const auto& offsets = m_state.corpus().offsets;
      m_docBegin = static_cast<std::size_t>(offsets[d]);
      m_docEnd = static_cast<std::size_t>(offsets[d + 1]);
      const auto z = m_state.assignments();
      for (std::size_t i = m_docBegin; i < m_docEnd; ++i) ++m_docCounts[static_cast<std::size_t>(z[i])];
      m_uniforms.resize((m_docEnd - m_docBegin) * static_cast<std::size_t>(m_kernel.m_mhSteps));
      for (auto& u : m_uniforms) u = m_rng->uniform();
    }

    void sampleToken(std::size_t i) {
      const auto& kernel = m_kernel;
      const auto z = m_state.assignments();
      const std::int32_t* tokens = m_state.corpus().tokens.data();
      const auto w = static_cast<std::size_t>(tokens[i]);
      Rng& rng = *m_rng;
      const double beta = m_beta;
      const double* inverse = m_invDenominator.data();
      std::int32_t* byWord = m_byWord + kernel.m_wordStart[w];
      const auto frequency = static_cast<double>(kernel.m_wordStart[w + 1] - kernel.m_wordStart[w]);
      const double wordProposalMass = frequency + kernel.m_K * beta;
      const auto length = static_cast<double>(m_docEnd - m_docBegin);
      const double docProposalMass = length + m_alphaSum;

      // The word proposals' uniforms were drawn a few tokens ahead, so that the occurrences they
      // pick could be fetched from memory in the meantime (a uniform drawn early is still
      // independent of everything it is used with); this token's are replaced by fresh ones, so
      // sampling the same token again never reuses them.
      const int steps = kernel.m_mhSteps;
      double* uniforms = m_uniforms.data() + (i - m_docBegin) * static_cast<std::size_t>(steps);
      double proposalUniforms[kMaxSteps];
      for (int step = 0; step < steps; ++step) {
        proposalUniforms[step] = uniforms[step];
        uniforms[step] = rng.uniform();
      }
      if (i + kPrefetchDistance < m_docEnd) {
        const auto ahead = i + kPrefetchDistance;
        const auto next = static_cast<std::size_t>(tokens[ahead]);
        const auto nextStart = kernel.m_wordStart[next];
        const auto nextFrequency = static_cast<double>(kernel.m_wordStart[next + 1] - nextStart);
        const double* nextUniforms = m_uniforms.data() + (ahead - m_docBegin) * static_cast<std::size_t>(steps);
        for (int step = 0; step < steps; ++step)
          __builtin_prefetch(m_byWord + nextStart + static_cast<std::int64_t>(nextUniforms[step] * nextFrequency));
        __builtin_prefetch(m_table.row(next));
      }

      std::int32_t c = z[i];
      const std::int32_t start = c;
      changeCount(w, c, -1);
      double docC = m_docCounts[static_cast<std::size_t>(c)] + m_alpha[c];
      double wordC = -1.0;  // (n_wc + beta)/(n_c + V beta), looked up when first needed

      for (int step = 0; step < kernel.m_mhSteps; ++step) {
        // Word proposal: the topic of an occurrence of w (this one included: it holds c).
        const double u = proposalUniforms[step] * wordProposalMass;
        std::int32_t t;
        if (u < frequency) {
          t = byWord[std::min(static_cast<std::size_t>(u), static_cast<std::size_t>(frequency) - 1)];
        } else {
          t = std::min(static_cast<std::int32_t>((u - frequency) / beta), kernel.m_K - 1);
        }
        if (t != c) {
          const double docT = m_docCounts[static_cast<std::size_t>(t)] + m_alpha[t];
          if (rng.uniform() * (docC * inverse[c]) < docT * inverse[t]) {
            c = t;
            docC = docT;
            wordC = -1.0;
            setTopic(i, c);
          }
        }
        // Document proposal: a random token's topic, or a draw from alpha.
        const double v = rng.uniform() * docProposalMass;
        t = v < length ? z[m_docBegin + std::min(static_cast<std::size_t>(v), m_docEnd - m_docBegin - 1)]
                       : kernel.m_alphaTable.draw(rng);
        if (t != c) {
          if (wordC < 0.0) wordC = (m_table.get(w, c) + beta) * inverse[c];
          const double wordT = (m_table.get(w, t) + beta) * inverse[t];
          if (rng.uniform() * wordC < wordT) {
            c = t;
            wordC = wordT;
            docC = m_docCounts[static_cast<std::size_t>(t)] + m_alpha[t];
            setTopic(i, c);
          }
        }
      }
      changeCount(w, c, +1);
      if (c != start) setTopic(i, c);
    }

    double endDocument(bool wantLogPrior) {
      const auto z = m_state.assignments();
      double logPrior = 0.0;
      if (wantLogPrior && m_docEnd > m_docBegin) {
        logPrior = std::lgamma(m_alphaSum) - std::lgamma(static_cast<double>(m_docEnd - m_docBegin) + m_alphaSum);
        for (std::size_t i = m_docBegin; i < m_docEnd; ++i) {
          const auto k = static_cast<std::size_t>(z[i]);
          if (m_docCounts[k] != 0) logPrior += logGammaRatio(m_docCounts[k], m_alpha[k]);
          m_docCounts[k] = 0;
        }
      } else {
        for (std::size_t i = m_docBegin; i < m_docEnd; ++i) m_docCounts[static_cast<std::size_t>(z[i])] = 0;
      }
      return logPrior;
    }

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

   private:
    friend class AliasGibbsKernel;

    // Token i's topic, in the assignments and in this partition's word-major copy.
    void setTopic(std::size_t i, std::int32_t k) {
      m_state.assignments()[i] = k;
      m_byWord[m_kernel.m_wordPosition[i]] = k;
    }

    // n_dk, n_wk and n_k of topic k change by delta.
    void changeCount(std::size_t w, std::int32_t k, std::int32_t delta) {
      const auto kk = static_cast<std::size_t>(k);
      m_docCounts[kk] += delta;
      m_table.add(w, k, delta);
      m_totals[kk] += delta;
      m_invDenominator[kk] = 1.0 / (m_betaV + static_cast<double>(m_totals[kk]));
    }

    const AliasGibbsKernel& m_kernel;
    LdaGibbsState& m_state;
    std::size_t m_index;
    WordTopicTable& m_table;
    std::int32_t* m_byWord;  // this partition's view of the assignments, word by word
    Rng* m_rng = nullptr;
    std::vector<double> m_uniforms;  // the word proposals' uniforms of the document's tokens
    const double* m_alpha = nullptr;
    double m_alphaSum = 0.0, m_beta = 0.0, m_betaV = 0.0;
    std::vector<std::int64_t> m_totals;
    std::vector<double> m_invDenominator;
    std::vector<std::int32_t> m_docCounts;
    std::size_t m_docBegin = 0, m_docEnd = 0, m_tokenBegin = 0, m_tokenEnd = 0;
  };

  AliasGibbsKernel(LdaGibbsState& state, int mhSteps)
      : m_state(state),
        m_K(state.topics()),
        m_mhSteps(mhSteps),
        m_layout(WordTopicLayout::make(state.topics(), state.wordFrequencies())),
        m_totals(static_cast<std::size_t>(state.topics()), 0) {
    const std::size_t P = state.partitions().size();
    // One table per partition; with several, one more for the merged global counts.
    m_tables.reserve(P > 1 ? P + 1 : 1);
    for (std::size_t p = 0; p < (P > 1 ? P + 1 : 1); ++p) m_tables.emplace_back(m_layout);
    buildCounts();
    for (std::size_t p = 1; p < m_tables.size(); ++p) m_tables[p].copyFrom(m_tables[0]);
    m_partitions.reserve(P);
    for (std::size_t p = 0; p < P; ++p) m_partitions.emplace_back(*this, p);
  }
  AliasGibbsKernel(const AliasGibbsKernel&) = delete;
  AliasGibbsKernel& operator=(const AliasGibbsKernel&) = delete;

  Partition& partition(std::size_t p) { return m_partitions[p]; }

  // What the partitions share during a sweep: the alpha table (alpha may have been re-estimated).
  void prepareSweep() { m_alphaTable.build(m_state.alpha()); }

  bool sweep(const std::stop_token& stop, bool wantLogPrior, std::vector<double>& logPrior) {
    prepareSweep();
    const std::size_t P = m_partitions.size();
    logPrior.assign(P, 0.0);
    std::vector<char> finished(P, 0);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, P, 1), [&](const auto& r) {
      for (std::size_t p = r.begin(); p != r.end(); ++p)
        finished[p] = m_partitions[p].run(stop, wantLogPrior, logPrior[p]);
    });
    mergePartitions();
    return std::all_of(finished.begin(), finished.end(), [](char f) { return f != 0; });
  }

  // global + sum_p (local_p - global), then every partition starts again from the global counts.
  void mergePartitions() {
    const std::size_t P = m_partitions.size();
    const auto K = static_cast<std::size_t>(m_K);
    if (P == 1) {
      m_totals = m_partitions[0].m_totals;
      return;
    }
    WordTopicTable& global = m_tables[P];
    const auto others = static_cast<std::int32_t>(P - 1);
    struct Scratch {
      std::vector<std::int32_t> counts, topics;
    };
    tbb::enumerable_thread_specific<Scratch> scratch([&] { return Scratch{std::vector<std::int32_t>(K, 0), {}}; });
    const auto V = m_wordStart.size() - 1;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, V, 256), [&](const auto& r) {
      auto& s = scratch.local();
      for (std::size_t w = r.begin(); w != r.end(); ++w) {
        if (global.isDense(w)) {
          std::int32_t* g = global.row(w);
          for (std::size_t k = 0; k < K; ++k) g[k] *= -others;
          for (std::size_t p = 0; p < P; ++p) {
            const std::int32_t* l = m_tables[p].row(w);
            for (std::size_t k = 0; k < K; ++k) g[k] += l[k];
          }
          continue;
        }
        // Hashed: sum into the scratch row, then rebuild in topic order (a canonical layout).
        // A topic with a global count shows up in some local copy (else its merged count would
        // be negative), so the locals name every topic there is.
        s.topics.clear();
        for (std::size_t p = 0; p < P; ++p)
          m_tables[p].forEach(w, [&](std::int32_t k, std::int32_t count) {
            auto& slot = s.counts[static_cast<std::size_t>(k)];
            if (slot == 0) s.topics.push_back(k);
            slot += count;
          });
        global.forEach(
            w, [&](std::int32_t k, std::int32_t count) { s.counts[static_cast<std::size_t>(k)] -= others * count; });
        std::sort(s.topics.begin(), s.topics.end());
        global.clearWord(w);
        for (const auto k : s.topics) {
          auto& count = s.counts[static_cast<std::size_t>(k)];
          if (count > 0) global.add(w, k, count);
          count = 0;
        }
      }
    });
    for (std::size_t k = 0; k < K; ++k) {
      std::int64_t total = -static_cast<std::int64_t>(others) * m_totals[k];
      for (const auto& part : m_partitions) total += part.m_totals[k];
      m_totals[k] = total;
    }
    // The word-major assignments from the merged state, then a copy for every partition.
    const auto z = m_state.assignments();
    std::vector<std::int32_t>& merged = m_byWord[0];
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, z.size(), 1 << 16), [&](const auto& r) {
      for (std::size_t i = r.begin(); i != r.end(); ++i) merged[m_wordPosition[i]] = z[i];
    });
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, P, 1), [&](const auto& r) {
      for (std::size_t p = r.begin(); p != r.end(); ++p) {
        m_tables[p].copyFrom(global);
        m_partitions[p].m_totals = m_totals;
        if (p > 0) std::memcpy(m_byWord[p].data(), merged.data(), merged.size() * sizeof(std::int32_t));
      }
    });
  }

  template <typename F>
  void forEachTopicOfWord(std::size_t w, F&& f) const {
    m_tables.back().forEach(w, [&](std::int32_t k, std::int32_t count) { f(k, static_cast<std::int64_t>(count)); });
  }
  const std::vector<std::int64_t>& topicTotals() const noexcept { return m_totals; }

  std::size_t memoryBytes() const {
    std::size_t bytes = m_wordPosition.size() * sizeof(std::uint32_t) + m_wordStart.size() * sizeof(std::int64_t);
    for (const auto& b : m_byWord) bytes += b.size() * sizeof(std::int32_t);
    for (const auto& t : m_tables) bytes += t.memoryBytes();
    return bytes;
  }

 private:
  // Word-major positions of the tokens, the word-major assignments, and the counts.
  void buildCounts() {
    const auto& tokens = m_state.corpus().tokens;
    const auto V = static_cast<std::size_t>(m_state.vocabularySize());
    auto order = WordMajorOrder::build(m_state.corpus(), m_state.wordFrequencies(), "alias");
    m_wordStart = std::move(order.start);
    m_wordPosition = std::move(order.position);
    const auto z = m_state.assignments();
    std::vector<std::int32_t> byWord(tokens.size());
    for (std::size_t i = 0; i < tokens.size(); ++i) byWord[m_wordPosition[i]] = z[i];
    WordTopicTable& table = m_tables[0];
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, V, 256), [&](const auto& r) {
      for (std::size_t w = r.begin(); w != r.end(); ++w)
        for (auto j = m_wordStart[w]; j < m_wordStart[w + 1]; ++j) table.add(w, byWord[static_cast<std::size_t>(j)], 1);
    });
    for (const auto k : z) ++m_totals[static_cast<std::size_t>(k)];
    m_byWord.assign(m_state.partitions().size(), byWord);
  }

  LdaGibbsState& m_state;
  int m_K;
  int m_mhSteps;
  std::shared_ptr<const WordTopicLayout> m_layout;
  std::vector<WordTopicTable> m_tables;             // one per partition, then the global one if P > 1
  std::vector<std::int64_t> m_totals;               // n_k, global
  std::vector<std::int64_t> m_wordStart;            // word w's occurrences: [start[w], start[w + 1]) word-major
  std::vector<std::uint32_t> m_wordPosition;        // token i's place in word-major order
  std::vector<std::vector<std::int32_t>> m_byWord;  // per partition: its view of the assignments, word-major
  AliasTable m_alphaTable;                          // alpha_k
  std::vector<Partition> m_partitions;
};

}  // namespace latent::core::topic
