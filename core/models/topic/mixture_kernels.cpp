// SPDX-License-Identifier: GPL-3.0-or-later
// Mixture of categoricals kernels: k-means++-like seeding, E step, M step (002; 000 §27.2.1).
#include "core/models/topic/mixture_kernels.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/util/random.hpp"
#include "core/util/special_functions.hpp"

namespace latent::core::topic {
namespace {

constexpr std::uint64_t kSeedingStream = 0x4D49585345454400ULL;  // "MIXSEED"
constexpr std::int64_t kMixtureWordsPerChunk = 512;

// log of the seed component: half the document's word frequencies, half the corpus's.
void seedColumn(const DocWordCounts& counts, const Eigen::VectorXd& logHalfUnigram, const Eigen::VectorXd& unigram,
                std::size_t doc, Eigen::VectorXd& column) {
  column = logHalfUnigram;
  const double length = counts.docLength[doc];
  for (auto e = counts.docStart[doc]; e < counts.docStart[doc + 1]; ++e) {
    const auto w = counts.words[static_cast<std::size_t>(e)];
    column[w] = std::log(0.5 * counts.counts[static_cast<std::size_t>(e)] / length + 0.5 * unigram[w]);
  }
}

// KL(document's word frequencies || component) with the component given by its logs;
// negEntropy[doc] = sum_w p_w log p_w is computed once.
double divergence(const DocWordCounts& counts, const std::vector<double>& negEntropy, std::size_t doc,
                  const Eigen::VectorXd& logComponent) {
  double cross = 0.0;
  for (auto e = counts.docStart[doc]; e < counts.docStart[doc + 1]; ++e)
    cross += counts.counts[static_cast<std::size_t>(e)] * logComponent[counts.words[static_cast<std::size_t>(e)]];
  return std::max(negEntropy[doc] - cross / counts.docLength[doc], 0.0);
}

// A document drawn with probability proportional to weight; uniform over documents with
// tokens when all weights are zero. -1 when no document has tokens.
std::int64_t drawDocument(Rng& rng, const DocWordCounts& counts, const std::vector<double>& weight) {
  double total = 0.0;
  for (const double w : weight) total += w;
  if (total > 0.0) {
    double u = rng.uniform() * total;
    for (std::size_t d = 0; d < weight.size(); ++d) {
      if (weight[d] <= 0.0) continue;
      u -= weight[d];
      if (u <= 0.0) return static_cast<std::int64_t>(d);
    }
    for (std::size_t d = weight.size(); d-- > 0;)
      if (weight[d] > 0.0) return static_cast<std::int64_t>(d);
  }
  std::vector<std::int64_t> nonEmpty;
  for (std::size_t d = 0; d < counts.documents(); ++d)
    if (counts.docLength[d] > 0.0) nonEmpty.push_back(static_cast<std::int64_t>(d));
  if (nonEmpty.empty()) return -1;
  return nonEmpty[rng.below(nonEmpty.size())];
}

}  // namespace

double dirichletKl(const Eigen::Ref<const Eigen::VectorXd>& a, double b) {
  const double K = static_cast<double>(a.size());
  const double sumA = a.sum();
  const double psiSum = digamma(sumA);
  double kl = std::lgamma(sumA) - std::lgamma(K * b) + K * std::lgamma(b);
  for (Eigen::Index k = 0; k < a.size(); ++k) kl += -std::lgamma(a[k]) + (a[k] - b) * (digamma(a[k]) - psiSum);
  return kl;
}

bool seedMixture(const DocWordCounts& counts, std::int64_t K, std::uint64_t seed, std::uint64_t restart,
                 RowMatrix& responsibilities, std::stop_token stop) {
  const std::size_t D = counts.documents();
  const auto V = static_cast<Eigen::Index>(counts.vocabulary);
  Eigen::VectorXd unigram = Eigen::VectorXd::Ones(V);
  for (std::size_t e = 0; e < counts.entries(); ++e) unigram[counts.words[e]] += counts.counts[e];
  unigram /= unigram.sum();
  const Eigen::VectorXd logHalfUnigram = (0.5 * unigram).array().log();

  MixtureParameters start;
  start.logPhi.resize(V, K);
  start.logPi = Eigen::VectorXd::Constant(K, -std::log(static_cast<double>(K)));
  Rng rng(seed, kSeedingStream + restart);
  // best[d]: divergence of document d from its nearest seed so far (0 for empty documents).
  std::vector<double> best(D, 0.0), negEntropy(D, 0.0);
  for (std::size_t d = 0; d < D; ++d) {
    if (counts.docLength[d] <= 0.0) continue;
    best[d] = std::numeric_limits<double>::infinity();
    for (auto e = counts.docStart[d]; e < counts.docStart[d + 1]; ++e) {
      const double p = counts.counts[static_cast<std::size_t>(e)] / counts.docLength[d];
      negEntropy[d] += p * std::log(p);
    }
  }
  Eigen::VectorXd column(V), bestColumn(V);
  const int candidates = 2 + static_cast<int>(std::log(static_cast<double>(K)));
  bool stopped = false;
  for (std::int64_t k = 0; k < K; ++k) {
    // The first seed uniformly; later ones proportional to the divergence from the nearest seed.
    std::vector<double> weight(D, 0.0);
    if (k > 0) weight = best;
    double bestPotential = std::numeric_limits<double>::infinity();
    std::int64_t bestDoc = -1;
    for (int c = 0; c < (k == 0 ? 1 : candidates); ++c) {
      if (stop.stop_requested()) return false;
      const auto doc = drawDocument(rng, counts, weight);
      if (doc < 0) break;
      seedColumn(counts, logHalfUnigram, unigram, static_cast<std::size_t>(doc), column);
      const double potential = sumOverBlocks(counts.blocks(), stop, stopped, [&](std::size_t b) {
        double sum = 0.0;
        for (auto d = counts.blockStart[b]; d < counts.blockStart[b + 1]; ++d) {
          const auto i = static_cast<std::size_t>(d);
          if (counts.docLength[i] > 0.0) sum += std::min(best[i], divergence(counts, negEntropy, i, column));
        }
        return sum;
      });
      if (stopped) return false;
      if (potential < bestPotential) {
        bestPotential = potential;
        bestDoc = doc;
        bestColumn = column;
      }
    }
    if (bestDoc < 0) {
      start.logPhi.col(k) = unigram.array().log().matrix();
      continue;
    }
    start.logPhi.col(k) = bestColumn;
    for (std::size_t d = 0; d < D; ++d)
      if (counts.docLength[d] > 0.0) best[d] = std::min(best[d], divergence(counts, negEntropy, d, bestColumn));
  }
  responsibilities.resize(static_cast<Eigen::Index>(D), K);
  return !std::isnan(mixtureEStep(counts, start, responsibilities, stop));
}

bool mixtureMStep(const DocWordCounts& counts, const RowMatrix& R, const MixturePriors& priors, MixtureParameters& out,
                  std::stop_token stop) {
  const auto K = R.cols();
  const auto V = static_cast<Eigen::Index>(counts.vocabulary);
  const auto D = static_cast<double>(counts.documents());
  const double alpha = priors.alpha, beta = priors.beta;
  // Expected documents per component, summed in document order.
  Eigen::VectorXd documents = Eigen::VectorXd::Zero(K);
  for (Eigen::Index d = 0; d < R.rows(); ++d) documents += R.row(d).transpose();

  // Expected word counts n_kw = sum_d r_dk n_dw, word by word (no shared accumulators).
  out.phi.resize(V, K);
  out.logPhi.resize(V, K);
  bool stopped = false;
  forEachWordRange(V, stop, stopped, [&](std::int64_t begin, std::int64_t end) {
    for (auto w = begin; w < end; ++w) {
      auto row = out.phi.row(w);
      row.setZero();
      for (auto i = counts.wordStart[static_cast<std::size_t>(w)];
           i < counts.wordStart[static_cast<std::size_t>(w) + 1]; ++i) {
        const auto e = static_cast<std::size_t>(counts.wordEntry[static_cast<std::size_t>(i)]);
        row.noalias() += counts.counts[e] * R.row(counts.wordDoc[static_cast<std::size_t>(i)]);
      }
    }
  });
  if (stopped) return false;
  const Eigen::VectorXd tokens = out.phi.colwise().sum().transpose();  // n_k
  const Eigen::VectorXd total = tokens.array() + static_cast<double>(V) * beta;
  Eigen::VectorXd psiTotal(K);
  for (Eigen::Index k = 0; k < K; ++k) psiTotal[k] = digamma(total[k]);

  // Normalise, take logs, and sum the word terms of the prior (EM) or of the KL (VB) in fixed chunks.
  const auto chunks = static_cast<std::size_t>((V + kMixtureWordsPerChunk - 1) / kMixtureWordsPerChunk);
  const double wordTerms = sumOverBlocks(chunks, stop, stopped, [&](std::size_t c) {
    const auto begin = static_cast<Eigen::Index>(c) * kMixtureWordsPerChunk;
    const auto end = std::min<Eigen::Index>(V, begin + kMixtureWordsPerChunk);
    double sum = 0.0;
    for (auto w = begin; w < end; ++w) {
      for (Eigen::Index k = 0; k < K; ++k) {
        const double b = out.phi(w, k) + beta;
        out.phi(w, k) = b / total[k];
        if (priors.variational) {
          const double elog = digamma(b) - psiTotal[k];
          out.logPhi(w, k) = elog;
          sum += -std::lgamma(b) + (b - beta) * elog;  // word terms of KL(q(phi_k) || Dir(beta))
        } else {
          out.logPhi(w, k) = std::log(out.phi(w, k));
          sum += beta * out.logPhi(w, k);  // word terms of log Dir(phi_k | 1 + beta)
        }
      }
    }
    return sum;
  });
  if (stopped) return false;

  const double Kd = static_cast<double>(K), Vd = static_cast<double>(V);
  if (priors.variational) {
    double klPhi = wordTerms;
    for (Eigen::Index k = 0; k < K; ++k)
      klPhi += std::lgamma(total[k]) - std::lgamma(Vd * beta) + Vd * std::lgamma(beta);
    const Eigen::VectorXd a = documents.array() + alpha;
    out.pi = a / a.sum();
    const double psiSum = digamma(a.sum());
    out.logPi.resize(K);
    for (Eigen::Index k = 0; k < K; ++k) out.logPi[k] = digamma(a[k]) - psiSum;
    out.priorTerm = -klPhi - dirichletKl(a, alpha);
  } else {
    out.pi = (documents.array() + alpha) / (D + Kd * alpha);
    out.logPi = out.pi.array().log();
    // The priors' normalising constants are left out: they do not move with the parameters, and
    // per token they would dwarf the likelihood (lgamma(V (1 + beta)) per component).
    out.priorTerm = wordTerms + alpha * out.logPi.sum();
  }
  return true;
}

double mixtureEStep(const DocWordCounts& counts, const MixtureParameters& params, RowMatrix& out,
                    std::stop_token stop) {
  const auto K = params.logPi.size();
  bool stopped = false;
  const double total = sumOverBlocks(counts.blocks(), stop, stopped, [&](std::size_t b) {
    Eigen::VectorXd s(K);
    double sum = 0.0;
    for (auto d = counts.blockStart[b]; d < counts.blockStart[b + 1]; ++d) {
      s = params.logPi;
      for (auto e = counts.docStart[static_cast<std::size_t>(d)]; e < counts.docStart[static_cast<std::size_t>(d) + 1];
           ++e)
        s.noalias() += counts.counts[static_cast<std::size_t>(e)] *
                       params.logPhi.row(counts.words[static_cast<std::size_t>(e)]).transpose();
      const double top = s.maxCoeff();
      const double lse = top + std::log((s.array() - top).exp().sum());
      out.row(d) = (s.array() - lse).exp().matrix().transpose();
      sum += lse;
    }
    return sum;
  });
  return stopped ? std::numeric_limits<double>::quiet_NaN() : total;
}

}  // namespace latent::core::topic
