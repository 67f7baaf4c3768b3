// SPDX-License-Identifier: GPL-3.0-or-later
// Bayesian ePCA kernels (see the header for the bound): the update of one document's Gaussian
// q(z_d), the sweep over documents in fixed ranges with the gradient of W and b, the fold-in of a
// held-out document, and the predictive with z integrated out by sampling from q.
#include "core/models/topic/epca_variational.hpp"

#include <tbb/parallel_for.h>

#include <Eigen/Cholesky>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>

#include "core/util/log_sum_exp.hpp"
#include "core/util/random.hpp"

namespace latent::core::topic {
namespace {

// Document ranges whose gradients of W and b are summed apart and then added in range order.
constexpr std::size_t kVariationalRanges = 8;
// Draws of z per block of the predictive's sampling (bounds its V x block logits).
constexpr int kPredictiveBlock = 50;

struct DocumentCounts {
  std::span<const std::int32_t> words;  // distinct
  std::span<const double> counts;
  double length = 0.0;
  // Categorical PCA: the questions and the answers given to each (one softmax per question).
  const ResponseGroups* questions = nullptr;
  std::span<const double> answered;
};

// The answers given to each question by a document of these words and counts.
std::vector<double> answersPerQuestion(const ResponseGroups& questions, std::span<const std::int32_t> words,
                                       std::span<const double> counts) {
  std::vector<double> answered(questions.count(), 0.0);
  for (std::size_t e = 0; e < words.size(); ++e)
    answered[static_cast<std::size_t>(questions.questionOfWord[static_cast<std::size_t>(words[e])])] += counts[e];
  return answered;
}

struct UpdateScratch {
  Eigen::MatrixXd product, weighted;  // V x K: W S, and W with rows scaled by mu
  // The line search writes its expected counts to candidateMu; S is set from those of the start (mu).
  Eigen::VectorXd eta, q, mu, candidateEta, candidateMu;
};

// The data part of the bound at eta (= W m + b) with q fixed; mu gets the expected counts (the
// Poisson rates, or the length times the softmax of eta + q / 2).
double dataBound(const DocumentCounts& doc, const Eigen::VectorXd& eta, const Eigen::VectorXd& q, bool poisson,
                 Eigen::VectorXd& mu) {
  double sum = 0.0;
  for (std::size_t e = 0; e < doc.words.size(); ++e) sum += doc.counts[e] * eta[doc.words[e]];
  mu = eta + 0.5 * q;
  if (poisson) {
    mu = mu.array().exp();
    return sum - mu.sum();
  }
  if (doc.questions) {
    // Each question's own bound: n_r log sum over its answers of exp(eta + q / 2).
    for (std::size_t r = 0; r < doc.questions->count(); ++r) {
      const auto& answers = doc.questions->answersOfQuestion[r];
      const double n = doc.answered[r];
      double top = -std::numeric_limits<double>::infinity(), total = 0.0;
      for (const auto v : answers) top = std::max(top, mu[v]);
      for (const auto v : answers) total += std::exp(mu[v] - top);
      const double normaliser = top + std::log(total);
      for (const auto v : answers) mu[v] = n > 0.0 ? n * std::exp(mu[v] - normaliser) : 0.0;
      sum -= n * normaliser;
    }
    return sum;
  }
  const double normaliser = logSumExp(mu);
  mu = doc.length * (mu.array() - normaliser).exp();
  return sum - doc.length * normaliser;
}

// KL(N(m, S) || N(0, I / lambda)).
double klToPrior(const Eigen::VectorXd& m, const Eigen::MatrixXd& s, double lambda) {
  const auto K = static_cast<double>(m.size());
  const Eigen::LLT<Eigen::MatrixXd> chol(s);
  const double logDet = 2.0 * chol.matrixLLT().diagonal().array().log().sum();
  return 0.5 * (lambda * (s.trace() + m.squaredNorm()) - K - logDet - K * std::log(lambda));
}

// One update of q(z) = N(m, S) in place: a Newton step on m with S fixed (backtracking until the
// bound does not fall), and S's fixed-point step. Returns the bound before the update and
// adds its gradient with respect to W and b there to gradW and gradB (when given).
double updateDocument(const DocumentCounts& doc, const Eigen::MatrixXd& w, const Eigen::VectorXd& b, double lambda,
                      bool poisson, Eigen::VectorXd& m, Eigen::MatrixXd& s, UpdateScratch& x, Eigen::MatrixXd* gradW,
                      Eigen::VectorXd* gradB) {
  const auto K = w.cols();
  x.product.noalias() = w * s;
  x.q = (x.product.array() * w.array()).rowwise().sum();
  x.eta.noalias() = w * m;
  x.eta += b;
  const double data = dataBound(doc, x.eta, x.q, poisson, x.mu);
  const double bound = data - klToPrior(m, s, lambda);

  // The residual x - mu; d/dw_v = (x_v - mu_v) m - mu_v S w_v, d/db_v = x_v - mu_v.
  Eigen::VectorXd residual = -x.mu;
  for (std::size_t e = 0; e < doc.words.size(); ++e) residual[doc.words[e]] += doc.counts[e];
  if (gradW) {
    gradW->noalias() += residual * m.transpose();
    gradW->noalias() -= x.mu.asDiagonal() * x.product;
    *gradB += residual;
  }

  // S's fixed point, S^-1 = W^T diag(mu) W + lambda I, where the bound's derivative in S vanishes
  // (it is concave in S); mu is taken at the m and S the update starts from, as is the Newton step
  // on m below, whose curvature is the same matrix less (W^T mu)(W^T mu)^T / L for the multinomial
  // (its normaliser couples the words). One product serves both.
  const Eigen::VectorXd gradient = w.transpose() * residual - lambda * m;
  x.weighted = w.array().colwise() * x.mu.array();
  Eigen::MatrixXd precision = w.transpose() * x.weighted;
  precision.diagonal().array() += lambda;
  Eigen::MatrixXd curvature = precision;
  if (!poisson && doc.questions) {
    for (std::size_t r = 0; r < doc.questions->count(); ++r) {
      if (doc.answered[r] <= 0.0) continue;
      Eigen::VectorXd mean = Eigen::VectorXd::Zero(K);
      for (const auto v : doc.questions->answersOfQuestion[r]) mean += x.mu[v] * w.row(v).transpose();
      curvature -= mean * mean.transpose() / doc.answered[r];
    }
  } else if (!poisson && doc.length > 0) {
    const Eigen::VectorXd mean = w.transpose() * x.mu;
    curvature -= mean * mean.transpose() / doc.length;
  }
  const Eigen::VectorXd direction = curvature.ldlt().solve(gradient);
  const double before = data - 0.5 * lambda * m.squaredNorm();
  double step = 1.0;
  for (int halving = 0; halving < 30; ++halving, step *= 0.5) {
    const Eigen::VectorXd candidate = m + step * direction;
    x.candidateEta.noalias() = w * candidate;
    x.candidateEta += b;
    const double after =
        dataBound(doc, x.candidateEta, x.q, poisson, x.candidateMu) - 0.5 * lambda * candidate.squaredNorm();
    if (after >= before) {
      m = candidate;
      break;
    }
  }
  s = precision.llt().solve(Eigen::MatrixXd::Identity(K, K));
  s = 0.5 * (s + s.transpose()).eval();
  return bound;
}

}  // namespace

EpcaCovariances initEpcaCovariances(std::size_t documents, Eigen::Index K, double zPrecision) {
  EpcaCovariances out;
  out.blocks.assign(documents, Eigen::MatrixXd::Identity(K, K) / zPrecision);
  return out;
}

double epcaVariationalSweep(const DocWordCounts& counts, const EpcaState& state, const EpcaCovariances& covariances,
                            const EpcaPriors& priors, EpcaState& gradient, Eigen::MatrixXd& nextMeans,
                            EpcaCovariances& next, std::stop_token stop) {
  const auto V = state.w.rows(), K = state.w.cols();
  const std::size_t D = counts.documents();
  const std::size_t ranges = std::max<std::size_t>(1, std::min(kVariationalRanges, D));
  const bool poisson = priors.likelihood == EpcaLikelihood::Poisson;
  std::vector<double> bounds(ranges, 0.0);
  std::vector<Eigen::MatrixXd> gradW(ranges);
  std::vector<Eigen::VectorXd> gradB(ranges);
  nextMeans.resize(static_cast<Eigen::Index>(D), K);
  next.blocks.resize(D);
  std::atomic<bool> halted{false};
  tbb::parallel_for(std::size_t{0}, ranges, [&](std::size_t r) {
    gradW[r] = Eigen::MatrixXd::Zero(V, K);
    gradB[r] = Eigen::VectorXd::Zero(V);
    thread_local UpdateScratch scratch;
    for (std::size_t d = D * r / ranges; d < D * (r + 1) / ranges; ++d) {
      if (halted.load(std::memory_order_relaxed) || stop.stop_requested()) {
        halted.store(true, std::memory_order_relaxed);
        return;
      }
      const auto first = static_cast<std::size_t>(counts.docStart[d]);
      const auto size = static_cast<std::size_t>(counts.docStart[d + 1]) - first;
      DocumentCounts doc{
          {counts.words.data() + first, size}, {counts.counts.data() + first, size}, counts.docLength[d], nullptr, {}};
      std::vector<double> answered;
      if (priors.questions) {
        answered = answersPerQuestion(*priors.questions, doc.words, doc.counts);
        doc.questions = priors.questions;
        doc.answered = answered;
      }
      Eigen::VectorXd m = state.z.row(static_cast<Eigen::Index>(d)).transpose();
      Eigen::MatrixXd s = covariances.blocks[d];
      bounds[r] +=
          updateDocument(doc, state.w, state.b, priors.zPrecision, poisson, m, s, scratch, &gradW[r], &gradB[r]);
      nextMeans.row(static_cast<Eigen::Index>(d)) = m.transpose();
      next.blocks[d] = std::move(s);
    }
  });
  if (halted.load()) return std::numeric_limits<double>::quiet_NaN();
  double total = -0.5 * priors.wPrecision * state.w.squaredNorm();
  gradient.w = -priors.wPrecision * state.w;
  gradient.b = Eigen::VectorXd::Zero(V);
  gradient.z = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(D), K);
  for (std::size_t r = 0; r < ranges; ++r) {
    total += bounds[r];
    gradient.w += gradW[r];
    gradient.b += gradB[r];
  }
  return total;
}

