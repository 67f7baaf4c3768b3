// SPDX-License-Identifier: GPL-3.0-or-later
// Kernels of variational Bayes for LDA: sparse E steps, word-ordered statistics, ELBO terms.
#include "core/models/topic/lda_vb_kernels.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/util/random.hpp"
#include "core/util/special_functions.hpp"

namespace latent::core::topic {
namespace {

// Z_dw is a sum of positive terms; this floor only guards against every term underflowing.
constexpr double kTinyNormalizer = 1e-300;
// Fixed block sizes: reductions combine blocks in index order, so the numbers do not depend on
// how many threads ran the blocks.
constexpr std::size_t kWordBlock = 256;
constexpr std::size_t kDocumentBlock = 64;

// The sums of expectedWordTopicCounts, each column then multiplied by exp(E[log beta]) of its word
// when `expElogBeta` is given and left as it is otherwise (the mixture start's plain expected counts).
bool sumWordTopicCounts(const WordPostings& postings, const Eigen::MatrixXd& expElogTheta,
                        std::span<const double> scaledCounts, const Eigen::MatrixXd* expElogBeta,
                        Eigen::MatrixXd& statistics, std::stop_token stop) {
  statistics.resize(expElogTheta.rows(), static_cast<Eigen::Index>(postings.words.size()));
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, postings.words.size(), kWordBlock), [&](const auto& range) {
    if (stop.stop_requested()) return;
    for (std::size_t i = range.begin(); i != range.end(); ++i) {
      auto column = statistics.col(static_cast<Eigen::Index>(i));
      column.setZero();
      for (auto p = postings.offsets[i]; p < postings.offsets[i + 1]; ++p) {
        const auto slot = postings.slots[static_cast<std::size_t>(p)];
        column.noalias() += scaledCounts[static_cast<std::size_t>(postings.entries[static_cast<std::size_t>(p)])] *
                            expElogTheta.col(slot);
      }
      if (expElogBeta) column.array() *= expElogBeta->col(postings.words[i]).array();
    }
  });
  return !stop.stop_requested();
}

}  // namespace

DocumentWordCounts countDocumentWords(const Corpus& corpus) {
  const std::size_t D = corpus.documentCount();
  DocumentWordCounts out;
  // Distinct words per document first (parallel), then the entries in document order.
  std::vector<std::vector<std::int32_t>> sorted(D);
  std::vector<std::int64_t> distinct(D, 0);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, D, 16), [&](const auto& range) {
    for (std::size_t d = range.begin(); d != range.end(); ++d) {
      const auto words = corpus.document(d);
      auto& s = sorted[d];
      s.assign(words.begin(), words.end());
      std::sort(s.begin(), s.end());
      std::int64_t n = 0;
      for (std::size_t i = 0; i < s.size(); ++i)
        if (i == 0 || s[i] != s[i - 1]) ++n;
      distinct[d] = n;
    }
  });
  out.offsets.resize(D + 1);
  out.offsets[0] = 0;
  for (std::size_t d = 0; d < D; ++d) out.offsets[d + 1] = out.offsets[d] + distinct[d];
  out.words.resize(static_cast<std::size_t>(out.offsets[D]));
  out.counts.resize(out.words.size());
  out.lengths.resize(D);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, D, 16), [&](const auto& range) {
    for (std::size_t d = range.begin(); d != range.end(); ++d) {
      auto& s = sorted[d];
      auto at = static_cast<std::size_t>(out.offsets[d]);
      for (std::size_t i = 0; i < s.size();) {
        std::size_t j = i;
        while (j < s.size() && s[j] == s[i]) ++j;
        out.words[at] = s[i];
        out.counts[at] = static_cast<double>(j - i);
        ++at;
        i = j;
      }
      out.lengths[d] = static_cast<double>(s.size());
      std::vector<std::int32_t>().swap(s);
    }
  });
  out.tokens = static_cast<double>(corpus.tokenCount());
  return out;
}

