// SPDX-License-Identifier: GPL-3.0-or-later
// LDA-HMM's collapsed Gibbs sweep. References: 000 §27.4.3 (eq. 27.61-27.64, Fig. 27.13);
// Griffiths, Steyvers, Blei & Tenenbaum 2005, "Integrating topics and syntax", §3 (the sampler's
// conditionals, the transition counts' corrections); Newman et al. 2009 (AD-LDA).
//
// Every token i of document d carries a topic z_i and a class c_i, as in the paper: z_i ~ theta_d
// whatever the class, and the word comes from topic z_i only when c_i = 0. With theta, phi, the
// classes' word distributions psi and the transitions A integrated out, the pair (z_i, c_i) is
// drawn jointly from
//   p(z_i = k, c_i = c | rest) ~ (n_dk + alpha) / (n_d + K alpha)
//                                x (n_{a c} + gamma) (n_{c b} + [a = c = b] + gamma) / (n_c. + [a = c] + C gamma)
//                                x { (n_kw + beta) / (n_k + V beta)     c = 0
//                                  { (n_cw + delta) / (n_c + V delta)   c > 0
// with every count leaving token i out, a = c_{i-1} and b = c_{i+1}: the paper's conditionals
// (its eq. for P(c_i | ...), with the +1 corrections for c_{i-1} = c_i = c_{i+1}). Summed over k,
// a class c > 0 weighs (transition factor) x psi_cw, and class 0 the transition factor times
// sum_k (n_dk + alpha) phi_kw / (n_d + K alpha); the topic then follows from its conditional given
// the class: with phi for class 0, from theta_d alone for the others. The paper draws z_i then
// c_i; drawing the pair at once is a blocked Gibbs step with the same stationary distribution,
// which moves a token into class 0 with a topic that fits it. A document's first token has the
// row of "first classes" (counts n_{start c}) in place of a = c_{i-1}; its last has no b.
//
// Cost: O(K + C) per token, no allocation per token. Dense counts (K and C per word) suit the
// tens of topics and classes the model is used with.
#include "core/models/topic/lda_hmm_sampler.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/util/errors.hpp"
#include "core/util/random.hpp"
#include "core/util/special_functions.hpp"

namespace latent::core::topic {
namespace {

constexpr std::uint64_t kLdaHmmStartStream = 0x4C4441484D4D5354ULL;  // "LDAHMMST"
constexpr std::uint64_t kLdaHmmSweepStream = 0x4C4441484D4D5357ULL;  // "LDAHMMSW"
constexpr std::uint64_t kLdaHmmSwapStream = 0x4C4441484D4D5350ULL;   // "LDAHMMSP"
constexpr std::int64_t kLdaHmmStopCheck = 4095;  // tokens between looks at the stop token, minus one
constexpr std::size_t kLdaHmmWordBlock = 512;    // words per block of the log joint's sums

// new = old + sum over copies of (copy - old): the changes each part made, added up.
void ldaHmmMergeCounts(std::vector<std::int32_t>& shared, std::vector<LdaHmmCounts>& copies,
                       std::vector<std::int32_t> LdaHmmCounts::*member) {
  const std::size_t n = shared.size();
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 4096), [&](const auto& r) {
    for (std::size_t e = r.begin(); e != r.end(); ++e) {
      const std::int32_t old = shared[e];
      std::int32_t value = old;
      for (const auto& copy : copies) value += (copy.*member)[e] - old;
      shared[e] = value;
    }
  });
}

// The reciprocals of the denominators a draw divides by, kept up to date as the counts change.
struct LdaHmmScales {
  std::vector<double> topic;  // 1 / (n_k + V beta)
  std::vector<double> cls;    // 1 / (n_c + V delta)
  std::vector<double> out;    // 1 / (n_c. + C gamma), transitions out of c

  void reset(const LdaHmmCounts& n, const LdaHmmPriors& priors, double V) {
    topic.resize(static_cast<std::size_t>(priors.topics));
    cls.resize(static_cast<std::size_t>(priors.classes));
    out.resize(static_cast<std::size_t>(priors.classes));
    for (int k = 0; k < priors.topics; ++k) topic[k] = 1.0 / (n.topicTotal[k] + V * priors.beta);
    for (int c = 0; c < priors.classes; ++c) {
      cls[c] = 1.0 / (n.classTotal[c] + V * priors.delta);
      out[c] = 1.0 / (n.transitionTotal[c] + priors.classes * priors.gamma);
    }
  }
};

// weight^heat, with square roots for the heats annealing uses (pow costs as much as a draw).
inline double ldaHmmHeated(double weight, double heat) {
  if (heat == 0.5) return std::sqrt(weight);
  if (heat == 0.75) {
    const double root = std::sqrt(weight);
    return root * std::sqrt(root);
  }
  return std::pow(weight, heat);
}

