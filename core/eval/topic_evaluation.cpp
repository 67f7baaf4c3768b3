// SPDX-License-Identifier: GPL-3.0-or-later
// Held-out scoring and the fold-in estimators.
#include "core/eval/topic_evaluation.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <type_traits>
#include <vector>

#include "core/eval/perplexity.hpp"
#include "core/util/random.hpp"
#include "core/util/sparse_counts.hpp"
#include "core/util/special_functions.hpp"

namespace latent::core {
namespace {

constexpr std::uint64_t kFoldInStream = 0x464F4C44494E0000ULL;  // "FOLDIN"

// The document's distinct words with their counts (fold-ins work on counts).
void countWords(std::span<const std::int32_t> words, std::vector<std::int32_t>& ids, std::vector<double>& counts) {
  ids.assign(words.begin(), words.end());
  std::sort(ids.begin(), ids.end());
  counts.clear();
  std::size_t out = 0;
  for (std::size_t i = 0; i < ids.size();) {
    std::size_t j = i;
    while (j < ids.size() && ids[j] == ids[i]) ++j;
    ids[out++] = ids[i];
    counts.push_back(static_cast<double>(j - i));
    i = j;
  }
  ids.resize(out);
}

// Scores held-out documents [first, end) under `protocol`: `score(d, conditioned, target, seed)`
// returns the log probability of the words `target` given the words `conditioned` the model may
// fit to. Parallel over documents; each document's number depends on that document alone.
template <typename Score>
HeldoutTerms scoreDocuments(const HeldoutDocuments& heldout, std::size_t first, std::size_t end,
                            HeldoutProtocol protocol, std::uint64_t seed, Score&& score) {
  HeldoutTerms terms;
  terms.logLikelihoods.assign(end - first, 0.0);
  terms.tokens.assign(end - first, 0);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(first, end, 8), [&](const auto& range) {
    std::vector<std::int32_t> words;
    for (std::size_t d = range.begin(); d != range.end(); ++d) {
      const auto observed = heldout.observed.document(d);
      const auto scored = heldout.scored.document(d);
      words.assign(observed.begin(), observed.end());
      if (protocol == HeldoutProtocol::FullFoldingIn) words.insert(words.end(), scored.begin(), scored.end());
      // Full folding-in scores the very words it was fitted on; document completion only the rest.
      const std::span<const std::int32_t> target =
          protocol == HeldoutProtocol::FullFoldingIn ? std::span<const std::int32_t>(words) : scored;
      terms.logLikelihoods[d - first] =
          score(d, std::span<const std::int32_t>(words), target,
                seed ^ (kFoldInStream + static_cast<std::uint64_t>(heldout.documents[d])));
      terms.tokens[d - first] = static_cast<std::int64_t>(target.size());
    }
  });
  return terms;
}

template <typename Score>
TopicHeldoutScore scoreDocuments(const HeldoutDocuments& heldout, HeldoutProtocol protocol, std::uint64_t seed,
                                 Score&& score) {
  return combineHeldoutTerms(scoreDocuments(heldout, 0, heldout.size(), protocol, seed, std::forward<Score>(score)));
}

// The score of a mixture of topics: log sum_k theta_k phi_kw over the target words, theta from
// `foldIn(d, words, seed, theta)`.
template <typename DocumentFold>
auto mixtureScore(const TopicColumns& topicWord, DocumentFold&& foldIn) {
  return [&topicWord, foldIn](std::size_t d, std::span<const std::int32_t> words, std::span<const std::int32_t> target,
                              std::uint64_t s) {
    const auto K = topicWord.topics();
    thread_local std::vector<double> column;
    column.resize(static_cast<std::size_t>(K));
    Eigen::VectorXd theta(K);
    foldIn(d, words, s, theta);
    double sum = 0.0;
    for (const auto w : target) {
      topicWord.column(w, column.data());
      sum += std::log(topicDot(theta.data(), column.data(), K));
    }
    return sum;
  };
}

auto ignoringDocument(const FoldIn& foldIn) {
  return [&foldIn](std::size_t, std::span<const std::int32_t> words, std::uint64_t s,
                   Eigen::Ref<Eigen::VectorXd> theta) { foldIn(words, s, theta); };
}

struct GibbsFoldInScratch {
  std::vector<std::int32_t> ids, slot, z;
  std::vector<double> counts, column, smoothing, scores;
  std::vector<double> totals;         // each distinct word's smoothing part, sum_k phi_kw alpha_k
  std::vector<std::size_t> place;     // each distinct word's column among those kept, or kNotKept
  std::vector<TopicValue> overrides;  // the made column's values that differ from the topics' fill
  std::vector<std::size_t> byCount;   // distinct words, most frequent in the document first
  std::vector<double> doubleColumns;  // the kept columns of phi, by topic, then one for the others
  std::vector<float> floatColumns;
  SparseCounts doc;  // n_dk of the document being folded in
};

constexpr std::size_t kNotKept = static_cast<std::size_t>(-1);

}  // namespace