void WordPostings::build(const DocumentWordCounts& docs, std::span<const std::int32_t> documents,
                         std::vector<std::int64_t>& scratch) {
  // Counting sort by word. scratch[w] first holds the word's index in `words`, then its next slot.
  words.clear();
  for (const auto d : documents)
    for (auto e = docs.offsets[d]; e < docs.offsets[d + 1]; ++e) {
      const auto w = docs.words[static_cast<std::size_t>(e)];
      if (scratch[static_cast<std::size_t>(w)] < 0) {
        scratch[static_cast<std::size_t>(w)] = 0;
        words.push_back(w);
      }
      ++scratch[static_cast<std::size_t>(w)];
    }
  std::sort(words.begin(), words.end());
  offsets.assign(words.size() + 1, 0);
  for (std::size_t i = 0; i < words.size(); ++i) {
    auto& cell = scratch[static_cast<std::size_t>(words[i])];
    offsets[i + 1] = offsets[i] + cell;
    cell = offsets[i];  // the next free posting of this word
  }
  entries.resize(static_cast<std::size_t>(offsets.back()));
  slots.resize(entries.size());
  for (std::size_t slot = 0; slot < documents.size(); ++slot) {
    const auto d = documents[slot];
    for (auto e = docs.offsets[d]; e < docs.offsets[d + 1]; ++e) {
      auto& next = scratch[static_cast<std::size_t>(docs.words[static_cast<std::size_t>(e)])];
      entries[static_cast<std::size_t>(next)] = e;
      slots[static_cast<std::size_t>(next)] = static_cast<std::int32_t>(slot);
      ++next;
    }
  }
  for (const auto w : words) scratch[static_cast<std::size_t>(w)] = -1;
}

void EStepWorkspace::resize(Eigen::Index topics) {
  accumulated.resize(topics);
  nextGamma.resize(topics);
}

AlphaTerms::AlphaTerms(const Eigen::VectorXd& alpha) : logGammaSum(logGamma(alpha.sum())) {
  for (Eigen::Index k = 0; k < alpha.size(); ++k) sumLogGamma += logGamma(alpha[k]);
}

void expDirichletExpectation(const Eigen::Ref<const Eigen::VectorXd>& gamma, Eigen::Ref<Eigen::VectorXd> out) {
  const double psiSum = digamma(gamma.sum());
  for (Eigen::Index k = 0; k < gamma.size(); ++k) out[k] = std::exp(digamma(gamma[k]) - psiSum);
}

DocumentEStep documentEStep(std::span<const std::int32_t> words, std::span<const double> counts,
                            const Eigen::MatrixXd& expElogBeta, const Eigen::VectorXd& alpha,
                            Eigen::Ref<Eigen::VectorXd> gamma, Eigen::Ref<Eigen::VectorXd> expElogTheta,
                            std::span<double> scaledCounts, const EStepControl& control, EStepWorkspace& workspace) {
  const auto K = expElogBeta.rows();
  const auto n = static_cast<Eigen::Index>(words.size());
  // The document's columns of exp(E[log beta]) side by side: every pass is then two matrix-vector
  // products over contiguous memory.
  auto& beta = workspace.beta;
  beta.resize(K, n);
  for (Eigen::Index i = 0; i < n; ++i) beta.col(i) = expElogBeta.col(words[static_cast<std::size_t>(i)]);
  const Eigen::Map<const Eigen::VectorXd> n_w(counts.data(), n);
  auto& normalizers = workspace.normalizers;
  auto& scaled = workspace.scaled;
  auto& accumulated = workspace.accumulated;
  auto& next = workspace.nextGamma;
  DocumentEStep result;
  const int passes = std::max(1, control.maxIterations);
  for (int pass = 1; pass <= passes; ++pass) {
    expDirichletExpectation(gamma, expElogTheta);
    // One pass: Z_dw for every distinct word (eq. 27.48's normaliser), then the expected topic
    // counts sum_w n_dw phi_dwk = exp(E[log theta_dk]) sum_w exp(E[log beta_kw]) n_dw / Z_dw (eq. 27.44).
    normalizers.noalias() = beta.transpose() * expElogTheta;
    scaled = n_w.array() / normalizers.array().max(kTinyNormalizer);
    accumulated.noalias() = beta * scaled;
    next = alpha + expElogTheta.cwiseProduct(accumulated);
    const double change = (next - gamma).cwiseAbs().mean();
    gamma = next;
    result.iterations = pass;
    if (change < control.tolerance) break;
  }
  // The last pass's n / Z for the statistics, and sum_w n_dw log Z_dw for the bound.
  double logNormalizer = 0.0;
  for (Eigen::Index i = 0; i < n; ++i) {
    scaledCounts[static_cast<std::size_t>(i)] = scaled[i];
    logNormalizer += n_w[i] * std::log(n_w[i] / scaled[i]);
  }
  result.logNormalizer = logNormalizer;
  return result;
}