// One token's place: its word, the class before it (C for a document's first token) and after it.
struct LdaHmmNeighbours {
  std::size_t word = 0;
  int before = 0;
  int after = 0;
  bool hasAfter = false;
};

// The weights of a token's draw, every count leaving it out (the conditional in the comment at
// the top): topicMass[k] the running sum over topics of (n_dk + alpha) phi_kw, classMass[c] the
// running sum over classes of the transition factor times the class's emission. Returns
// sum_k (n_dk + alpha) phi_kw. The sweep and conditional() both draw from these.
inline double ldaHmmWeights(const LdaHmmCounts& n, const std::int32_t* nd, const LdaHmmNeighbours& at, double docScale,
                            const LdaHmmPriors& priors, const LdaHmmScales& scales, double* topicMass,
                            double* classMass) {
  const int K = priors.topics, C = priors.classes;
  const double alpha = priors.alpha, beta = priors.beta, delta = priors.delta, gamma = priors.gamma;
  const double cGamma = C * gamma;
  const std::int32_t* tw = n.topicWord.data() + at.word * static_cast<std::size_t>(K);
  const std::int32_t* cw = n.classWord.data() + at.word * static_cast<std::size_t>(C);
  const std::int32_t* trans = n.transitions.data();
  const int a = at.before, b = at.after;
  double semantic = 0.0;
  for (int k = 0; k < K; ++k) topicMass[k] = semantic += (nd[k] + alpha) * (tw[k] + beta) * scales.topic[k];
  const std::int32_t* fromA = trans + a * C;
  double total = 0.0;
  for (int k = 0; k < C; ++k) {
    double weight = fromA[k] + gamma;
    if (at.hasAfter) {
      if (k == a)  // the token's own transition a -> a is counted before the one out of it
        weight *= (trans[k * C + b] + (k == b ? 1.0 : 0.0) + gamma) / (n.transitionTotal[k] + 1.0 + cGamma);
      else
        weight *= (trans[k * C + b] + gamma) * scales.out[k];
    }
    weight *= k == 0 ? semantic * docScale : (cw[k] + delta) * scales.cls[k];
    classMass[k] = total += weight;
  }
  return semantic;
}

// Adds `sign` (+1 or -1) of a token with topic z and class c to the counts (its document's n_dk
// apart) and brings the scales up to date.
inline void ldaHmmCount(LdaHmmCounts& n, LdaHmmScales& scales, const LdaHmmPriors& priors, double V,
                        const LdaHmmNeighbours& at, int z, int c, int sign) {
  const int K = priors.topics, C = priors.classes;
  const double cGamma = C * priors.gamma;
  if (c == 0) {
    n.topicWord[at.word * static_cast<std::size_t>(K) + static_cast<std::size_t>(z)] += sign;
    scales.topic[z] = 1.0 / ((n.topicTotal[z] += sign) + V * priors.beta);
  }
  n.classWord[at.word * static_cast<std::size_t>(C) + static_cast<std::size_t>(c)] += sign;
  scales.cls[c] = 1.0 / ((n.classTotal[c] += sign) + V * priors.delta);
  n.transitions[static_cast<std::size_t>(at.before * C + c)] += sign;
  n.transitionTotal[static_cast<std::size_t>(at.before)] += sign;
  if (at.before < C) scales.out[at.before] = 1.0 / (n.transitionTotal[at.before] + cGamma);
  if (at.hasAfter) {
    n.transitions[static_cast<std::size_t>(c * C + at.after)] += sign;
    scales.out[c] = 1.0 / ((n.transitionTotal[c] += sign) + cGamma);
  }
}

}  // namespace

