// SPDX-License-Identifier: GPL-3.0-or-later
// The count-splitting Gibbs sampler of discrete component analysis (see the header for the model
// and its conditionals; Buntine & Jakulin 2006), its empirical Bayes step, and GaP's fold-in.
#include "core/models/topic/discrete_components_kernels.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/util/random.hpp"
#include "core/util/special_functions.hpp"

namespace latent::core::topic {
namespace {

// Streams: iteration i draws document d from stream i (D + V) + d and word w from i (D + V) + D + w,
// so no two draws of a run share one and none depends on the thread that makes it.
std::uint64_t documentStream(std::int64_t iteration, std::size_t documents, std::int64_t vocabulary, std::size_t d) {
  return static_cast<std::uint64_t>(iteration) * (documents + static_cast<std::uint64_t>(vocabulary)) + d;
}
std::uint64_t wordStream(std::int64_t iteration, std::size_t documents, std::int64_t vocabulary, std::int64_t w) {
  return documentStream(iteration, documents, vocabulary, documents) + static_cast<std::uint64_t>(w);
}

// Counts n_kw word by word from the splits, then each b_k ~ Dir(beta + n_k.) as normalised Gamma
// draws. False when stopped.
// Each row (or each question's part of it) divided by its sum, in a fixed order.
void normaliseTopics(Eigen::MatrixXd& topics, const ResponseGroups* questions) {
  const auto K = topics.rows();
  if (!questions) {
    const Eigen::VectorXd total = topics.rowwise().sum();
    for (Eigen::Index k = 0; k < K; ++k) {
      if (total[k] > 0.0)
        topics.row(k) /= total[k];
      else
        topics.row(k).setConstant(1.0 / static_cast<double>(topics.cols()));
    }
    return;
  }
  for (const auto& answers : questions->answersOfQuestion)
    for (Eigen::Index k = 0; k < K; ++k) {
      double total = 0.0;
      for (const auto v : answers) total += topics(k, v);
      for (const auto v : answers)
        topics(k, v) = total > 0.0 ? topics(k, v) / total : 1.0 / static_cast<double>(answers.size());
    }
}

bool drawTopics(const DocWordCounts& counts, const std::vector<std::int64_t>& entryStart, double beta,
                const ResponseGroups* questions, std::uint64_t seed, std::int64_t iteration, ComponentSample& sample,
                std::stop_token stop) {
  const auto K = sample.docCounts.rows();
  const auto V = counts.vocabulary;
  sample.wordCounts.resize(K, V);
  sample.topicWord.resize(K, V);
  bool stopped = false;
  forEachWordRange(V, stop, stopped, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t w = begin; w < end; ++w) {
      int* n = sample.wordCounts.col(w).data();
      std::fill(n, n + K, 0);
      for (auto i = counts.wordStart[static_cast<std::size_t>(w)];
           i < counts.wordStart[static_cast<std::size_t>(w) + 1]; ++i) {
        const auto e = static_cast<std::size_t>(counts.wordEntry[static_cast<std::size_t>(i)]);
        for (auto t = entryStart[e]; t < entryStart[e + 1]; ++t) ++n[sample.split[static_cast<std::size_t>(t)]];
      }
      Rng rng(seed, wordStream(iteration, counts.documents(), V, w));
      double* b = sample.topicWord.col(w).data();
      for (Eigen::Index k = 0; k < K; ++k) b[k] = rng.gamma(beta + n[k]);
    }
  });
  if (stopped) return false;
  normaliseTopics(sample.topicWord, questions);
  return true;
}

// A document's factor drawn given its counts n_dk: Dir(alpha + n_d.) or Ga(a_k + n_dk, b_k + 1).
void drawDocumentFactor(const ComponentPriors& priors, const int* n, Rng& rng, double* factor, Eigen::Index K) {
  if (priors.kind == DocumentPrior::Gamma) {
    for (Eigen::Index k = 0; k < K; ++k) factor[k] = rng.gamma(priors.shape[k] + n[k]) / (priors.rate[k] + 1.0);
    return;
  }
  double sum = 0.0;
  for (Eigen::Index k = 0; k < K; ++k) sum += factor[k] = rng.gamma(priors.shape[k] + n[k]);
  for (Eigen::Index k = 0; k < K; ++k) factor[k] = sum > 0.0 ? factor[k] / sum : 1.0 / static_cast<double>(K);
}

}  // namespace