void EStepState::reset(const DocumentWordCounts& docs, const Eigen::VectorXd& alpha, std::size_t slots) {
  const auto K = alpha.size();
  const std::size_t D = docs.documentCount();
  gammas.resize(K, static_cast<Eigen::Index>(D));
  for (std::size_t d = 0; d < D; ++d)
    gammas.col(static_cast<Eigen::Index>(d)) = alpha.array() + docs.lengths[d] / static_cast<double>(K);
  expElogTheta.resize(K, static_cast<Eigen::Index>(slots));
  scaledCounts.assign(docs.entryCount(), 0.0);
  logNormalizers.assign(D, 0.0);
  bounds.assign(D, 0.0);
  passes.assign(D, 0);
}

bool corpusEStep(const DocumentWordCounts& docs, std::span<const std::int32_t> documents,
                 const Eigen::MatrixXd& expElogBeta, const Eigen::VectorXd& alpha, const EStepControl& control,
                 EStepStart start, double baseline, EStepState& state, std::stop_token stop) {
  const auto K = expElogBeta.rows();
  const std::size_t slots = documents.size();
  const bool fallback = start == EStepStart::FreshWithFallback;
  const AlphaTerms terms(alpha);
  if (fallback) {
    state.warmGammas.resize(K, static_cast<Eigen::Index>(slots));
    for (std::size_t slot = 0; slot < slots; ++slot)
      state.warmGammas.col(static_cast<Eigen::Index>(slot)) = state.gammas.col(documents[slot]);
  }
  // Runs the E step of every slot; `warm` writes to the fallback's buffers instead of the state's.
  auto run = [&](bool warm) {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, slots, 4), [&](const auto& range) {
      if (stop.stop_requested()) return;
      EStepWorkspace workspace;
      workspace.resize(K);
      for (std::size_t slot = range.begin(); slot != range.end(); ++slot) {
        const auto d = static_cast<std::size_t>(documents[slot]);
        const auto s = static_cast<Eigen::Index>(slot);
        const auto begin = static_cast<std::size_t>(docs.offsets[d]);
        const auto n = static_cast<std::size_t>(docs.offsets[d + 1]) - begin;
        auto gamma = warm ? state.warmGammas.col(s) : state.gammas.col(static_cast<Eigen::Index>(d));
        auto theta = warm ? state.warmExpElogTheta.col(s) : state.expElogTheta.col(s);
        auto scaled = std::span(warm ? state.warmScaledCounts : state.scaledCounts).subspan(begin, n);
        if (!warm && start != EStepStart::Warm) gamma = alpha.array() + docs.lengths[d] / static_cast<double>(K);
        const auto e = documentEStep(std::span(docs.words).subspan(begin, n), std::span(docs.counts).subspan(begin, n),
                                     expElogBeta, alpha, gamma, theta, scaled, control, workspace);
        const double bound =
            documentBound(e.logNormalizer, gamma, theta, alpha, alpha, terms.logGammaSum, terms.sumLogGamma);
        if (warm) {
          state.warmLogNormalizers[slot] = e.logNormalizer;
          state.warmBounds[slot] = bound;
          state.passes[d] += e.iterations;
        } else {
          state.logNormalizers[d] = e.logNormalizer;
          state.bounds[d] = bound;
          state.passes[d] = e.iterations;
        }
      }
    });
  };
  run(false);
  if (stop.stop_requested()) return false;
  if (!fallback) return true;
  double fresh = 0.0;
  for (const auto d : documents) fresh += state.bounds[static_cast<std::size_t>(d)];
  if (!(fresh < baseline)) return true;

  // The fresh starts lost ground: run the warm starts too and keep each document's better one,
  // which is at least what the warm starts alone reach, itself at least the baseline.
  state.warmExpElogTheta.resize(K, static_cast<Eigen::Index>(slots));
  state.warmScaledCounts.resize(state.scaledCounts.size());
  state.warmLogNormalizers.resize(slots);
  state.warmBounds.resize(slots);
  run(true);
  if (stop.stop_requested()) return false;
  for (std::size_t slot = 0; slot < slots; ++slot) {
    const auto d = static_cast<std::size_t>(documents[slot]);
    if (!(state.warmBounds[slot] > state.bounds[d])) continue;
    const auto s = static_cast<Eigen::Index>(slot);
    state.gammas.col(static_cast<Eigen::Index>(d)) = state.warmGammas.col(s);
    state.expElogTheta.col(s) = state.warmExpElogTheta.col(s);
    const auto begin = static_cast<std::ptrdiff_t>(docs.offsets[d]),
               end = static_cast<std::ptrdiff_t>(docs.offsets[d + 1]);
    std::copy(state.warmScaledCounts.begin() + begin, state.warmScaledCounts.begin() + end,
              state.scaledCounts.begin() + begin);
    state.logNormalizers[d] = state.warmLogNormalizers[slot];
    state.bounds[d] = state.warmBounds[slot];
  }
  return true;
}