LdaHmmState::LdaHmmState(const Corpus& corpus, const LdaHmmPriors& priors, int partitions, std::uint64_t seed)
    : m_corpus(corpus), m_priors(priors), m_seed(seed) {
  if (corpus.tokenCount() > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
    throw UsageError("lda-hmm keeps its counts in 32 bits and fits at most 2147483647 tokens");
  const auto K = static_cast<std::size_t>(priors.topics), C = static_cast<std::size_t>(priors.classes);
  const std::size_t V = corpus.vocabularySize(), D = corpus.documentCount();
  const std::size_t P =
      std::clamp<std::size_t>(static_cast<std::size_t>(std::max(partitions, 1)), 1, std::max<std::size_t>(D, 1));
  m_ranges = balancedRanges(corpus.offsets, P);
  m_topic.resize(corpus.tokenCount());
  m_class.resize(corpus.tokenCount());
  m_docTopic.assign(D * K, 0);
  m_counts.topicWord.assign(V * K, 0);
  m_counts.topicTotal.assign(K, 0);
  m_counts.classWord.assign(V * C, 0);
  m_counts.classTotal.assign(C, 0);
  m_counts.transitions.assign((C + 1) * C, 0);
  m_counts.transitionTotal.assign(C + 1, 0);
  // Each word's tokens, for the swaps of word types; and where documents begin and end.
  m_wordStart.assign(V + 1, 0);
  for (const auto w : corpus.tokens) ++m_wordStart[static_cast<std::size_t>(w) + 1];
  for (std::size_t w = 0; w < V; ++w) m_wordStart[w + 1] += m_wordStart[w];
  m_wordTokens.resize(corpus.tokenCount());
  std::vector<std::int64_t> fill(m_wordStart.begin(), m_wordStart.end() - 1);
  for (std::size_t t = 0; t < corpus.tokenCount(); ++t)
    m_wordTokens[static_cast<std::size_t>(fill[static_cast<std::size_t>(corpus.tokens[t])]++)] =
        static_cast<std::int32_t>(t);
  m_edge.assign(corpus.tokenCount(), 0);
  for (std::size_t d = 0; d < D; ++d)
    if (corpus.documentLength(d) > 0) {
      m_edge[static_cast<std::size_t>(corpus.offsets[d])] |= 1;
      m_edge[static_cast<std::size_t>(corpus.offsets[d + 1] - 1)] |= 2;
    }

  auto& n = m_counts;
  for (std::size_t d = 0; d < D; ++d) {
    Rng rng(seed ^ kLdaHmmStartStream, d);
    const auto first = static_cast<std::size_t>(corpus.offsets[d]),
               last = static_cast<std::size_t>(corpus.offsets[d + 1]);
    std::size_t previous = C;  // the row of first classes
    for (std::size_t t = first; t < last; ++t) {
      const auto z = static_cast<std::size_t>(rng.below(K));
      const auto c = static_cast<std::size_t>(rng.below(C));
      const auto w = static_cast<std::size_t>(corpus.tokens[t]);
      m_topic[t] = static_cast<std::int32_t>(z);
      m_class[t] = static_cast<std::uint8_t>(c);
      ++m_docTopic[d * K + z];
      if (c == 0) {
        ++n.topicWord[w * K + z];
        ++n.topicTotal[z];
      }
      ++n.classWord[w * C + c];
      ++n.classTotal[c];
      ++n.transitions[previous * C + c];
      ++n.transitionTotal[previous];
      previous = c;
    }
  }
}

bool LdaHmmState::sweep(std::int64_t iteration, std::span<float> contentProbability, const std::stop_token& stop) {
  const std::size_t P = m_ranges.size();
  if (P == 1) return sweepRange(0, m_counts, iteration, contentProbability, stop);
  m_copies.resize(P);
  std::vector<char> finished(P, 0);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, P, 1), [&](const auto& r) {
    for (std::size_t p = r.begin(); p != r.end(); ++p) {
      m_copies[p] = m_counts;  // reuses the copy's storage after the first sweep
      finished[p] = sweepRange(p, m_copies[p], iteration, contentProbability, stop) ? 1 : 0;
    }
  });
  // Merged also after a stop: every part's counts match its assignments, so their sum does.
  ldaHmmMergeCounts(m_counts.topicWord, m_copies, &LdaHmmCounts::topicWord);
  ldaHmmMergeCounts(m_counts.topicTotal, m_copies, &LdaHmmCounts::topicTotal);
  ldaHmmMergeCounts(m_counts.classWord, m_copies, &LdaHmmCounts::classWord);
  ldaHmmMergeCounts(m_counts.classTotal, m_copies, &LdaHmmCounts::classTotal);
  ldaHmmMergeCounts(m_counts.transitions, m_copies, &LdaHmmCounts::transitions);
  ldaHmmMergeCounts(m_counts.transitionTotal, m_copies, &LdaHmmCounts::transitionTotal);
  return std::all_of(finished.begin(), finished.end(), [](char f) { return f != 0; });
}