std::vector<std::int64_t> entryTokenOffsets(const DocWordCounts& counts) {
  std::vector<std::int64_t> start(counts.entries() + 1, 0);
  for (std::size_t e = 0; e < counts.entries(); ++e)
    start[e + 1] = start[e] + static_cast<std::int64_t>(std::llround(counts.counts[e]));
  return start;
}

void initComponents(const DocWordCounts& counts, const std::vector<std::int64_t>& entryStart,
                    const ComponentPriors& priors, std::int64_t components, std::uint64_t seed,
                    ComponentSample& sample) {
  const auto K = static_cast<Eigen::Index>(components);
  const std::size_t D = counts.documents();
  // A mixture's random start: every document's tokens go to one component drawn for it, so each
  // b_k starts as the word frequencies of about D / K documents, distinct but not yet specialised.
  sample.docCounts.setZero(K, static_cast<Eigen::Index>(D));
  sample.split.assign(static_cast<std::size_t>(entryStart.back()), 0);
  for (std::size_t d = 0; d < D; ++d) {
    Rng rng(seed, documentStream(0, D, counts.vocabulary, d));
    const auto k = static_cast<std::int32_t>(rng.below(static_cast<std::uint64_t>(K)));
    for (auto e = counts.docStart[d]; e < counts.docStart[d + 1]; ++e) {
      const auto entry = static_cast<std::size_t>(e);
      std::fill(sample.split.begin() + entryStart[entry], sample.split.begin() + entryStart[entry + 1], k);
      sample.docCounts(k, static_cast<Eigen::Index>(d)) += static_cast<int>(entryStart[entry + 1] - entryStart[entry]);
    }
  }
  drawTopics(counts, entryStart, priors.beta, priors.questions, seed, 0, sample, {});
  // Each document starts at its prior mean, so the first splits follow the topics alone.
  sample.docFactor.resize(K, static_cast<Eigen::Index>(D));
  if (priors.kind == DocumentPrior::Gamma)
    sample.docFactor.colwise() = (priors.shape.array() / priors.rate.array()).matrix();
  else
    sample.docFactor.colwise() = priors.shape / priors.shape.sum();
}