const char* protocolName(HeldoutProtocol protocol) noexcept {
  return protocol == HeldoutProtocol::DocumentCompletion ? "document-completion" : "full-folding-in";
}

TopicHeldoutScore combineHeldoutTerms(const HeldoutTerms& terms) {
  TopicHeldoutScore result;
  result.perplexity = perplexityPerDocument(terms.logLikelihoods, terms.tokens);
  result.perplexityPerToken = perplexityPerToken(terms.logLikelihoods, terms.tokens);
  result.documents = static_cast<std::int64_t>(terms.tokens.size());
  for (const auto n : terms.tokens) result.tokens += n;
  return result;
}

HeldoutTerms scoreHeldoutTerms(const HeldoutDocuments& heldout, std::size_t first, std::size_t end,
                               const TopicColumns& topicWord, const FoldIn& foldIn, HeldoutProtocol protocol,
                               std::uint64_t seed) {
  return scoreDocuments(heldout, first, end, protocol, seed, mixtureScore(topicWord, ignoringDocument(foldIn)));
}

TopicHeldoutScore scoreHeldout(const HeldoutDocuments& heldout, const TopicColumns& topicWord, const FoldIn& foldIn,
                               HeldoutProtocol protocol, std::uint64_t seed) {
  return combineHeldoutTerms(scoreHeldoutTerms(heldout, 0, heldout.size(), topicWord, foldIn, protocol, seed));
}

TopicHeldoutScore scoreHeldout(const HeldoutDocuments& heldout, const Eigen::MatrixXd& topicWord, const FoldIn& foldIn,
                               HeldoutProtocol protocol, std::uint64_t seed) {
  return scoreHeldout(heldout, DenseTopicColumns(topicWord), foldIn, protocol, seed);
}

TopicHeldoutScore scoreHeldout(const HeldoutDocuments& heldout, const Eigen::MatrixXf& topicWord, const FoldIn& foldIn,
                               HeldoutProtocol protocol, std::uint64_t seed) {
  return scoreHeldout(heldout, DenseTopicColumns(topicWord), foldIn, protocol, seed);
}

TopicHeldoutScore scoreHeldoutByDocument(const HeldoutDocuments& heldout, const Eigen::MatrixXd& topicWord,
                                         const DocumentFoldIn& foldIn, HeldoutProtocol protocol, std::uint64_t seed) {
  const DenseTopicColumns columns(topicWord);
  return scoreDocuments(heldout, protocol, seed, mixtureScore(columns, std::cref(foldIn)));
}

TopicHeldoutScore scoreHeldout(const HeldoutDocuments& heldout, const LogPredictive& predictive,
                               HeldoutProtocol protocol, std::uint64_t seed) {
  return scoreDocuments(
      heldout, protocol, seed,
      [&](std::size_t, std::span<const std::int32_t> words, std::span<const std::int32_t> target, std::uint64_t s) {
        const Eigen::VectorXd logp = predictive(words, s);
        double sum = 0.0;
        for (const auto w : target) sum += logp[w];
        return sum;
      });
}