bool LdaHmmState::sweepRange(std::size_t part, LdaHmmCounts& n, std::int64_t iteration, std::span<float> content,
                             const std::stop_token& stop) {
  const int K = m_priors.topics, C = m_priors.classes;
  const auto V = static_cast<double>(m_corpus.vocabularySize());
  const double alpha = m_priors.alpha, kAlpha = K * alpha;
  LdaHmmScales scales;
  scales.reset(n, m_priors, V);
  std::vector<double> topicMass(static_cast<std::size_t>(K)), classMass(static_cast<std::size_t>(C));
  Rng rng(m_seed ^ kLdaHmmSweepStream, static_cast<std::uint64_t>(iteration) * m_ranges.size() + part);
  std::int64_t done = 0;
  const auto& range = m_ranges[part];
  for (std::size_t d = range.begin; d < range.end; ++d) {
    const auto first = static_cast<std::size_t>(m_corpus.offsets[d]);
    const auto last = static_cast<std::size_t>(m_corpus.offsets[d + 1]);
    if (first == last) continue;
    std::int32_t* nd = m_docTopic.data() + d * static_cast<std::size_t>(K);
    // 1 / (n_d - 1 + K alpha): theta_d's predictive for a token left out of its document.
    const double docScale = 1.0 / (static_cast<double>(last - first - 1) + kAlpha);
    for (std::size_t t = first; t < last; ++t) {
      LdaHmmNeighbours at;
      at.word = static_cast<std::size_t>(m_corpus.tokens[t]);
      at.before = t > first ? m_class[t - 1] : C;  // C: the row of first classes
      at.hasAfter = t + 1 < last;
      at.after = at.hasAfter ? m_class[t + 1] : 0;
      const int z = m_topic[t], c = m_class[t];
      --nd[z];
      ldaHmmCount(n, scales, m_priors, V, at, z, c, -1);

      const double semantic = ldaHmmWeights(n, nd, at, docScale, m_priors, scales, topicMass.data(), classMass.data());
      if (m_heat != 1.0) {  // annealing: each class's weight to the power 1/T
        double previous = 0.0, sum = 0.0;
        for (int k = 0; k < C; ++k) {
          const double weight = classMass[k] - previous;
          previous = classMass[k];
          classMass[k] = sum += ldaHmmHeated(weight, m_heat);
        }
      }
      const double total = classMass[static_cast<std::size_t>(C - 1)];
      double u = rng.uniform() * total;
      int cNew = 0;
      while (cNew + 1 < C && classMass[cNew] <= u) ++cNew;
      content[t] = static_cast<float>(classMass[0] / total);
      int zNew = 0;
      if (cNew == 0) {
        u = rng.uniform() * semantic;
        while (zNew + 1 < K && topicMass[zNew] <= u) ++zNew;
      } else {  // from theta_d alone: (n_dk + alpha) / (n_d - 1 + K alpha)
        u = rng.uniform() * (static_cast<double>(last - first - 1) + kAlpha);
        while (zNew + 1 < K && (u -= nd[zNew] + alpha) >= 0.0) ++zNew;
      }

      ++nd[zNew];
      ldaHmmCount(n, scales, m_priors, V, at, zNew, cNew, +1);
      m_topic[t] = zNew;
      m_class[t] = static_cast<std::uint8_t>(cNew);
      if ((++done & kLdaHmmStopCheck) == 0 && stop.stop_requested()) return false;
    }
  }
  return !stop.stop_requested();
}

std::size_t LdaHmmState::documentOf(std::size_t token) const {
  const auto at = std::upper_bound(m_corpus.offsets.begin(), m_corpus.offsets.end(), static_cast<std::int64_t>(token));
  return static_cast<std::size_t>(at - m_corpus.offsets.begin()) - 1;
}

void LdaHmmState::setAssignment(std::size_t token, int topic, int cls) {
  const std::size_t d = documentOf(token);
  const auto first = static_cast<std::size_t>(m_corpus.offsets[d]);
  const auto last = static_cast<std::size_t>(m_corpus.offsets[d + 1]);
  const int C = m_priors.classes;
  const auto V = static_cast<double>(m_corpus.vocabularySize());
  LdaHmmScales scales;
  scales.reset(m_counts, m_priors, V);
  LdaHmmNeighbours at;
  at.word = static_cast<std::size_t>(m_corpus.tokens[token]);
  at.before = token > first ? m_class[token - 1] : C;
  at.hasAfter = token + 1 < last;
  at.after = at.hasAfter ? m_class[token + 1] : 0;
  std::int32_t* nd = m_docTopic.data() + d * static_cast<std::size_t>(m_priors.topics);
  --nd[m_topic[token]];
  ldaHmmCount(m_counts, scales, m_priors, V, at, m_topic[token], m_class[token], -1);
  ++nd[topic];
  ldaHmmCount(m_counts, scales, m_priors, V, at, topic, cls, +1);
  m_topic[token] = topic;
  m_class[token] = static_cast<std::uint8_t>(cls);
}