double componentSweep(const DocWordCounts& counts, const std::vector<std::int64_t>& entryStart,
                      const ComponentPriors& priors, std::uint64_t seed, std::int64_t iteration,
                      const ComponentSample& current, ComponentSample& next, std::stop_token stop) {
  const auto K = current.topicWord.rows();
  const std::size_t D = counts.documents();
  next.docFactor.resize(K, static_cast<Eigen::Index>(D));
  next.docCounts.resize(K, static_cast<Eigen::Index>(D));
  next.split.resize(current.split.size());
  const bool gamma = priors.kind == DocumentPrior::Gamma;

  bool stopped = false;
  const double logLikelihood = sumOverBlocks(counts.blocks(), stop, stopped, [&](std::size_t block) {
    thread_local std::vector<double> cumulative;
    cumulative.resize(static_cast<std::size_t>(K));
    double* cum = cumulative.data();
    double sum = 0.0;
    for (auto d = static_cast<std::size_t>(counts.blockStart[block]);
         d < static_cast<std::size_t>(counts.blockStart[block + 1]); ++d) {
      Rng rng(seed, documentStream(iteration, D, counts.vocabulary, d));
      const double* f = current.docFactor.col(static_cast<Eigen::Index>(d)).data();
      int* n = next.docCounts.col(static_cast<Eigen::Index>(d)).data();
      std::fill(n, n + K, 0);
      for (auto e = static_cast<std::size_t>(counts.docStart[d]); e < static_cast<std::size_t>(counts.docStart[d + 1]);
           ++e) {
        const double* b = current.topicWord.col(counts.words[e]).data();
        double total = 0.0;
        for (Eigen::Index k = 0; k < K; ++k) cum[k] = total += b[k] * f[k];
        const double count = counts.counts[e];
        // The word's rate (GaP) or probability (mPCA) under the current state.
        sum += count * std::log(std::max(total, std::numeric_limits<double>::min()));
        if (gamma) sum -= logGamma(count + 1.0);
        const bool usable = total > 0.0 && std::isfinite(total);
        for (auto t = entryStart[e]; t < entryStart[e + 1]; ++t) {
          std::int32_t k;
          if (usable) {
            const double u = rng.uniform() * total;
            k = static_cast<std::int32_t>(std::min<std::ptrdiff_t>(std::upper_bound(cum, cum + K, u) - cum, K - 1));
          } else {
            k = static_cast<std::int32_t>(rng.below(static_cast<std::uint64_t>(K)));
          }
          next.split[static_cast<std::size_t>(t)] = k;
          ++n[k];
        }
      }
      // GaP: the rates of all words of d sum to sum_k z_dk, as each b_k sums to one.
      if (gamma)
        for (Eigen::Index k = 0; k < K; ++k) sum -= f[k];
      drawDocumentFactor(priors, n, rng, next.docFactor.col(static_cast<Eigen::Index>(d)).data(), K);
    }
    return sum;
  });
  if (stopped) return std::numeric_limits<double>::quiet_NaN();
  if (!drawTopics(counts, entryStart, priors.beta, priors.questions, seed, iteration, next, stop))
    return std::numeric_limits<double>::quiet_NaN();
  return logLikelihood;
}

Eigen::MatrixXd posteriorTopics(const ComponentSample& sample, double beta, const ResponseGroups* questions) {
  Eigen::MatrixXd topics = sample.wordCounts.cast<double>().array() + beta;
  normaliseTopics(topics, questions);
  return topics;
}

Eigen::MatrixXd expectedDocumentShares(const ComponentSample& sample, const ComponentPriors& priors) {
  const auto K = sample.docCounts.rows();
  Eigen::MatrixXd shares(sample.docCounts.cols(), K);
  for (Eigen::Index d = 0; d < sample.docCounts.cols(); ++d) {
    double sum = 0.0;
    for (Eigen::Index k = 0; k < K; ++k) {
      double value = priors.shape[k] + sample.docCounts(k, d);
      if (priors.kind == DocumentPrior::Gamma) value /= priors.rate[k] + 1.0;
      sum += shares(d, k) = value;
    }
    shares.row(d) /= sum;
  }
  return shares;
}

void fitGamma(double mean, double meanLog, double& shape, double& rate) {
  // log mean >= mean log (Jensen); equality means no spread: a shape as large as we allow.
  const double spread = std::log(mean) - meanLog;
  constexpr double kMaxShape = 1e6;
  double a = spread > 0.0 ? std::min(0.5 / spread, kMaxShape) : kMaxShape;
  for (int i = 0; i < 20 && spread > 0.0 && a < kMaxShape; ++i) {
    const double inverse =
        1.0 / a + (meanLog - std::log(mean) + std::log(a) - digamma(a)) / (a * a * (1.0 / a - trigamma(a)));
    const double next = inverse > 0.0 ? std::min(1.0 / inverse, kMaxShape) : kMaxShape;
    const bool settled = std::abs(next - a) < 1e-10 * a;
    a = next;
    if (settled) break;
  }
  shape = a;
  rate = a / mean;
}