FoldIn variationalFoldIn(const Eigen::MatrixXd& topicWord, Eigen::VectorXd alpha, int maxIterations, double tolerance) {
  return [&topicWord, alpha = std::move(alpha), maxIterations, tolerance](
             std::span<const std::int32_t> words, std::uint64_t, Eigen::Ref<Eigen::VectorXd> theta) {
    const auto K = topicWord.rows();
    std::vector<std::int32_t> ids;
    std::vector<double> counts;
    countWords(words, ids, counts);
    Eigen::VectorXd gamma = alpha.array() + static_cast<double>(words.size()) / static_cast<double>(K);
    Eigen::VectorXd expLogTheta(K), next(K), p(K);
    for (int iteration = 0; iteration < maxIterations; ++iteration) {
      const double psiSum = digamma(gamma.sum());
      for (Eigen::Index k = 0; k < K; ++k) expLogTheta[k] = std::exp(digamma(gamma[k]) - psiSum);
      next = alpha;
      for (std::size_t i = 0; i < ids.size(); ++i) {
        p = topicWord.col(ids[i]).cwiseProduct(expLogTheta);
        const double norm = p.sum();
        if (norm > 0.0) next += counts[i] / norm * p;
      }
      const double change = (next - gamma).cwiseAbs().mean();
      gamma.swap(next);
      if (change < tolerance) break;
    }
    theta = gamma / gamma.sum();
  };
}