Eigen::MatrixXd LdaHmmState::conditional(std::size_t token) const {
  const std::size_t d = documentOf(token);
  const auto first = static_cast<std::size_t>(m_corpus.offsets[d]);
  const auto last = static_cast<std::size_t>(m_corpus.offsets[d + 1]);
  const int K = m_priors.topics, C = m_priors.classes;
  const auto V = static_cast<double>(m_corpus.vocabularySize());
  LdaHmmCounts n = m_counts;
  LdaHmmScales scales;
  scales.reset(n, m_priors, V);
  LdaHmmNeighbours at;
  at.word = static_cast<std::size_t>(m_corpus.tokens[token]);
  at.before = token > first ? m_class[token - 1] : C;
  at.hasAfter = token + 1 < last;
  at.after = at.hasAfter ? m_class[token + 1] : 0;
  std::vector<std::int32_t> nd(m_docTopic.begin() + static_cast<std::ptrdiff_t>(d * K),
                               m_docTopic.begin() + static_cast<std::ptrdiff_t>((d + 1) * K));
  --nd[static_cast<std::size_t>(m_topic[token])];
  ldaHmmCount(n, scales, m_priors, V, at, m_topic[token], m_class[token], -1);
  const double docScale = 1.0 / (static_cast<double>(last - first - 1) + K * m_priors.alpha);
  std::vector<double> topicMass(static_cast<std::size_t>(K)), classMass(static_cast<std::size_t>(C));
  const double semantic =
      ldaHmmWeights(n, nd.data(), at, docScale, m_priors, scales, topicMass.data(), classMass.data());
  // p(c, z) = p(c) p(z | c): class 0's topics from phi, the others' from theta_d alone.
  Eigen::MatrixXd p(C, K);
  const double total = classMass[static_cast<std::size_t>(C - 1)];
  for (int c = 0; c < C; ++c) {
    const double pc = (classMass[c] - (c > 0 ? classMass[c - 1] : 0.0)) / total;
    for (int k = 0; k < K; ++k)
      p(c, k) = pc * (c == 0 ? (topicMass[k] - (k > 0 ? topicMass[k - 1] : 0.0)) / semantic
                             : (nd[static_cast<std::size_t>(k)] + m_priors.alpha) * docScale);
  }
  return p;
}

std::int64_t LdaHmmState::swapWordClasses(std::int64_t iteration, const std::stop_token& stop) {
  const int C = m_priors.classes;
  Rng rng(m_seed ^ kLdaHmmSwapStream, static_cast<std::uint64_t>(iteration));
  std::int64_t accepted = 0;
  for (std::size_t w = 0; w < m_corpus.vocabularySize(); ++w) {
    const auto begin = static_cast<std::size_t>(m_wordStart[w]), end = static_cast<std::size_t>(m_wordStart[w + 1]);
    if (begin == end) continue;
    if ((w & 255) == 255 && stop.stop_requested()) break;
    // The pair: the class of one of the word's tokens at random, and another class at random. The
    // chance of proposing the pair, (m_a + m_b) / (n_w (C - 1)), is the same after the swap (m_a
    // and m_b trade places), so the move is accepted with the ratio of the joints alone.
    const int a = m_class[static_cast<std::size_t>(m_wordTokens[begin + rng.below(end - begin)])];
    int b = static_cast<int>(rng.below(static_cast<std::uint64_t>(C - 1)));
    if (b >= a) ++b;
    const double logRatio = evaluateSwap(w, a, b, m_swap);
    if (std::log(rng.uniform()) < logRatio) {
      applySwap(w, a, b, m_swap);
      ++accepted;
    }
  }
  return accepted;
}

double LdaHmmState::swapLogRatio(std::size_t word, int a, int b) const {
  LdaHmmSwap scratch;
  return evaluateSwap(word, a, b, scratch);
}

void LdaHmmState::swapClasses(std::size_t word, int a, int b) {
  LdaHmmSwap scratch;
  evaluateSwap(word, a, b, scratch);
  applySwap(word, a, b, scratch);
}

