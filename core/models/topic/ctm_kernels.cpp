// SPDX-License-Identifier: GPL-3.0-or-later
// CTM kernels (see the header for the updates): one document's variational E step, the EM
// iteration over documents in fixed blocks with the topics re-estimated word by word, the
// logistic-normal fold-in of a held-out document, and the topics' correlations.
#include "core/models/topic/ctm_kernels.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/models/topic/dirichlet_hyperparameters.hpp"
#include "core/models/topic/lda_vb_kernels.hpp"
#include "core/models/topic/plsa_kernels.hpp"
#include "core/util/log_sum_exp.hpp"
#include "core/util/random.hpp"

namespace latent::core::topic {
namespace {

struct CtmScratch {
  Eigen::VectorXd expected, weights, p, gradient, direction, candidate;
  Eigen::MatrixXd curvature;
};

// The document's bound at (lambda, nu2), with `expected` set to sum_w n_w phi_w at the optimal
// phi for this lambda (where the phi terms and their entropy add up to log sum_k e^lambda_k b_kw).
double ctmDocumentBound(std::span<const std::int32_t> words, std::span<const double> counts, double length,
                        const CtmGlobals& g, const Eigen::MatrixXd& wordWeights, const Eigen::VectorXd& lambda,
                        const Eigen::VectorXd& nu2, CtmScratch& s) {
  const auto K = lambda.size();
  const double top = lambda.maxCoeff();
  s.weights = (lambda.array() - top).exp();
  s.expected.setZero(K);
  double bound = 0.0;
  for (std::size_t e = 0; e < words.size(); ++e) {
    const double* b = wordWeights.col(words[e]).data();
    double total = 0.0;
    for (Eigen::Index k = 0; k < K; ++k) total += s.weights[k] * b[k];
    if (!(total > 0.0)) continue;
    for (Eigen::Index k = 0; k < K; ++k) s.expected[k] += counts[e] * s.weights[k] * b[k] / total;
    bound += counts[e] * (std::log(total) + top);
  }
  const auto free = K - 1;
  const Eigen::VectorXd centred = lambda.head(free) - g.mu;
  bound -= length * logSumExp(lambda + 0.5 * nu2);
  bound -= 0.5 * (centred.dot(g.precision * centred) + g.precision.diagonal().dot(nu2.head(free)));
  bound += 0.5 * nu2.head(free).array().log().sum() - 0.5 * g.logDetSigma + 0.5 * static_cast<double>(free);
  return bound;
}

// q(z) of one document updated in place until its bound settles; returns the final bound.
double updateCtmDocument(std::span<const std::int32_t> words, std::span<const double> counts, double length,
                         const CtmGlobals& g, const Eigen::MatrixXd& wordWeights, const CtmEStep& estep,
                         Eigen::VectorXd& lambda, Eigen::VectorXd& nu2, CtmScratch& s) {
  const auto free = lambda.size() - 1;
  double previous = -std::numeric_limits<double>::infinity();
  for (int iteration = 0;; ++iteration) {
    const double bound = ctmDocumentBound(words, counts, length, g, wordWeights, lambda, nu2, s);
    if (iteration == estep.maxIterations || std::abs(bound - previous) < estep.tolerance * std::max(1.0, length))
      return bound;
    previous = bound;
    // Newton on lambda with phi (s.expected) and nu2 fixed: the objective is concave.
    // Only the first K - 1 coordinates move; the last stays 0.
    const auto objective = [&](const Eigen::VectorXd& l) {
      const Eigen::VectorXd c = l.head(free) - g.mu;
      return s.expected.dot(l) - length * logSumExp(l + 0.5 * nu2) - 0.5 * c.dot(g.precision * c);
    };
    s.p = lambda + 0.5 * nu2;
    s.p = (s.p.array() - logSumExp(s.p)).exp();
    s.gradient = s.expected.head(free) - length * s.p.head(free) - g.precision * (lambda.head(free) - g.mu);
    s.curvature = g.precision;
    s.curvature.diagonal() += length * s.p.head(free);
    s.curvature.noalias() -= length * s.p.head(free) * s.p.head(free).transpose();
    s.direction = s.curvature.ldlt().solve(s.gradient);
    const double before = objective(lambda);
    double step = 1.0;
    for (int halving = 0; halving < 30; ++halving, step *= 0.5) {
      s.candidate = lambda;
      s.candidate.head(free) += step * s.direction;
      if (objective(s.candidate) >= before) {
        lambda = s.candidate;
        break;
      }
    }
    // nu2 towards its fixed point 1 / nu2_k = (Sigma^-1)_kk + N p_k at the new lambda: the bound is
    // concave in nu2 and the step to the fixed point an ascent direction, but the whole step can
    // overshoot when p moves with nu2 (few words, a wide prior), so it is halved (in log nu2)
    // until the bound does not fall.
    const auto nuObjective = [&](const Eigen::VectorXd& v) {
      return -length * logSumExp(lambda + 0.5 * v) - 0.5 * g.precision.diagonal().dot(v.head(free)) +
             0.5 * v.head(free).array().log().sum();
    };
    for (int i = 0; i < 3; ++i) {
      s.p = lambda + 0.5 * nu2;
      s.p = (s.p.array() - logSumExp(s.p)).exp();
      const Eigen::ArrayXd target = (g.precision.diagonal().array() + length * s.p.head(free).array()).inverse();
      const double start = nuObjective(nu2);
      double fraction = 1.0;
      for (int halving = 0; halving < 20; ++halving, fraction *= 0.5) {
        s.candidate = nu2;
        s.candidate.head(free) =
            (nu2.head(free).array().log() + fraction * (target.log() - nu2.head(free).array().log())).exp().matrix();
        if (nuObjective(s.candidate) >= start) {
          nu2 = s.candidate;
          break;
        }
      }
    }
  }
}

}  // namespace

void refreshCtmPrecision(CtmGlobals& globals) {
  const auto K = globals.sigma.rows();
  const Eigen::LLT<Eigen::MatrixXd> chol(globals.sigma);
  globals.precision = chol.solve(Eigen::MatrixXd::Identity(K, K));
  globals.precision = 0.5 * (globals.precision + globals.precision.transpose()).eval();
  globals.logDetSigma = 2.0 * chol.matrixLLT().diagonal().array().log().sum();
}

void initCtm(const DocWordCounts& counts, std::int64_t K, double beta, std::uint64_t seed, std::uint64_t restart,
             CtmGlobals& globals, CtmDocuments& documents) {
  const std::size_t D = counts.documents();
  // PLSA's seeding (documents picked as k-means++ does, then one mixture M step): a symmetric start
  // (every topic near the corpus's word frequencies) would stay symmetric under EM.
  PlsaState seeded;
  initPlsa(counts, K, seed, restart, PlsaSettings{1.0, std::max(beta, 1e-3)}, seeded, {});
  // q(b_k) = Dir(beta + its share of the tokens spread as PLSA's topic k).
  globals.topics.lambda = seeded.phi.transpose();
  for (Eigen::Index k = 0; k < K; ++k)
    globals.topics.lambda.row(k) *= counts.tokens / static_cast<double>(K) / globals.topics.lambda.row(k).sum();
  globals.topics.lambda.array() += beta;
  globals.topicBound = refreshTopics(globals.topics, beta, nullptr).prior;
  globals.topicWord = globals.topics.posteriorMean();
  globals.mu = Eigen::VectorXd::Zero(K - 1);
  globals.sigma = Eigen::MatrixXd::Identity(K - 1, K - 1);
  refreshCtmPrecision(globals);
  globals.beta = beta;
  documents.lambda = Eigen::MatrixXd::Zero(K, static_cast<Eigen::Index>(D));
  documents.nu2 = Eigen::MatrixXd::Ones(K, static_cast<Eigen::Index>(D));
  documents.nu2.row(K - 1).setZero();
}

double ctmIteration(const DocWordCounts& counts, const CtmEStep& estep, CtmGlobals& globals, CtmDocuments& documents,
                    std::stop_token stop, bool reestimateBeta) {
  const auto K = globals.topics.topics();
  const auto V = globals.topics.vocabulary();
  const std::size_t D = counts.documents();
  CtmDocuments next = documents;
  bool stopped = false;
  const double documentsBound = sumOverBlocks(counts.blocks(), stop, stopped, [&](std::size_t block) {
    thread_local CtmScratch scratch;
    Eigen::VectorXd lambda, nu2;
    double sum = 0.0;
    for (auto d = static_cast<std::size_t>(counts.blockStart[block]);
         d < static_cast<std::size_t>(counts.blockStart[block + 1]); ++d) {
      const auto first = static_cast<std::size_t>(counts.docStart[d]);
      const auto size = static_cast<std::size_t>(counts.docStart[d + 1]) - first;
      lambda = next.lambda.col(static_cast<Eigen::Index>(d));
      nu2 = next.nu2.col(static_cast<Eigen::Index>(d));
      sum += updateCtmDocument({counts.words.data() + first, size}, {counts.counts.data() + first, size},
                               counts.docLength[d], globals, globals.topics.expElogBeta, estep, lambda, nu2, scratch);
      next.lambda.col(static_cast<Eigen::Index>(d)) = lambda;
      next.nu2.col(static_cast<Eigen::Index>(d)) = nu2;
    }
    return sum;
  });
  if (stopped) return std::numeric_limits<double>::quiet_NaN();

  // The topics: each word's expected counts from its documents' phi, word by word.
  Eigen::MatrixXd weights(K, static_cast<Eigen::Index>(D));
  for (Eigen::Index d = 0; d < weights.cols(); ++d)
    weights.col(d) = (next.lambda.col(d).array() - next.lambda.col(d).maxCoeff()).exp();
  Eigen::MatrixXd topics(K, V);
  forEachWordRange(V, stop, stopped, [&](std::int64_t begin, std::int64_t end) {
    Eigen::VectorXd p(K);
    for (std::int64_t w = begin; w < end; ++w) {
      auto column = topics.col(w);
      column.setZero();
      const double* b = globals.topics.expElogBeta.col(w).data();
      for (auto i = counts.wordStart[static_cast<std::size_t>(w)];
           i < counts.wordStart[static_cast<std::size_t>(w) + 1]; ++i) {
        const auto e = static_cast<std::size_t>(counts.wordEntry[static_cast<std::size_t>(i)]);
        const auto d = static_cast<Eigen::Index>(counts.wordDoc[static_cast<std::size_t>(i)]);
        for (Eigen::Index k = 0; k < K; ++k) p[k] = weights(k, d) * b[k];
        const double total = p.sum();
        if (total > 0.0) column += (counts.counts[e] / total) * p;
      }
    }
  });
  if (stopped) return std::numeric_limits<double>::quiet_NaN();
  // The bound at the new q(z) and the old q(b), mu and Sigma; then q(b_k) = Dir(beta + expected
  // counts) (000 eq. 27.49 with the CTM's phi) and, when asked, beta for the next iteration.
  const double bound = documentsBound + globals.topicBound;
  globals.topics.lambda = topics.array() + globals.beta;
  globals.topicBound = refreshTopics(globals.topics, globals.beta, nullptr).prior;
  if (reestimateBeta) globals.beta = optimizeSymmetricEtaFromLog(globals.beta, K, V, globals.topics.sumElogBeta());

  // The logistic normal's mean and covariance (of the first K - 1 coordinates) from the documents
  // that have words.
  const auto free = K - 1;
  Eigen::VectorXd mu = Eigen::VectorXd::Zero(free);
  double used = 0.0;
  for (std::size_t d = 0; d < D; ++d)
    if (counts.docLength[d] > 0) {
      mu += next.lambda.col(static_cast<Eigen::Index>(d)).head(free);
      used += 1.0;
    }
  if (used > 0.0) {
    mu /= used;
    Eigen::MatrixXd sigma = Eigen::MatrixXd::Zero(free, free);
    for (std::size_t d = 0; d < D; ++d) {
      if (counts.docLength[d] <= 0) continue;
      const Eigen::VectorXd c = next.lambda.col(static_cast<Eigen::Index>(d)).head(free) - mu;
      sigma.noalias() += c * c.transpose();
      sigma.diagonal() += next.nu2.col(static_cast<Eigen::Index>(d)).head(free);
    }
    globals.mu = mu;
    // Shrunk towards the identity (Ledoit & Wolf's target, at a fixed weight): the maximum-likelihood
    // estimate from short documents is far too wide, and the fold-in then too sure of a document's topics.
    globals.sigma = (1.0 - estep.shrinkage) * sigma / used;
    globals.sigma.diagonal().array() += estep.shrinkage;
    refreshCtmPrecision(globals);
  }
  globals.topicWord = globals.topics.posteriorMean();
  documents = std::move(next);
  return bound;
}

Eigen::MatrixXd ctmExpectedProportions(const CtmDocuments& documents, std::uint64_t seed, int samples) {
  const auto K = documents.lambda.rows();
  Eigen::MatrixXd out(documents.lambda.cols(), K);
  Eigen::VectorXd z(K);
  for (Eigen::Index d = 0; d < documents.lambda.cols(); ++d) {
    Rng rng(seed, static_cast<std::uint64_t>(d));
    Eigen::VectorXd sum = Eigen::VectorXd::Zero(K);
    for (int i = 0; i < samples; ++i) {
      for (Eigen::Index k = 0; k < K; ++k)
        z[k] = documents.lambda(k, d) + std::sqrt(documents.nu2(k, d)) * rng.normal();
      sum += (z.array() - logSumExp(z)).exp().matrix();
    }
    out.row(d) = (sum / sum.sum()).transpose();
  }
  return out;
}

Eigen::MatrixXd ctmCentredCovariance(const Eigen::MatrixXd& sigma) {
  const auto K = sigma.rows() + 1;
  Eigen::MatrixXd full = Eigen::MatrixXd::Zero(K, K);
  full.topLeftCorner(K - 1, K - 1) = sigma;
  const Eigen::MatrixXd centre =
      Eigen::MatrixXd::Identity(K, K) - Eigen::MatrixXd::Constant(K, K, 1.0 / static_cast<double>(K));
  return centre * full * centre;
}

Eigen::VectorXd ctmCentredMean(const Eigen::VectorXd& mu) {
  Eigen::VectorXd full = Eigen::VectorXd::Zero(mu.size() + 1);
  full.head(mu.size()) = mu;
  return full.array() - full.mean();
}

Eigen::MatrixXd ctmCorrelations(const Eigen::MatrixXd& sigma) {
  const Eigen::MatrixXd centred = ctmCentredCovariance(sigma);
  const Eigen::VectorXd scale = centred.diagonal().cwiseMax(1e-300).cwiseSqrt().cwiseInverse();
  return scale.asDiagonal() * centred * scale.asDiagonal();
}

CtmDocuments fitCtmDocument(std::span<const std::int32_t> words, const CtmGlobals& globals,
                            const Eigen::MatrixXd& wordWeights, const CtmEStep& estep) {
  std::vector<std::int32_t> ids(words.begin(), words.end());
  std::sort(ids.begin(), ids.end());
  std::vector<double> counts;
  std::size_t n = 0;
  for (std::size_t i = 0; i < ids.size();) {
    std::size_t j = i;
    while (j < ids.size() && ids[j] == ids[i]) ++j;
    ids[n++] = ids[i];
    counts.push_back(static_cast<double>(j - i));
    i = j;
  }
  ids.resize(n);
  CtmScratch scratch;
  const auto free = globals.mu.size();
  Eigen::VectorXd lambda = Eigen::VectorXd::Zero(free + 1), nu2 = Eigen::VectorXd::Zero(free + 1);
  lambda.head(free) = globals.mu;
  nu2.head(free) = globals.precision.diagonal().cwiseInverse();
  updateCtmDocument(ids, counts, static_cast<double>(words.size()), globals, wordWeights, estep, lambda, nu2, scratch);
  CtmDocuments one;
  one.lambda = lambda;
  one.nu2 = nu2;
  return one;
}

FoldIn ctmFoldIn(const CtmGlobals& globals, CtmEStep estep, int samples) {
  return [&globals, estep, samples](std::span<const std::int32_t> words, std::uint64_t seed,
                                    Eigen::Ref<Eigen::VectorXd> theta) {
    theta = ctmExpectedProportions(fitCtmDocument(words, globals, globals.topicWord, estep), seed, samples)
                .row(0)
                .transpose();
  };
}

}  // namespace latent::core::topic