// The sampler splits the conditional p(z_i = k) ~ phi_kw (n_dk + alpha_k) into a smoothing
// part phi_kw alpha_k, fixed while the document is folded in, and a document part phi_kw n_dk
// over the topics the document's other tokens hold, as SparseLDA does (Yao et al. 2009 eq. 4).
// The smoothing part is a cumulative sum per distinct word of the document, drawn from by
// bisection; the document part is a walk over at most min(K, N_d) topics. A token then costs
// O(N_d + log K) rather than O(K): at large K the dense draw made held-out evaluation a large
// share of a fit's time (tests/benchmarks/README.md, "Held-out evaluation of a Gibbs run"). Same
// conditional, so the same chain in distribution as the dense draw it replaced.
// The document's columns of phi are kept as the topics hold them (`Column`: float where they are
// floats, half the bytes of a long document's columns at large K). They are kept for at most
// `columnBudget` bytes, the document's most frequent words first (a book's thousands of distinct
// words at K = 5000 would otherwise hold hundreds of MB on each thread). A token of a word beyond
// that has its column made again for its draw, and its cumulative sums only as far as the draw
// needs them, with the same values in the same order, so that the chain is the same whatever the
// budget.
template <typename Column>
void gibbsFoldInDocument(const TopicColumns& topicWord, const Eigen::VectorXd& alpha, int sweeps, int burnIn,
                         std::size_t columnBudget, std::span<const std::int32_t> words, std::uint64_t seed,
                         Eigen::Ref<Eigen::VectorXd> theta, GibbsFoldInScratch& s, std::vector<Column>& columns) {
  const auto K = static_cast<std::size_t>(topicWord.topics());
  Rng rng(seed);
  const std::size_t n = words.size();

  // Distinct words and each token's index among them.
  countWords(words, s.ids, s.counts);
  const std::size_t distinct = s.ids.size();
  s.slot.resize(n);
  for (std::size_t i = 0; i < n; ++i)
    s.slot[i] = static_cast<std::int32_t>(std::lower_bound(s.ids.begin(), s.ids.end(), words[i]) - s.ids.begin());

  // Which words keep their columns: all of them within the budget, else the most frequent ones,
  // and one more column where the others' are made.
  const std::size_t keptColumns = gibbsFoldInKeptColumns(distinct, K, sizeof(Column), columnBudget);
  s.place.assign(distinct, kNotKept);
  if (keptColumns == distinct) {
    for (std::size_t j = 0; j < distinct; ++j) s.place[j] = j;
  } else {
    s.byCount.resize(distinct);
    for (std::size_t j = 0; j < distinct; ++j) s.byCount[j] = j;
    std::stable_sort(s.byCount.begin(), s.byCount.end(),
                     [&](std::size_t a, std::size_t b) { return s.counts[a] > s.counts[b]; });
    for (std::size_t j = 0; j < keptColumns; ++j) s.place[s.byCount[j]] = j;
  }
  const std::size_t made = keptColumns;  // where a column not kept is made
  columns.resize((keptColumns == distinct ? keptColumns : keptColumns + 1) * K);
  s.smoothing.resize(keptColumns * K);
  s.totals.resize(distinct);
  // Columns of doubles are written in place; float ones go through one column of doubles.
  if constexpr (!std::is_same_v<Column, double>) s.column.resize(K);
  // Writes word j's column of phi to `out` and returns it in doubles.
  const auto fetchColumn = [&](std::size_t j, Column* out) -> const double* {
    double* phi = nullptr;
    if constexpr (std::is_same_v<Column, double>)
      phi = out;
    else
      phi = s.column.data();
    topicWord.column(s.ids[j], phi);
    if constexpr (!std::is_same_v<Column, double>)
      for (std::size_t k = 0; k < K; ++k) out[k] = static_cast<Column>(phi[k]);
    return phi;
  };
  // Each word's smoothing part, sum_k phi_kw alpha_k, added in topic order; a kept column keeps the
  // cumulative sums too.
  std::size_t madeWord = kNotKept;  // the word whose column is at `made`
  for (std::size_t j = 0; j < distinct; ++j) {
    const std::size_t place = s.place[j];
    const double* phi = fetchColumn(j, columns.data() + (place == kNotKept ? made : place) * K);
    double* sums = place == kNotKept ? nullptr : s.smoothing.data() + place * K;
    double sum = 0.0;
    for (std::size_t k = 0; k < K; ++k) {
      sum += phi[k] * alpha[static_cast<Eigen::Index>(k)];
      if (sums != nullptr) sums[k] = sum;
    }
    s.totals[j] = sum;
    if (place == kNotKept) madeWord = j;
  }
  // Makes word j's column at `made`. Where the topics are a fill and overrides, from the fill by
  // undoing the previous word's overrides and writing this one's: the time of a rare word's few
  // entries, not of K, for what are mostly a document's rare words.
  const double* fill = topicWord.fill();
  bool madeIsFilled = false;  // the made column is the fill but at the topics of s.overrides
  const auto makeColumn = [&](std::size_t j) {
    Column* out = columns.data() + made * K;
    if (fill == nullptr) {
      fetchColumn(j, out);
      return;
    }
    if (madeIsFilled) {
      for (const auto& [k, value] : s.overrides) out[k] = static_cast<Column>(fill[k]);
    } else {
      for (std::size_t k = 0; k < K; ++k) out[k] = static_cast<Column>(fill[k]);
      madeIsFilled = true;
    }
    topicWord.overrides(s.ids[j], s.overrides);
    for (const auto& [k, value] : s.overrides) out[k] = static_cast<Column>(value);
  };

  s.doc.reset(K);
  s.scores.resize(std::min(K, n) + 1);
  s.z.resize(n);
  // A topic for token i from its conditional given the counts of s.doc (which leave it out).
  const auto draw = [&](std::size_t i) {
    const auto word = static_cast<std::size_t>(s.slot[i]);
    const std::size_t place = s.place[word];
    const double* smoothing = nullptr;  // the cumulative sums, where kept
    const Column* phi = nullptr;
    if (place != kNotKept) {
      phi = columns.data() + place * K;
      smoothing = s.smoothing.data() + place * K;
    } else {
      phi = columns.data() + made * K;
      if (madeWord != word) makeColumn(word);
      madeWord = word;
    }
    const auto docTopics = s.doc.nonzero();
    // Two running sums, even and odd topics, so that a term does not wait for the previous one.
    double evenMass = 0.0, oddMass = 0.0;
    std::size_t j = 0;
    for (; j + 1 < docTopics.size(); j += 2) {
      const auto k0 = static_cast<std::size_t>(docTopics[j]), k1 = static_cast<std::size_t>(docTopics[j + 1]);
      evenMass += s.scores[j] = static_cast<double>(phi[k0]) * s.doc[k0];
      oddMass += s.scores[j + 1] = static_cast<double>(phi[k1]) * s.doc[k1];
    }
    if (j < docTopics.size()) {
      const auto k = static_cast<std::size_t>(docTopics[j]);
      evenMass += s.scores[j] = static_cast<double>(phi[k]) * s.doc[k];
    }
    const double docMass = evenMass + oddMass;
    double u = rng.uniform() * (docMass + s.totals[word]);
    if (u < docMass) {
      j = 0;
      while (j + 1 < docTopics.size() && (u -= s.scores[j]) >= 0.0) ++j;
      return docTopics[j];
    }
    u -= docMass;
    if (smoothing != nullptr) {
      const auto at = static_cast<std::size_t>(std::upper_bound(smoothing, smoothing + K, u) - smoothing);
      return static_cast<std::int32_t>(std::min(at, K - 1));
    }
    // The first topic whose cumulative sum passes u, the sums made as far as needed in the order
    // that kept ones were: the topic the bisection of kept sums would give.
    double sum = 0.0;
    for (std::size_t k = 0; k + 1 < K; ++k)
      if ((sum += static_cast<double>(phi[k]) * alpha[static_cast<Eigen::Index>(k)]) > u)
        return static_cast<std::int32_t>(k);
    return static_cast<std::int32_t>(K - 1);
  };
  // The chain starts from one pass that draws each token given the tokens before it (as the
  // left-to-right estimator does): a start near where the chain settles, so that the burn-in
  // sweeps see a document's few topics rather than one topic per token, as a uniform start
  // gives, and cost less (each draw walks the document's topics).
  for (std::size_t i = 0; i < n; ++i) {
    s.z[i] = draw(i);
    s.doc.add(static_cast<std::size_t>(s.z[i]), 1);
  }

  theta.setZero();
  int kept = 0;
  const double alpha0 = alpha.sum();
  for (int sweep = 0; sweep < sweeps; ++sweep) {
    for (std::size_t i = 0; i < n; ++i) {
      s.doc.add(static_cast<std::size_t>(s.z[i]), -1);
      const std::int32_t k = draw(i);
      s.z[i] = k;
      s.doc.add(static_cast<std::size_t>(k), 1);
    }
    if (sweep >= burnIn) {
      for (const auto k : s.doc.nonzero()) theta[k] += s.doc[static_cast<std::size_t>(k)];
      ++kept;
    }
  }
  // theta_k = (mean n_dk over the kept sweeps + alpha_k) / (N_d + alpha_0)
  const double denominator = static_cast<double>(n) + alpha0;
  if (kept == 0)
    for (const auto k : s.doc.nonzero()) theta[k] = s.doc[static_cast<std::size_t>(k)];
  else
    theta /= kept;
  theta = (theta + alpha) / denominator;
}