double LdaHmmState::evaluateSwap(std::size_t w, int a, int b, LdaHmmSwap& s) const {
  const int K = m_priors.topics, C = m_priors.classes;
  const auto V = static_cast<double>(m_corpus.vocabularySize());
  const double beta = m_priors.beta, delta = m_priors.delta, gamma = m_priors.gamma;
  const double vBeta = V * beta, vDelta = V * delta, cGamma = C * gamma;
  const auto& n = m_counts;
  // Cleared where the previous proposal wrote: the tables are (C + 1) x C, the touched entries few.
  if (s.change.size() != static_cast<std::size_t>((C + 1) * C)) {
    s.change.assign(static_cast<std::size_t>((C + 1) * C), 0);
    s.seen.assign(s.change.size(), 0);
    s.touched.clear();
  }
  for (const auto e : s.touched) {
    s.change[e] = 0;
    s.seen[e] = 0;
  }
  s.touched.clear();
  s.rowChange.assign(static_cast<std::size_t>(C + 1), 0);
  s.incoming.assign(static_cast<std::size_t>(K), 0);
  const auto swapped = [a, b](int c) { return c == a ? b : c == b ? a : c; };
  const auto moves = [&](std::size_t t) {
    return m_corpus.tokens[t] == static_cast<std::int32_t>(w) && (m_class[t] == a || m_class[t] == b);
  };
  const auto edge = [&](int from, int to, std::int32_t sign) {
    const auto e = static_cast<std::size_t>(from * C + to);
    if (!s.seen[e]) {
      s.seen[e] = 1;
      s.touched.push_back(e);
    }
    s.change[e] += sign;
    s.rowChange[static_cast<std::size_t>(from)] += sign;
  };
  // The transitions: each edge into a moved token, and each edge out of one into a token that
  // stays (an edge between two moved tokens is counted once, as the edge into the second).
  for (auto j = m_wordStart[w]; j < m_wordStart[w + 1]; ++j) {
    const auto t = static_cast<std::size_t>(m_wordTokens[static_cast<std::size_t>(j)]);
    const int c = m_class[t];
    if (c != a && c != b) continue;
    if (c != 0) ++s.incoming[static_cast<std::size_t>(m_topic[t])];  // into class 0 when the other class is 0
    const bool first = (m_edge[t] & 1) != 0;
    const int before = first ? C : m_class[t - 1];
    edge(before, c, -1);
    edge(first || !moves(t - 1) ? before : swapped(before), swapped(c), +1);
    if (!(m_edge[t] & 2) && !moves(t + 1)) {
      edge(c, m_class[t + 1], -1);
      edge(swapped(c), m_class[t + 1], +1);
    }
  }
  double logRatio = 0.0;
  for (const auto e : s.touched)
    if (s.change[e] != 0)
      logRatio += logGamma(n.transitions[e] + s.change[e] + gamma) - logGamma(n.transitions[e] + gamma);
  for (std::size_t row = 0; row <= static_cast<std::size_t>(C); ++row)
    if (s.rowChange[row] != 0)
      logRatio -=
          logGamma(n.transitionTotal[row] + s.rowChange[row] + cGamma) - logGamma(n.transitionTotal[row] + cGamma);
  // The words: class a's count of w becomes class b's and the other way round; class 0's are per
  // topic (its tokens keep their topics).
  const std::int32_t countA = n.classWord[w * C + static_cast<std::size_t>(a)];
  const std::int32_t countB = n.classWord[w * C + static_cast<std::size_t>(b)];
  for (const int c : {a, b}) {
    const std::int32_t now = c == a ? countA : countB, next = c == a ? countB : countA;
    if (c == 0) {
      for (int k = 0; k < K; ++k) {
        const std::int32_t old = n.topicWord[w * K + static_cast<std::size_t>(k)];
        const std::int32_t fresh = s.incoming[static_cast<std::size_t>(k)];
        if (old != fresh)
          logRatio += logGamma(fresh + beta) - logGamma(old + beta) -
                      (logGamma(n.topicTotal[k] - old + fresh + vBeta) - logGamma(n.topicTotal[k] + vBeta));
      }
    } else if (now != next) {
      logRatio += logGamma(next + delta) - logGamma(now + delta) -
                  (logGamma(n.classTotal[c] - now + next + vDelta) - logGamma(n.classTotal[c] + vDelta));
    }
  }
  return logRatio;
}

void LdaHmmState::applySwap(std::size_t w, int a, int b, const LdaHmmSwap& s) {
  const int K = m_priors.topics, C = m_priors.classes;
  auto& n = m_counts;
  for (const auto e : s.touched) n.transitions[e] += s.change[e];
  for (std::size_t row = 0; row <= static_cast<std::size_t>(C); ++row) n.transitionTotal[row] += s.rowChange[row];
  const std::int32_t countA = n.classWord[w * C + static_cast<std::size_t>(a)];
  const std::int32_t countB = n.classWord[w * C + static_cast<std::size_t>(b)];
  n.classWord[w * C + static_cast<std::size_t>(a)] = countB;
  n.classWord[w * C + static_cast<std::size_t>(b)] = countA;
  n.classTotal[a] += countB - countA;
  n.classTotal[b] += countA - countB;
  if (a == 0 || b == 0)
    for (int k = 0; k < K; ++k) {
      auto& count = n.topicWord[w * K + static_cast<std::size_t>(k)];
      n.topicTotal[k] += s.incoming[static_cast<std::size_t>(k)] - count;
      count = s.incoming[static_cast<std::size_t>(k)];
    }
  for (auto j = m_wordStart[w]; j < m_wordStart[w + 1]; ++j) {
    const auto t = static_cast<std::size_t>(m_wordTokens[static_cast<std::size_t>(j)]);
    if (m_class[t] == a)
      m_class[t] = static_cast<std::uint8_t>(b);
    else if (m_class[t] == b)
      m_class[t] = static_cast<std::uint8_t>(a);
  }
}

