// SPDX-License-Identifier: GPL-3.0-or-later
// Multinomial ePCA kernels: the seeded start, the log posterior and its gradient over blocks of
// documents (dense logits by matrix products), Adam's steps, the Newton fold-in of a held-out
// document, and the canonical (SVD) form of the low-rank part.
#include "core/models/topic/epca_kernels.hpp"

#include <tbb/parallel_for.h>

#include <Eigen/Cholesky>
#include <Eigen/QR>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <optional>

#include "core/util/dense_svd.hpp"
#include "core/util/random.hpp"

namespace latent::core::topic {
namespace {

// Documents whose logits are computed together (one matrix product), and the fixed number of
// document ranges whose gradients of W and b are summed apart and then added in range order.
constexpr std::int64_t kEpcaBlockDocuments = 16;
constexpr std::int64_t kEpcaRanges = 8;
// The start's spread of W and z: small, so that the start is close to the unigram model.
constexpr double kEpcaStartSpread = 0.01;

// Row-wise log-softmax of `logits` in place; returns each row's log normaliser.
Eigen::VectorXd logSoftmaxRows(Eigen::MatrixXd& logits) {
  Eigen::VectorXd normaliser(logits.rows());
  for (Eigen::Index r = 0; r < logits.rows(); ++r) {
    const double top = logits.row(r).maxCoeff();
    normaliser[r] = top + std::log((logits.row(r).array() - top).exp().sum());
    logits.row(r).array() -= normaliser[r];
  }
  return normaliser;
}

// Log-softmax of each question's part of a row in place (categorical PCA).
template <typename Row>
void logSoftmaxQuestions(Row&& row, const ResponseGroups& questions, std::vector<double>& scratch) {
  const std::size_t R = questions.count();
  scratch.assign(2 * R, 0.0);
  double* top = scratch.data();
  double* sum = scratch.data() + R;
  for (std::size_t r = 0; r < R; ++r) top[r] = -std::numeric_limits<double>::infinity();
  const auto V = static_cast<std::size_t>(row.size());
  for (std::size_t v = 0; v < V; ++v) {
    auto& t = top[static_cast<std::size_t>(questions.questionOfWord[v])];
    t = std::max(t, row[static_cast<Eigen::Index>(v)]);
  }
  for (std::size_t v = 0; v < V; ++v) {
    const auto r = static_cast<std::size_t>(questions.questionOfWord[v]);
    sum[r] += std::exp(row[static_cast<Eigen::Index>(v)] - top[r]);
  }
  for (std::size_t r = 0; r < R; ++r) top[r] += std::log(sum[r]);
  for (std::size_t v = 0; v < V; ++v)
    row[static_cast<Eigen::Index>(v)] -= top[static_cast<std::size_t>(questions.questionOfWord[v])];
}

}  // namespace

EpcaState initEpca(const DocWordCounts& counts, std::int64_t K, std::uint64_t seed, EpcaLikelihood likelihood) {
  const auto V = static_cast<Eigen::Index>(counts.vocabulary);
  const auto D = static_cast<Eigen::Index>(counts.documents());
  EpcaState state;
  Eigen::VectorXd frequency = Eigen::VectorXd::Ones(V);  // add-one smoothing
  for (std::size_t e = 0; e < counts.entries(); ++e) frequency[counts.words[e]] += counts.counts[e];
  // Multinomial: log frequencies (softmax ignores their scale); Poisson: the mean count per document.
  const double scale =
      likelihood == EpcaLikelihood::Poisson
          ? frequency.sum() * static_cast<double>(std::max<Eigen::Index>(1, D)) / std::max(1.0, counts.tokens)
          : frequency.sum();
  state.b = (frequency / scale).array().log();
  Rng rng(seed, 0);
  state.w.resize(V, K);
  for (Eigen::Index i = 0; i < state.w.size(); ++i) state.w.data()[i] = kEpcaStartSpread * rng.normal();
  state.z.resize(D, K);
  for (Eigen::Index i = 0; i < state.z.size(); ++i) state.z.data()[i] = kEpcaStartSpread * rng.normal();
  return state;
}

double epcaObjective(const DocWordCounts& counts, const EpcaState& state, const EpcaPriors& priors, EpcaState* gradient,
                     std::stop_token stop) {
  const auto V = state.w.rows(), K = state.w.cols();
  const auto D = static_cast<std::int64_t>(counts.documents());
  const std::int64_t blocks = (D + kEpcaBlockDocuments - 1) / kEpcaBlockDocuments;
  const std::int64_t perRange = std::max<std::int64_t>(1, (blocks + kEpcaRanges - 1) / kEpcaRanges);
  const std::int64_t ranges = (blocks + perRange - 1) / perRange;
  std::vector<double> data(static_cast<std::size_t>(ranges), 0.0);
  std::vector<Eigen::MatrixXd> gradW(gradient ? static_cast<std::size_t>(ranges) : 0);
  std::vector<Eigen::VectorXd> gradB(gradient ? static_cast<std::size_t>(ranges) : 0);
  if (gradient) gradient->z.resize(D, K);
  std::atomic<bool> halted{false};
  tbb::parallel_for(std::int64_t{0}, ranges, [&](std::int64_t r) {
    Eigen::MatrixXd logits;
    std::vector<double> scratch, answered;
    if (gradient) {
      gradW[static_cast<std::size_t>(r)] = Eigen::MatrixXd::Zero(V, K);
      gradB[static_cast<std::size_t>(r)] = Eigen::VectorXd::Zero(V);
    }
    for (std::int64_t block = r * perRange; block < std::min(blocks, (r + 1) * perRange); ++block) {
      if (halted.load(std::memory_order_relaxed) || stop.stop_requested()) {
        halted.store(true, std::memory_order_relaxed);
        return;
      }
      const auto first = block * kEpcaBlockDocuments;
      const auto size = std::min(D, first + kEpcaBlockDocuments) - first;
      logits.noalias() = state.z.middleRows(first, size) * state.w.transpose();
      logits.rowwise() += state.b.transpose();
      const bool poisson = priors.likelihood == EpcaLikelihood::Poisson;
      // Poisson: the rates' total enters the data term; multinomial: the logits become log-probabilities.
      double sum = poisson ? -logits.array().exp().sum() : 0.0;
      if (!poisson && priors.questions) {
        for (Eigen::Index i = 0; i < size; ++i) logSoftmaxQuestions(logits.row(i), *priors.questions, scratch);
      } else if (!poisson) {
        logSoftmaxRows(logits);
      }
      for (Eigen::Index i = 0; i < size; ++i) {
        const auto d = static_cast<std::size_t>(first + i);
        for (auto e = static_cast<std::size_t>(counts.docStart[d]);
             e < static_cast<std::size_t>(counts.docStart[d + 1]); ++e)
          sum += counts.counts[e] * logits(i, counts.words[e]);
      }
      data[static_cast<std::size_t>(r)] += sum;
      if (!gradient) continue;
      // d/dlogits: the counts minus the expected counts (the document's length times the
      // probabilities, or the Poisson rates).
      for (Eigen::Index i = 0; i < size; ++i) {
        const auto d = static_cast<std::size_t>(first + i);
        if (!poisson && priors.questions) {
          // Each answer's expected count: the question's number of answers times its probability.
          answered.assign(priors.questions->count(), 0.0);
          for (auto e = static_cast<std::size_t>(counts.docStart[d]);
               e < static_cast<std::size_t>(counts.docStart[d + 1]); ++e)
            answered[static_cast<std::size_t>(
                priors.questions->questionOfWord[static_cast<std::size_t>(counts.words[e])])] += counts.counts[e];
          for (Eigen::Index v = 0; v < V; ++v)
            logits(i, v) =
                -answered[static_cast<std::size_t>(priors.questions->questionOfWord[static_cast<std::size_t>(v)])] *
                std::exp(logits(i, v));
        } else {
          logits.row(i) = -(poisson ? 1.0 : counts.docLength[d]) * logits.row(i).array().exp();
        }
        for (auto e = static_cast<std::size_t>(counts.docStart[d]);
             e < static_cast<std::size_t>(counts.docStart[d + 1]); ++e)
          logits(i, counts.words[e]) += counts.counts[e];
      }
      gradient->z.middleRows(first, size).noalias() = logits * state.w;
      gradW[static_cast<std::size_t>(r)].noalias() += logits.transpose() * state.z.middleRows(first, size);
      gradB[static_cast<std::size_t>(r)] += logits.colwise().sum().transpose();
    }
  });
  if (halted.load()) return std::numeric_limits<double>::quiet_NaN();
  double total = 0.0;
  for (const double part : data) total += part;
  total -= 0.5 * priors.zPrecision * state.z.squaredNorm() + 0.5 * priors.wPrecision * state.w.squaredNorm();
  if (gradient) {
    gradient->w = -priors.wPrecision * state.w;
    gradient->b = Eigen::VectorXd::Zero(V);
    for (std::int64_t r = 0; r < ranges; ++r) {
      gradient->w += gradW[static_cast<std::size_t>(r)];
      gradient->b += gradB[static_cast<std::size_t>(r)];
    }
    gradient->z -= priors.zPrecision * state.z;
  }
  return total;
}

EpcaAdam::EpcaAdam(const EpcaState& shape) {
  for (auto* m : {&m_first, &m_second}) {
    m->w = Eigen::MatrixXd::Zero(shape.w.rows(), shape.w.cols());
    m->z = Eigen::MatrixXd::Zero(shape.z.rows(), shape.z.cols());
    m->b = Eigen::VectorXd::Zero(shape.b.size());
  }
}

void EpcaAdam::apply(EpcaState& state, const EpcaState& gradient, double rate) {
  constexpr double beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8;
  ++m_steps;
  const double c1 = 1.0 - std::pow(beta1, static_cast<double>(m_steps));
  const double c2 = 1.0 - std::pow(beta2, static_cast<double>(m_steps));
  const auto step = [&](auto& value, auto& first, auto& second, const auto& g) {
    first = beta1 * first + (1.0 - beta1) * g;
    second = beta2 * second.array() + (1.0 - beta2) * g.array().square();
    value.array() += rate * (first.array() / c1) / ((second.array() / c2).sqrt() + epsilon);
  };
  step(state.w, m_first.w, m_second.w, gradient.w);
  step(state.z, m_first.z, m_second.z, gradient.z);
  step(state.b, m_first.b, m_second.b, gradient.b);
}

Eigen::VectorXd epcaLogProbabilities(const Eigen::MatrixXd& w, const Eigen::VectorXd& b, const Eigen::VectorXd& z,
                                     const ResponseGroups* questions) {
  Eigen::VectorXd logits = w * z + b;
  if (questions) {
    std::vector<double> scratch;
    logSoftmaxQuestions(logits, *questions, scratch);
    return logits;
  }
  const double top = logits.maxCoeff();
  return logits.array() - (top + std::log((logits.array() - top).exp().sum()));
}

Eigen::VectorXd epcaFoldIn(std::span<const std::int32_t> words, const Eigen::MatrixXd& w, const Eigen::VectorXd& b,
                           double zPrecision, const ResponseGroups* questions, int maxIterations) {
  const auto K = w.cols();
  Eigen::VectorXd counts = Eigen::VectorXd::Zero(w.rows());
  for (const auto v : words) counts[v] += 1.0;
  const double length = static_cast<double>(words.size());
  // Categorical PCA: the answers given to each question (the words of one softmax).
  std::vector<double> answered(questions ? questions->count() : 0, 0.0);
  if (questions)
    for (const auto v : words)
      answered[static_cast<std::size_t>(questions->questionOfWord[static_cast<std::size_t>(v)])] += 1.0;
  const auto value = [&](const Eigen::VectorXd& z, const Eigen::VectorXd& logp) {
    return counts.dot(logp) - 0.5 * zPrecision * z.squaredNorm();
  };
  Eigen::VectorXd z = Eigen::VectorXd::Zero(K);
  Eigen::VectorXd logp = epcaLogProbabilities(w, b, z, questions);
  double current = value(z, logp);
  for (int iteration = 0; iteration < maxIterations; ++iteration) {
    const Eigen::VectorXd p = logp.array().exp();
    // Minus the Hessian: N W^T (diag(p) - p p^T) W + zPrecision I, positive definite; for
    // categorical PCA the sum of that over the questions, each with its own answers' p and N_r.
    Eigen::VectorXd expected = length * p;
    Eigen::MatrixXd curvature;
    if (questions) {
      for (Eigen::Index v = 0; v < w.rows(); ++v)
        expected[v] = answered[static_cast<std::size_t>(questions->questionOfWord[static_cast<std::size_t>(v)])] * p[v];
      curvature = w.transpose() * expected.asDiagonal() * w;
      for (std::size_t r = 0; r < questions->count(); ++r) {
        if (answered[r] == 0.0) continue;
        Eigen::VectorXd mean = Eigen::VectorXd::Zero(K);
        for (const auto v : questions->answersOfQuestion[r]) mean += p[v] * w.row(v).transpose();
        curvature -= answered[r] * mean * mean.transpose();
      }
    } else {
      const Eigen::VectorXd mean = w.transpose() * p;
      curvature = length * (w.transpose() * p.asDiagonal() * w - mean * mean.transpose());
    }
    const Eigen::VectorXd gradient = w.transpose() * (counts - expected) - zPrecision * z;
    curvature.diagonal().array() += zPrecision;
    const Eigen::VectorXd direction = curvature.ldlt().solve(gradient);
    // Backtracking: halve the step until the objective rises.
    double step = 1.0, next = current;
    Eigen::VectorXd candidate = z, candidateLogp = logp;
    for (int halving = 0; halving < 30; ++halving, step *= 0.5) {
      candidate = z + step * direction;
      candidateLogp = epcaLogProbabilities(w, b, candidate, questions);
      next = value(candidate, candidateLogp);
      if (next >= current) break;
    }
    if (!(next >= current)) break;
    const double gain = next - current;
    z = candidate;
    logp = candidateLogp;
    current = next;
    if (gain <= 1e-10 * std::max(1.0, std::abs(current))) break;
  }
  return z;
}

namespace {

// How far the diagonal of a Gram matrix's Cholesky factor may spread, and the columns it gives may
// stray from unit length, before the canonical form is taken by Householder's QR instead: the Gram
// matrix squares the factors' condition number.
constexpr double kEpcaGramSpread = 1e4;
constexpr double kEpcaGramUnitTolerance = 1e-9;

// R upper triangular with A = Q R, Q's columns orthonormal (Q = A R^{-1}), from the Cholesky factor
// of A^T A; nothing when A is too ill-conditioned for it.
std::optional<Eigen::MatrixXd> epcaGramFactor(const Eigen::MatrixXd& a) {
  const auto K = a.cols();
  Eigen::MatrixXd gram = Eigen::MatrixXd::Zero(K, K);
  gram.selfadjointView<Eigen::Lower>().rankUpdate(a.transpose());
  const Eigen::LLT<Eigen::MatrixXd> llt(gram);
  if (llt.info() != Eigen::Success) return std::nullopt;
  Eigen::MatrixXd r = llt.matrixU();
  const Eigen::VectorXd diagonal = r.diagonal().cwiseAbs();
  if (!(diagonal.minCoeff() > 0) || diagonal.maxCoeff() > kEpcaGramSpread * diagonal.minCoeff()) return std::nullopt;
  return r;
}

// Householder's QR of both factors: exact for any conditioning, but at V = 13,739 and K = 200 it
// took a good part of a second, which a stopped fit waited for.
EpcaCanonical epcaCanonicalByHouseholder(const Eigen::MatrixXd& z, const Eigen::MatrixXd& w) {
  const auto K = w.cols();
  const Eigen::HouseholderQR<Eigen::MatrixXd> qz(z), qw(w);
  const Eigen::MatrixXd rz = qz.matrixQR().topRows(K).triangularView<Eigen::Upper>();
  const Eigen::MatrixXd rw = qw.matrixQR().topRows(K).triangularView<Eigen::Upper>();
  const ThinSvd svd = thinSvd(rz * rw.transpose());
  EpcaCanonical out;
  out.singularValues = svd.singularValues;
  out.docVectors = qz.householderQ() * Eigen::MatrixXd::Identity(z.rows(), K) * svd.u;
  out.wordVectors = qw.householderQ() * Eigen::MatrixXd::Identity(w.rows(), K) * svd.v;
  return out;
}

// The same from the Gram matrices' Cholesky factors, all in matrix products (Z = Qz Rz and
// W = Qw Rw, so Z W^T = Qz (Rz Rw^T) Qw^T; with Rz Rw^T = A S B^T, U = Z Rz^{-1} A and
// V = W Rw^{-1} B); nothing when the factors are too ill-conditioned for it.
std::optional<EpcaCanonical> epcaCanonicalByGram(const Eigen::MatrixXd& z, const Eigen::MatrixXd& w) {
  const auto rz = epcaGramFactor(z), rw = epcaGramFactor(w);
  if (!rz || !rw) return std::nullopt;
  const ThinSvd svd = thinSvd(*rz * rw->transpose());
  const Eigen::MatrixXd docTransform = rz->triangularView<Eigen::Upper>().solve(svd.u);
  const Eigen::MatrixXd wordTransform = rw->triangularView<Eigen::Upper>().solve(svd.v);
  EpcaCanonical out;
  out.singularValues = svd.singularValues;
  out.docVectors.noalias() = z * docTransform;
  out.wordVectors.noalias() = w * wordTransform;
  const auto unit = [](const Eigen::MatrixXd& m) {
    return (m.colwise().squaredNorm().array() - 1.0).abs().maxCoeff() < kEpcaGramUnitTolerance;
  };
  if (!unit(out.docVectors) || !unit(out.wordVectors)) return std::nullopt;
  return out;
}

}  // namespace

EpcaCanonical epcaCanonical(const Eigen::MatrixXd& z, const Eigen::MatrixXd& w) {
  const auto K = w.cols();
  auto byGram = epcaCanonicalByGram(z, w);
  EpcaCanonical out = byGram ? std::move(*byGram) : epcaCanonicalByHouseholder(z, w);
  for (Eigen::Index k = 0; k < K; ++k) {
    Eigen::Index top = 0;
    out.wordVectors.col(k).cwiseAbs().maxCoeff(&top);
    if (out.wordVectors(top, k) < 0) {
      out.wordVectors.col(k) *= -1.0;
      out.docVectors.col(k) *= -1.0;
    }
  }
  return out;
}

}  // namespace latent::core::topic