// `topicWord` may be held by the fold-in (a dense matrix's columns) or not (null deleter).
FoldIn gibbsFoldInOver(std::shared_ptr<const TopicColumns> topicWord, Eigen::VectorXd alpha, int sweeps, int burnIn,
                       std::size_t columnBudget) {
  return [topicWord = std::move(topicWord), alpha = std::move(alpha), sweeps, burnIn, columnBudget](
             std::span<const std::int32_t> words, std::uint64_t seed, Eigen::Ref<Eigen::VectorXd> theta) {
    thread_local GibbsFoldInScratch s;  // reused across documents: nothing is allocated per token
    if (topicWord->heldAsFloats())
      gibbsFoldInDocument(*topicWord, alpha, sweeps, burnIn, columnBudget, words, seed, theta, s, s.floatColumns);
    else
      gibbsFoldInDocument(*topicWord, alpha, sweeps, burnIn, columnBudget, words, seed, theta, s, s.doubleColumns);
  };
}

std::size_t gibbsFoldInKeptColumns(std::size_t distinctWords, std::size_t topics, std::size_t columnValueBytes,
                                   std::size_t columnBudget) {
  // A kept column is `topics` values and as many cumulative sums in doubles; the column the others'
  // are made in, the values alone.
  const std::size_t keptBytes = std::max<std::size_t>(1, topics * (columnValueBytes + sizeof(double)));
  if (distinctWords * keptBytes <= columnBudget) return distinctWords;
  const std::size_t madeBytes = topics * columnValueBytes;
  return columnBudget < madeBytes ? 0 : std::min(distinctWords, (columnBudget - madeBytes) / keptBytes);
}