bool LdaHmmState::countsMatchAssignments() const {
  const auto K = static_cast<std::size_t>(m_priors.topics), C = static_cast<std::size_t>(m_priors.classes);
  LdaHmmCounts n;
  n.topicWord.assign(m_counts.topicWord.size(), 0);
  n.topicTotal.assign(K, 0);
  n.classWord.assign(m_counts.classWord.size(), 0);
  n.classTotal.assign(C, 0);
  n.transitions.assign(m_counts.transitions.size(), 0);
  n.transitionTotal.assign(C + 1, 0);
  std::vector<std::int32_t> docTopic(m_docTopic.size(), 0);
  for (std::size_t d = 0; d < m_corpus.documentCount(); ++d) {
    std::size_t previous = C;
    for (auto t = static_cast<std::size_t>(m_corpus.offsets[d]); t < static_cast<std::size_t>(m_corpus.offsets[d + 1]);
         ++t) {
      const auto w = static_cast<std::size_t>(m_corpus.tokens[t]);
      const auto z = static_cast<std::size_t>(m_topic[t]), c = static_cast<std::size_t>(m_class[t]);
      ++docTopic[d * K + z];
      if (c == 0) {
        ++n.topicWord[w * K + z];
        ++n.topicTotal[z];
      }
      ++n.classWord[w * C + c];
      ++n.classTotal[c];
      ++n.transitions[previous * C + c];
      ++n.transitionTotal[previous];
      previous = c;
    }
  }
  return docTopic == m_docTopic && n.topicWord == m_counts.topicWord && n.topicTotal == m_counts.topicTotal &&
         n.classWord == m_counts.classWord && n.classTotal == m_counts.classTotal &&
         n.transitions == m_counts.transitions && n.transitionTotal == m_counts.transitionTotal;
}

double LdaHmmState::logJoint() const { return logJointWith(false); }

double LdaHmmState::logMarginalJoint() const { return logJointWith(true); }

double LdaHmmState::logJointWith(bool classZeroTopicsOnly) const {
  const auto K = static_cast<std::size_t>(m_priors.topics), C = static_cast<std::size_t>(m_priors.classes);
  const std::size_t V = m_corpus.vocabularySize(), D = m_corpus.documentCount();
  const double alpha = m_priors.alpha, beta = m_priors.beta, delta = m_priors.delta, gamma = m_priors.gamma;
  const auto& n = m_counts;
  // Sums over fixed blocks, added in block order: the same number on any number of threads.
  const std::size_t docBlocks = (D + kLdaHmmWordBlock - 1) / kLdaHmmWordBlock;
  const std::size_t wordBlocks = (V + kLdaHmmWordBlock - 1) / kLdaHmmWordBlock;
  std::vector<double> parts(docBlocks + wordBlocks, 0.0);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, parts.size(), 1), [&](const auto& r) {
    for (std::size_t block = r.begin(); block != r.end(); ++block) {
      double sum = 0.0;
      if (block < docBlocks) {  // p(Z | alpha): each document's topics, Dirichlet-multinomial
        std::vector<std::int32_t> semantic(K);
        for (std::size_t d = block * kLdaHmmWordBlock; d < std::min(D, (block + 1) * kLdaHmmWordBlock); ++d) {
          const std::int32_t* counts = m_docTopic.data() + d * K;
          auto length = static_cast<std::int64_t>(m_corpus.documentLength(d));
          if (classZeroTopicsOnly) {  // the topics of class-0 tokens alone
            std::fill(semantic.begin(), semantic.end(), 0);
            length = 0;
            for (auto t = m_corpus.offsets[d]; t < m_corpus.offsets[d + 1]; ++t)
              if (m_class[static_cast<std::size_t>(t)] == 0) {
                ++semantic[static_cast<std::size_t>(m_topic[static_cast<std::size_t>(t)])];
                ++length;
              }
            counts = semantic.data();
          }
          sum += logGamma(K * alpha) - logGamma(static_cast<double>(length) + K * alpha);
          for (std::size_t k = 0; k < K; ++k) sum += logGammaRatio(counts[k], alpha);
        }
      } else {  // the words' numerators: sum over (w, k) and (w, c > 0)
        const std::size_t wb = block - docBlocks;
        for (std::size_t w = wb * kLdaHmmWordBlock; w < std::min(V, (wb + 1) * kLdaHmmWordBlock); ++w) {
          for (std::size_t k = 0; k < K; ++k) sum += logGammaRatio(n.topicWord[w * K + k], beta);
          for (std::size_t c = 1; c < C; ++c) sum += logGammaRatio(n.classWord[w * C + c], delta);
        }
      }
      parts[block] = sum;
    }
  });
  double value = 0.0;
  for (const double part : parts) value += part;
  // The denominators of p(W | Z, C): topics and syntactic classes.
  for (std::size_t k = 0; k < K; ++k)
    value += logGamma(static_cast<double>(V) * beta) - logGamma(n.topicTotal[k] + static_cast<double>(V) * beta);
  for (std::size_t c = 1; c < C; ++c)
    value += logGamma(static_cast<double>(V) * delta) - logGamma(n.classTotal[c] + static_cast<double>(V) * delta);
  // p(C | gamma): every row of transitions, the row of first classes included.
  for (std::size_t a = 0; a <= C; ++a) {
    value += logGamma(static_cast<double>(C) * gamma) - logGamma(n.transitionTotal[a] + static_cast<double>(C) * gamma);
    for (std::size_t c = 0; c < C; ++c) value += logGammaRatio(n.transitions[a * C + c], gamma);
  }
  return value;
}