EpcaDocumentPosterior epcaVariationalFoldIn(std::span<const std::int32_t> words, const Eigen::MatrixXd& w,
                                            const Eigen::VectorXd& b, const EpcaPriors& priors, int maxIterations,
                                            double tolerance) {
  std::vector<std::int32_t> distinct(words.begin(), words.end());
  std::sort(distinct.begin(), distinct.end());
  std::vector<double> counts;
  std::size_t n = 0;
  for (std::size_t i = 0; i < distinct.size();) {
    std::size_t j = i;
    while (j < distinct.size() && distinct[j] == distinct[i]) ++j;
    distinct[n++] = distinct[i];
    counts.push_back(static_cast<double>(j - i));
    i = j;
  }
  distinct.resize(n);
  DocumentCounts doc{distinct, counts, static_cast<double>(words.size()), nullptr, {}};
  std::vector<double> answered;
  if (priors.questions) {
    answered = answersPerQuestion(*priors.questions, doc.words, doc.counts);
    doc.questions = priors.questions;
    doc.answered = answered;
  }
  EpcaDocumentPosterior out;
  out.mean = Eigen::VectorXd::Zero(w.cols());
  out.covariance = Eigen::MatrixXd::Identity(w.cols(), w.cols()) / priors.zPrecision;
  UpdateScratch scratch;
  double previous = -std::numeric_limits<double>::infinity();
  // Given its length, a document's words are multinomial under either likelihood.
  for (int i = 0; i < maxIterations; ++i) {
    const double bound =
        updateDocument(doc, w, b, priors.zPrecision, false, out.mean, out.covariance, scratch, nullptr, nullptr);
    if (std::abs(bound - previous) < tolerance * std::max(1.0, doc.length)) break;
    previous = bound;
  }
  return out;
}