FoldIn gibbsFoldIn(const TopicColumns& topicWord, Eigen::VectorXd alpha, int sweeps, int burnIn,
                   std::size_t columnBudget) {
  return gibbsFoldInOver(std::shared_ptr<const TopicColumns>(std::shared_ptr<const TopicColumns>(), &topicWord),
                         std::move(alpha), sweeps, burnIn, columnBudget);
}

FoldIn gibbsFoldIn(const Eigen::MatrixXd& topicWord, Eigen::VectorXd alpha, int sweeps, int burnIn,
                   std::size_t columnBudget) {
  return gibbsFoldInOver(std::make_shared<DenseTopicColumns<Eigen::MatrixXd>>(topicWord), std::move(alpha), sweeps,
                         burnIn, columnBudget);
}

FoldIn gibbsFoldIn(const Eigen::MatrixXf& topicWord, Eigen::VectorXd alpha, int sweeps, int burnIn,
                   std::size_t columnBudget) {
  return gibbsFoldInOver(std::make_shared<DenseTopicColumns<Eigen::MatrixXf>>(topicWord), std::move(alpha), sweeps,
                         burnIn, columnBudget);
}

FoldIn emFoldIn(const Eigen::MatrixXd& topicWord, int iterations, double smoothing) {
  return [&topicWord, iterations, smoothing](std::span<const std::int32_t> words, std::uint64_t,
                                             Eigen::Ref<Eigen::VectorXd> theta) {
    const auto K = topicWord.rows();
    std::vector<std::int32_t> ids;
    std::vector<double> counts;
    countWords(words, ids, counts);
    theta.setConstant(1.0 / static_cast<double>(K));
    Eigen::VectorXd expected(K), p(K);
    for (int iteration = 0; iteration < iterations; ++iteration) {
      expected.setConstant(smoothing);
      for (std::size_t i = 0; i < ids.size(); ++i) {
        p = topicWord.col(ids[i]).cwiseProduct(theta);
        const double norm = p.sum();
        if (norm > 0.0) expected += counts[i] / norm * p;
      }
      const double total = expected.sum();
      if (total > 0.0) theta = expected / total;
    }
  };
}

FoldIn mixtureFoldIn(const Eigen::MatrixXd& topicWord, Eigen::VectorXd mixingWeights) {
  return [&topicWord, weights = std::move(mixingWeights)](std::span<const std::int32_t> words, std::uint64_t,
                                                          Eigen::Ref<Eigen::VectorXd> theta) {
    const auto K = topicWord.rows();
    std::vector<double> logPosterior(static_cast<std::size_t>(K));
    for (Eigen::Index k = 0; k < K; ++k) {
      double sum = std::log(weights[k]);
      for (const auto w : words) sum += std::log(topicWord(k, w));
      logPosterior[static_cast<std::size_t>(k)] = sum;
    }
    const double norm = logSumExp(logPosterior);
    for (Eigen::Index k = 0; k < K; ++k) theta[k] = std::exp(logPosterior[static_cast<std::size_t>(k)] - norm);
  };
}

}  // namespace latent::core