bool expectedWordTopicCounts(const WordPostings& postings, const Eigen::MatrixXd& expElogTheta,
                             std::span<const double> scaledCounts, const Eigen::MatrixXd& expElogBeta,
                             Eigen::MatrixXd& statistics, std::stop_token stop) {
  return sumWordTopicCounts(postings, expElogTheta, scaledCounts, &expElogBeta, statistics, stop);
}

double logGamma(double x) noexcept {
  int sign = 0;
  return ::lgamma_r(x, &sign);
}

double documentBound(double logNormalizer, const Eigen::Ref<const Eigen::VectorXd>& gamma,
                     const Eigen::Ref<const Eigen::VectorXd>& expElogTheta, const Eigen::VectorXd& alphaUsed,
                     const Eigen::VectorXd& alpha, double logGammaSumAlpha, double sumLogGammaAlpha) {
  const double gammaSum = gamma.sum();
  const double psiSum = digamma(gammaSum);
  double bound = logNormalizer + logGammaSumAlpha - sumLogGammaAlpha - logGamma(gammaSum);
  for (Eigen::Index k = 0; k < gamma.size(); ++k) {
    const double expected = gamma[k] - alphaUsed[k];  // n_dk
    // -n_dk log expElogTheta_k: the E[log q(z)] and E[log p(z | theta)] terms of the last pass.
    if (expected != 0.0) bound -= expected * std::log(expElogTheta[k]);
    bound += (alpha[k] + expected - gamma[k]) * (digamma(gamma[k]) - psiSum) + logGamma(gamma[k]);
  }
  return bound;
}

Eigen::MatrixXd VariationalTopics::posteriorMean() const {
  Eigen::MatrixXd mean = lambda;
  for (Eigen::Index k = 0; k < mean.rows(); ++k) mean.row(k) /= mean.row(k).sum();
  return mean;
}