Eigen::VectorXd epcaPredictiveLogProbabilities(const Eigen::MatrixXd& w, const Eigen::VectorXd& b,
                                               const EpcaDocumentPosterior& posterior, std::uint64_t seed, int samples,
                                               const ResponseGroups* questions) {
  const auto K = w.cols();
  const Eigen::MatrixXd root = posterior.covariance.llt().matrixL();
  Rng rng(seed);
  Eigen::VectorXd total = Eigen::VectorXd::Zero(w.rows());
  Eigen::MatrixXd draws, logits;
  for (int done = 0; done < samples; done += kPredictiveBlock) {
    const int block = std::min(kPredictiveBlock, samples - done);
    draws.resize(K, block);
    for (Eigen::Index i = 0; i < draws.size(); ++i) draws.data()[i] = rng.normal();
    draws = (root * draws).colwise() + posterior.mean;
    logits.noalias() = w * draws;
    logits.colwise() += b;
    for (int j = 0; j < block; ++j) {
      if (questions) {
        total.array() += epcaLogProbabilities(w, b, draws.col(j), questions).array().exp();
        continue;
      }
      const double normaliser = logSumExp(logits.col(j));
      total.array() += (logits.col(j).array() - normaliser).exp();
    }
  }
  return (total / static_cast<double>(samples)).array().log();
}

}  // namespace latent::core::topic