void optimizeComponentPriors(const ComponentSample& sample, ComponentPriors& priors) {
  const auto K = sample.docCounts.rows();
  const auto D = sample.docCounts.cols();
  if (D == 0) return;
  if (priors.kind == DocumentPrior::Gamma) {
    for (Eigen::Index k = 0; k < K; ++k) {
      const double a = priors.shape[k], scale = 1.0 / (priors.rate[k] + 1.0);
      double mean = 0.0, meanLog = 0.0;
      for (Eigen::Index d = 0; d < D; ++d) {
        mean += (a + sample.docCounts(k, d)) * scale;
        meanLog += digamma(a + sample.docCounts(k, d)) + std::log(scale);
      }
      fitGamma(mean / static_cast<double>(D), meanLog / static_cast<double>(D), priors.shape[k], priors.rate[k]);
    }
  } else {
    DocumentTopicHistograms histograms;
    histograms.topic.resize(static_cast<std::size_t>(K));
    for (Eigen::Index d = 0; d < D; ++d) {
      const auto length = static_cast<std::size_t>(sample.docCounts.col(d).sum());
      if (length == 0) continue;
      if (histograms.length.size() <= length) histograms.length.resize(length + 1, 0);
      ++histograms.length[length];
      for (Eigen::Index k = 0; k < K; ++k) {
        const auto c = static_cast<std::size_t>(sample.docCounts(k, d));
        if (c == 0) continue;
        auto& h = histograms.topic[static_cast<std::size_t>(k)];
        if (h.size() <= c) h.resize(c + 1, 0);
        ++h[c];
      }
    }
    optimizeAsymmetricAlpha(priors.shape, histograms);
  }
  if (priors.questions) return;
  TopicWordHistograms words;
  for (Eigen::Index w = 0; w < sample.wordCounts.cols(); ++w)
    for (Eigen::Index k = 0; k < K; ++k) {
      const auto c = static_cast<std::size_t>(sample.wordCounts(k, w));
      if (c == 0) continue;
      if (words.count.size() <= c) words.count.resize(c + 1, 0);
      ++words.count[c];
    }
  for (Eigen::Index k = 0; k < K; ++k) {
    const auto size = static_cast<std::size_t>(sample.wordCounts.row(k).sum());
    if (size == 0) continue;
    if (words.topicSize.size() <= size) words.topicSize.resize(size + 1, 0);
    ++words.topicSize[size];
  }
  priors.beta = optimizeSymmetricBeta(priors.beta, sample.wordCounts.cols(), words);
}

FoldIn gammaPoissonFoldIn(const Eigen::MatrixXd& topicWord, Eigen::VectorXd shape, Eigen::VectorXd rate, int sweeps,
                          int burnIn) {
  Eigen::VectorXd scale = (rate.array() + 1.0).inverse();
  return [&topicWord, shape = std::move(shape), scale = std::move(scale), sweeps, burnIn](
             std::span<const std::int32_t> words, std::uint64_t seed, Eigen::Ref<Eigen::VectorXd> theta) {
    const auto K = topicWord.rows();
    thread_local std::vector<std::int32_t> z;
    thread_local std::vector<double> cumulative;
    thread_local Eigen::VectorXd n;
    z.resize(words.size());
    cumulative.resize(static_cast<std::size_t>(K));
    n.setZero(K);
    double* cum = cumulative.data();
    Rng rng(seed);
    const auto draw = [&](std::int32_t w) {
      const double* b = topicWord.col(w).data();
      double total = 0.0;
      for (Eigen::Index k = 0; k < K; ++k) cum[k] = total += b[k] * (shape[k] + n[k]) * scale[k];
      const double u = rng.uniform() * total;
      return static_cast<std::int32_t>(std::min<std::ptrdiff_t>(std::upper_bound(cum, cum + K, u) - cum, K - 1));
    };
    // A start that draws each token given those before it, then sweeps.
    for (std::size_t i = 0; i < words.size(); ++i) n[z[i] = draw(words[i])] += 1.0;
    theta.setZero();
    int samples = 0;
    for (int s = 0; s < sweeps && !words.empty(); ++s) {
      for (std::size_t i = 0; i < words.size(); ++i) {
        n[z[i]] -= 1.0;
        n[z[i] = draw(words[i])] += 1.0;
      }
      if (s < burnIn) continue;
      const Eigen::ArrayXd next = (shape.array() + n.array()) * scale.array();
      theta += (next / next.sum()).matrix();
      ++samples;
    }
    if (samples == 0) theta = (shape.array() * scale.array()).matrix();
    theta /= theta.sum();
  };
}

}  // namespace latent::core::topic