double VariationalTopics::sumElogBeta() const {
  // Column sums then a sequential total: fixed order.
  const Eigen::VectorXd columns = elogBeta.colwise().sum().transpose();
  double total = 0.0;
  for (Eigen::Index w = 0; w < columns.size(); ++w) total += columns[w];
  return total;
}

VariationalTopics randomTopics(Eigen::Index topics, Eigen::Index vocabulary, std::uint64_t seed, std::uint64_t stream) {
  VariationalTopics t;
  t.lambda.resize(topics, vocabulary);
  for (Eigen::Index k = 0; k < topics; ++k) {
    Rng rng(seed, stream + static_cast<std::uint64_t>(k));
    for (Eigen::Index w = 0; w < vocabulary; ++w) t.lambda(k, w) = rng.gamma(100.0) / 100.0;
  }
  refreshTopics(t, 1.0, nullptr);
  return t;
}

TopicBound refreshTopics(VariationalTopics& topics, double eta, const WordStatistics* statistics) {
  const auto K = topics.topics(), V = topics.vocabulary();
  topics.elogBeta.resize(K, V);
  topics.expElogBeta.resize(K, V);
  // Row sums of lambda over fixed word blocks, combined in block order.
  const std::size_t blocks = (static_cast<std::size_t>(V) + kWordBlock - 1) / kWordBlock;
  Eigen::MatrixXd partial = Eigen::MatrixXd::Zero(K, static_cast<Eigen::Index>(blocks));
  tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t b) {
    const auto begin = static_cast<Eigen::Index>(b * kWordBlock);
    const auto end = std::min(V, begin + static_cast<Eigen::Index>(kWordBlock));
    for (Eigen::Index w = begin; w < end; ++w) partial.col(static_cast<Eigen::Index>(b)) += topics.lambda.col(w);
  });
  Eigen::VectorXd rowSums = Eigen::VectorXd::Zero(K);
  for (Eigen::Index b = 0; b < partial.cols(); ++b) rowSums += partial.col(b);
  Eigen::VectorXd psiRowSums(K);
  for (Eigen::Index k = 0; k < K; ++k) psiRowSums[k] = digamma(rowSums[k]);

  std::vector<double> blockTerms(blocks, 0.0), blockCorrections(blocks, 0.0);
  tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t b) {
    const auto begin = static_cast<Eigen::Index>(b * kWordBlock);
    const auto end = std::min(V, begin + static_cast<Eigen::Index>(kWordBlock));
    double sum = 0.0, correction = 0.0;
    // The next column of the statistics: the first word of the block that has one.
    std::size_t next = 0;
    if (statistics)
      next = static_cast<std::size_t>(std::lower_bound(statistics->words.begin(), statistics->words.end(), begin) -
                                      statistics->words.begin());
    for (Eigen::Index w = begin; w < end; ++w) {
      const bool counted = statistics && next < statistics->words.size() && statistics->words[next] == w;
      for (Eigen::Index k = 0; k < K; ++k) {
        const double lambda = topics.lambda(k, w);
        const double fresh = digamma(lambda) - psiRowSums[k];
        if (counted)
          correction += statistics->counts(k, static_cast<Eigen::Index>(next)) * (fresh - topics.elogBeta(k, w));
        sum += (eta - lambda) * fresh + logGamma(lambda);
        topics.elogBeta(k, w) = fresh;
        topics.expElogBeta(k, w) = std::exp(fresh);
      }
      if (counted) ++next;
    }
    blockTerms[b] = sum;
    blockCorrections[b] = correction;
  });
  TopicBound bound;
  bound.prior =
      static_cast<double>(K) * (logGamma(static_cast<double>(V) * eta) - static_cast<double>(V) * logGamma(eta));
  for (Eigen::Index k = 0; k < K; ++k) bound.prior -= logGamma(rowSums[k]);
  for (std::size_t b = 0; b < blocks; ++b) {
    bound.prior += blockTerms[b];
    bound.correction += blockCorrections[b];
  }
  return bound;
}