Eigen::MatrixXd LdaHmmState::topicWord() const {
  const int K = m_priors.topics;
  const auto V = static_cast<Eigen::Index>(m_corpus.vocabularySize());
  const double beta = m_priors.beta;
  Eigen::MatrixXd phi(K, V);
  for (Eigen::Index w = 0; w < V; ++w)
    for (int k = 0; k < K; ++k)
      phi(k, w) = (m_counts.topicWord[static_cast<std::size_t>(w) * K + k] + beta) /
                  (m_counts.topicTotal[k] + static_cast<double>(V) * beta);
  return phi;
}

Eigen::MatrixXd LdaHmmState::classWord() const {
  const int C = m_priors.classes;
  const auto V = static_cast<Eigen::Index>(m_corpus.vocabularySize());
  const double delta = m_priors.delta;
  Eigen::MatrixXd psi(C, V);
  for (Eigen::Index w = 0; w < V; ++w)
    for (int c = 1; c < C; ++c)
      psi(c, w) = (m_counts.classWord[static_cast<std::size_t>(w) * C + c] + delta) /
                  (m_counts.classTotal[c] + static_cast<double>(V) * delta);
  // Row 0: what class 0 emits, the topics mixed by their shares of its tokens.
  const int K = m_priors.topics;
  Eigen::VectorXd share(K);
  for (int k = 0; k < K; ++k) share[k] = m_counts.topicTotal[k];
  share = share.sum() > 0 ? Eigen::VectorXd(share / share.sum()) : Eigen::VectorXd::Constant(K, 1.0 / K);
  psi.row(0) = share.transpose() * topicWord();
  return psi;
}

Eigen::MatrixXd LdaHmmState::transitions() const {
  const int C = m_priors.classes;
  Eigen::MatrixXd a(C, C);
  for (int from = 0; from < C; ++from)
    for (int to = 0; to < C; ++to)
      a(from, to) = (m_counts.transitions[static_cast<std::size_t>(from * C + to)] + m_priors.gamma) /
                    (m_counts.transitionTotal[static_cast<std::size_t>(from)] + C * m_priors.gamma);
  return a;
}

Eigen::VectorXd LdaHmmState::start() const {
  const int C = m_priors.classes;
  Eigen::VectorXd s(C);
  for (int c = 0; c < C; ++c)
    s[c] = (m_counts.transitions[static_cast<std::size_t>(C * C + c)] + m_priors.gamma) /
           (m_counts.transitionTotal[static_cast<std::size_t>(C)] + C * m_priors.gamma);
  return s;
}

Eigen::MatrixXd LdaHmmState::documentTopics() const {
  const int K = m_priors.topics;
  const auto D = static_cast<Eigen::Index>(m_corpus.documentCount());
  Eigen::MatrixXd theta = Eigen::MatrixXd::Constant(D, K, m_priors.alpha);
  for (Eigen::Index d = 0; d < D; ++d) {
    double semantic = 0.0;
    for (auto t = m_corpus.offsets[d]; t < m_corpus.offsets[d + 1]; ++t)
      if (m_class[static_cast<std::size_t>(t)] == 0) {
        theta(d, m_topic[static_cast<std::size_t>(t)]) += 1.0;
        semantic += 1.0;
      }
    theta.row(d) /= semantic + K * m_priors.alpha;
  }
  return theta;
}

std::vector<std::vector<std::int32_t>> LdaHmmState::tokenTopics() const {
  std::vector<std::vector<std::int32_t>> out(m_corpus.documentCount());
  for (std::size_t d = 0; d < out.size(); ++d)
    for (auto t = static_cast<std::size_t>(m_corpus.offsets[d]); t < static_cast<std::size_t>(m_corpus.offsets[d + 1]);
         ++t)
      out[d].push_back(m_class[t] == 0 ? m_topic[t] : -1);
  return out;
}

std::vector<std::vector<float>> LdaHmmState::tokenClasses() const {
  std::vector<std::vector<float>> out(m_corpus.documentCount());
  for (std::size_t d = 0; d < out.size(); ++d)
    out[d].assign(m_class.begin() + m_corpus.offsets[d], m_class.begin() + m_corpus.offsets[d + 1]);
  return out;
}

double LdaHmmState::contentShare() const {
  return m_topic.empty() ? 0.0 : static_cast<double>(m_counts.classTotal[0]) / static_cast<double>(m_topic.size());
}

std::size_t LdaHmmState::memoryBytes() const {
  const auto bytes = [](const LdaHmmCounts& n) {
    return 4 * (n.topicWord.size() + n.topicTotal.size() + n.classWord.size() + n.classTotal.size() +
                n.transitions.size() + n.transitionTotal.size());
  };
  std::size_t total = bytes(m_counts) + m_topic.size() * 4 + m_class.size() + m_docTopic.size() * 4;
  for (const auto& copy : m_copies) total += bytes(copy);
  return total;
}

}  // namespace latent::core::topic