Eigen::VectorXd meanElogTheta(const Eigen::MatrixXd& gammas) {
  const auto K = gammas.rows();
  const auto D = static_cast<std::size_t>(gammas.cols());
  const std::size_t blocks = (D + kDocumentBlock - 1) / kDocumentBlock;
  Eigen::MatrixXd partial = Eigen::MatrixXd::Zero(K, static_cast<Eigen::Index>(blocks));
  tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t b) {
    const std::size_t end = std::min(D, (b + 1) * kDocumentBlock);
    for (std::size_t d = b * kDocumentBlock; d < end; ++d) {
      const auto gamma = gammas.col(static_cast<Eigen::Index>(d));
      const double psiSum = digamma(gamma.sum());
      for (Eigen::Index k = 0; k < K; ++k) partial(k, static_cast<Eigen::Index>(b)) += digamma(gamma[k]) - psiSum;
    }
  });
  Eigen::VectorXd mean = Eigen::VectorXd::Zero(K);
  for (Eigen::Index b = 0; b < partial.cols(); ++b) mean += partial.col(b);
  return D > 0 ? Eigen::VectorXd(mean / static_cast<double>(D)) : mean;
}

}  // namespace latent::core::topic

namespace latent::core::topic {

Eigen::MatrixXd mixtureInitialLambda(const DocumentWordCounts& docs, const WordPostings& postings, Eigen::Index topics,
                                     Eigen::Index vocabulary, double eta, int iterations, std::uint64_t seed,
                                     std::uint64_t stream, std::stop_token stop) {
  const auto K = topics, V = vocabulary;
  const std::size_t D = docs.documentCount();
  Eigen::MatrixXd logPhi(K, V);
  // k-means++ seeding (Arthur & Vassilvitskii 2007) with the cosine distance between documents'
  // word counts: each component starts at a document far from the ones already chosen.
  Rng rng(seed, stream);
  std::vector<double> norms(D, 0.0), distance(D, 1.0);
  for (std::size_t d = 0; d < D; ++d) {
    for (auto e = docs.offsets[d]; e < docs.offsets[d + 1]; ++e)
      norms[d] += docs.counts[static_cast<std::size_t>(e)] * docs.counts[static_cast<std::size_t>(e)];
    norms[d] = std::sqrt(norms[d]);
  }
  Eigen::VectorXd corpusFrequency = Eigen::VectorXd::Zero(V), center = Eigen::VectorXd::Zero(V);
  for (std::size_t e = 0; e < docs.entryCount(); ++e) corpusFrequency[docs.words[e]] += docs.counts[e];
  corpusFrequency /= std::max(1.0, corpusFrequency.sum());
  for (Eigen::Index k = 0; k < K; ++k) {
    std::size_t chosen = 0;
    if (k == 0 || D == 0) {
      chosen = D > 0 ? static_cast<std::size_t>(rng.below(D)) : 0;
    } else {
      double total = 0.0;
      for (std::size_t d = 0; d < D; ++d) total += distance[d] * distance[d];
      double u = rng.uniform() * total;
      chosen = static_cast<std::size_t>(rng.below(D));  // when every distance is zero
      for (std::size_t d = 0; d < D && total > 0.0; ++d)
        if ((u -= distance[d] * distance[d]) <= 0.0) {
          chosen = d;
          break;
        }
    }
    // The component: half the seed document's words, half the corpus's word frequencies, so that
    // no word starts impossible.
    center.setZero();
    double length = 0.0;
    if (D > 0)
      for (auto e = docs.offsets[chosen]; e < docs.offsets[chosen + 1]; ++e) {
        center[docs.words[static_cast<std::size_t>(e)]] = docs.counts[static_cast<std::size_t>(e)];
        length += docs.counts[static_cast<std::size_t>(e)];
      }
    logPhi.row(k) = ((center / std::max(1.0, length) + corpusFrequency) / 2.0).array().max(1e-300).log().transpose();
    if (D == 0 || norms[chosen] == 0.0) continue;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, D, 256), [&](const auto& range) {
      for (std::size_t d = range.begin(); d != range.end(); ++d) {
        double dot = 0.0;
        for (auto e = docs.offsets[d]; e < docs.offsets[d + 1]; ++e)
          dot += docs.counts[static_cast<std::size_t>(e)] * center[docs.words[static_cast<std::size_t>(e)]];
        const double cosine = norms[d] > 0.0 ? dot / (norms[d] * norms[chosen]) : 1.0;
        distance[d] = std::min(distance[d], std::max(0.0, 1.0 - cosine));
      }
    });
  }
  Eigen::VectorXd logPi = Eigen::VectorXd::Constant(K, -std::log(static_cast<double>(K)));
  Eigen::MatrixXd responsibilities(K, static_cast<Eigen::Index>(D));
  // The expected counts, K x (words in the postings): a word no document uses has none.
  Eigen::MatrixXd counts;
  Eigen::VectorXd totals(K), absent(K);
  for (int iteration = 0; iteration < iterations && !stop.stop_requested(); ++iteration) {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, D, 16), [&](const auto& range) {
      if (stop.stop_requested()) return;
      Eigen::VectorXd l(K);
      for (std::size_t d = range.begin(); d != range.end(); ++d) {
        l = logPi;
        for (auto e = docs.offsets[d]; e < docs.offsets[d + 1]; ++e)
          l += docs.counts[static_cast<std::size_t>(e)] * logPhi.col(docs.words[static_cast<std::size_t>(e)]);
        const double top = l.maxCoeff();
        auto r = responsibilities.col(static_cast<Eigen::Index>(d));
        r = (l.array() - top).exp().matrix();
        r /= r.sum();
      }
    });
    // Expected counts word by word: each posting weighs its plain count.
    if (!sumWordTopicCounts(postings, responsibilities, docs.counts, nullptr, counts, stop)) break;
    Eigen::VectorXd sizes = responsibilities.rowwise().sum();
    logPi = ((sizes.array() + 1.0) / (static_cast<double>(D) + static_cast<double>(K))).log();
    // phi_kw = (counts_kw + eta) / (sum_w counts_kw + V eta). Each total is summed in word order and
    // each log taken one value at a time, as a dense K x V of counts would give them.
    totals.setZero();
    for (Eigen::Index i = 0; i < counts.cols(); ++i) totals += counts.col(i);
    for (Eigen::Index k = 0; k < K; ++k) {
      totals[k] += eta * static_cast<double>(V);
      absent[k] = std::log(eta / totals[k]);
    }
    logPhi.colwise() = absent;
    for (std::size_t i = 0; i < postings.words.size(); ++i) {
      auto column = logPhi.col(postings.words[i]);
      for (Eigen::Index k = 0; k < K; ++k)
        column[k] = std::log((counts(k, static_cast<Eigen::Index>(i)) + eta) / totals[k]);
    }
  }
  Eigen::MatrixXd lambda = Eigen::MatrixXd::Constant(K, V, eta);
  for (Eigen::Index i = 0; i < counts.cols(); ++i)
    lambda.col(postings.words[static_cast<std::size_t>(i)]) = counts.col(i).array() + eta;
  return lambda;
}

ResourceNeeds variationalTopicNeeds(const FitData& data, const nlohmann::json& options) {
  const auto K = options.at("k").get<std::uint64_t>();
  const auto V = static_cast<std::uint64_t>(data.corpus->vocabularySize());
  const auto D = static_cast<std::uint64_t>(data.fullDocumentCount);
  return {3 * K * V * 8 + D * K * 8, std::max(K * V, D * K) * 8};
}

}  // namespace latent::core::topic
