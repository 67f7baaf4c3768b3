// SPDX-License-Identifier: GPL-3.0-or-later
// Binary RBM: conditionals, free energy and the exact sums over a small layer (000 §27.7.1.1).
#include "core/models/harmonium/binary_rbm.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/util/errors.hpp"

namespace latent::core::harmonium {
namespace {

// States of the enumerated layer summed per task: each task starts from its first state and walks
// the rest in Gray-code order, one column added or removed per state.
constexpr int kEnumerationBlockBits = 10;

// Cases per task of the per-case sums; partial sums are combined in task order, so the result does
// not depend on the thread count.
constexpr Eigen::Index kCasesPerTask = 64;

double logAddExp(double a, double b) noexcept {
  if (a == -std::numeric_limits<double>::infinity()) return b;
  if (b == -std::numeric_limits<double>::infinity()) return a;
  return a > b ? a + std::log1p(std::exp(b - a)) : b + std::log1p(std::exp(a - b));
}

// log sum_s exp(own^T s + sum_i softplus(other_i + (C s)_i)) over s in {0,1}^m, C is n x m: the
// unnormalised marginal of one layer summed over all its states (000 eq. 27.117 with biases).
double logSumOverStates(const Eigen::MatrixXd& couplings, const Eigen::VectorXd& own, const Eigen::VectorXd& other) {
  const auto m = static_cast<int>(couplings.cols());
  const int blockBits = std::min(m, kEnumerationBlockBits);
  const std::int64_t blocks = std::int64_t{1} << (m - blockBits);
  const std::int64_t perBlock = std::int64_t{1} << blockBits;
  std::vector<double> partial(static_cast<std::size_t>(blocks), -std::numeric_limits<double>::infinity());
  tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, blocks, 1), [&](const auto& range) {
    for (std::int64_t block = range.begin(); block < range.end(); ++block) {
      // The block's high bits are fixed; its low bits start at zero.
      std::uint64_t state = static_cast<std::uint64_t>(block) << blockBits;
      Eigen::VectorXd activation = other;
      double ownTerm = 0.0;
      for (int j = blockBits; j < m; ++j)
        if (state >> j & 1U) {
          activation += couplings.col(j);
          ownTerm += own[j];
        }
      double sum = -std::numeric_limits<double>::infinity();
      for (std::int64_t i = 0; i < perBlock; ++i) {
        if (i > 0) {
          // Gray code: step i flips the lowest set bit of i.
          const int j = std::countr_zero(static_cast<std::uint64_t>(i));
          const double sign = (state >> j & 1U) ? -1.0 : 1.0;
          state ^= std::uint64_t{1} << j;
          activation += sign * couplings.col(j);
          ownTerm += sign * own[j];
        }
        double value = ownTerm;
        for (Eigen::Index r = 0; r < activation.size(); ++r) value += softplus(activation[r]);
        sum = logAddExp(sum, value);
      }
      partial[static_cast<std::size_t>(block)] = sum;
    }
  });
  double total = -std::numeric_limits<double>::infinity();
  for (double s : partial) total = logAddExp(total, s);
  return total;
}

// Sums f(i) over the cases in fixed chunks combined in order.
template <typename Scratch = Eigen::VectorXd, typename PerCase>
double sumOverCases(Eigen::Index cases, PerCase perCase) {
  const Eigen::Index tasks = (cases + kCasesPerTask - 1) / kCasesPerTask;
  std::vector<double> partial(static_cast<std::size_t>(tasks), 0.0);
  tbb::parallel_for(tbb::blocked_range<Eigen::Index>(0, tasks, 1), [&](const auto& range) {
    Scratch scratch;
    for (Eigen::Index t = range.begin(); t < range.end(); ++t) {
      double sum = 0.0;
      const Eigen::Index end = std::min(cases, (t + 1) * kCasesPerTask);
      for (Eigen::Index i = t * kCasesPerTask; i < end; ++i) sum += perCase(i, scratch);
      partial[static_cast<std::size_t>(t)] = sum;
    }
  });
  double total = 0.0;
  for (double s : partial) total += s;
  return total;
}

// Calls f(first, count) for consecutive blocks of kRowsPerBlock rows, in parallel: the blocks are
// fixed, so a row's numbers do not depend on the thread count.
constexpr Eigen::Index kRowsPerBlock = 8;
template <typename PerBlock>
void forRowBlocks(Eigen::Index rows, PerBlock f) {
  const Eigen::Index blocks = (rows + kRowsPerBlock - 1) / kRowsPerBlock;
  tbb::parallel_for(tbb::blocked_range<Eigen::Index>(0, blocks, 1), [&](const auto& range) {
    for (Eigen::Index b = range.begin(); b < range.end(); ++b) {
      const Eigen::Index first = b * kRowsPerBlock;
      f(first, std::min(kRowsPerBlock, rows - first));
    }
  });
}

template <typename Visible>
void hiddenProbabilitiesOf(const RbmParameters& p, const Visible& visible, Eigen::MatrixXd& out) {
  out.noalias() = visible * p.weights;
  out.rowwise() += p.hiddenBias.transpose();
  out = (1.0 + (-out.array()).exp()).inverse().matrix();
}

}  // namespace

RbmParameters::RbmParameters(Eigen::Index visible, Eigen::Index hidden)
    : weights(Eigen::MatrixXd::Zero(visible, hidden)),
      visibleBias(Eigen::VectorXd::Zero(visible)),
      hiddenBias(Eigen::VectorXd::Zero(hidden)) {}

double softplus(double x) noexcept { return std::max(x, 0.0) + std::log1p(std::exp(-std::abs(x))); }

double sigmoid(double x) noexcept {
  if (x >= 0) return 1.0 / (1.0 + std::exp(-x));
  const double e = std::exp(x);
  return e / (1.0 + e);
}

void hiddenProbabilities(const RbmParameters& p, const Eigen::MatrixXd& visible, Eigen::MatrixXd& out) {
  hiddenProbabilitiesOf(p, visible, out);
}

void hiddenProbabilities(const RbmParameters& p, const BinaryData& visible, Eigen::MatrixXd& out) {
  hiddenProbabilitiesOf(p, visible, out);
}

void visibleProbabilities(const RbmParameters& p, const Eigen::MatrixXd& hidden, Eigen::MatrixXd& out) {
  out.noalias() = hidden * p.weights.transpose();
  out.rowwise() += p.visibleBias.transpose();
  out = out.unaryExpr([](double x) { return sigmoid(x); });
}

void sampleBernoulliRows(Eigen::MatrixXd& probabilities, Rng* rngs) {
  tbb::parallel_for(tbb::blocked_range<Eigen::Index>(0, probabilities.rows(), 16), [&](const auto& range) {
    for (Eigen::Index i = range.begin(); i < range.end(); ++i) {
      Rng& rng = rngs[i];
      for (Eigen::Index j = 0; j < probabilities.cols(); ++j)
        probabilities(i, j) = rng.uniform() < probabilities(i, j) ? 1.0 : 0.0;
    }
  });
}

void sampleBernoulliRows(RowMatrixF& probabilities, Rng* rngs, BinaryData& out) {
  forRowBlocks(probabilities.rows(), [&](Eigen::Index first, Eigen::Index count) {
    for (Eigen::Index i = first; i < first + count; ++i) {
      Rng& rng = rngs[i];
      for (Eigen::Index j = 0; j < probabilities.cols(); ++j)
        probabilities(i, j) = rng.uniform() < probabilities(i, j) ? 1.0F : 0.0F;
    }
  });
  out.resize(probabilities.rows(), probabilities.cols());
  for (Eigen::Index i = 0; i < probabilities.rows(); ++i) {
    out.startVec(i);
    for (Eigen::Index j = 0; j < probabilities.cols(); ++j)
      if (probabilities(i, j) != 0.0F) out.insertBack(i, j) = 1.0;
  }
  out.finalize();
}

double freeEnergy(const RbmParameters& p, const Eigen::Ref<const Eigen::VectorXd>& v) {
  double f = -p.visibleBias.dot(v);
  const Eigen::VectorXd activation = p.hiddenBias + p.weights.transpose() * v;
  for (Eigen::Index k = 0; k < activation.size(); ++k) f -= softplus(activation[k]);
  return f;
}

bool canEnumerate(const RbmParameters& p) noexcept { return std::min(p.visible(), p.hidden()) <= kMaxEnumeratedUnits; }

double exactLogPartition(const RbmParameters& p) {
  if (!canEnumerate(p))
    throw UsageError("the exact partition function needs a layer of at most " + std::to_string(kMaxEnumeratedUnits) +
                     " units (this RBM has " + std::to_string(p.visible()) + " visible and " +
                     std::to_string(p.hidden()) + " hidden)");
  // Summing over h leaves prod_r (1 + e^(b_r + W_r h)); over v, prod_k (1 + e^(c_k + W_:k^T v)).
  if (p.hidden() <= p.visible()) return logSumOverStates(p.weights, p.hiddenBias, p.visibleBias);
  const Eigen::MatrixXd transposed = p.weights.transpose();
  return logSumOverStates(transposed, p.visibleBias, p.hiddenBias);
}

Eigen::VectorXd baseRateBiases(const BinaryData& data) {
  const auto N = static_cast<double>(data.rows());
  const Eigen::VectorXd on = data.transpose() * Eigen::VectorXd::Ones(data.rows());
  Eigen::VectorXd bias(data.cols());
  // Rates smoothed by half a case either way, so no unit starts at probability 0 or 1.
  for (Eigen::Index r = 0; r < bias.size(); ++r) {
    const double rate = (on[r] + 0.5) / (N + 1.0);
    bias[r] = std::log(rate / (1.0 - rate));
  }
  return bias;
}

Eigen::VectorXd denseRow(const BinaryData& data, Eigen::Index i) {
  Eigen::VectorXd v = Eigen::VectorXd::Zero(data.cols());
  for (BinaryData::InnerIterator it(data, i); it; ++it) v[it.col()] = it.value();
  return v;
}

double meanLogLikelihood(const RbmParameters& p, const BinaryData& data, double logPartition) {
  if (data.rows() == 0) return 0.0;
  const double sum = sumOverCases(
      data.rows(), [&](Eigen::Index i, Eigen::VectorXd&) { return -freeEnergy(p, denseRow(data, i)) - logPartition; });
  return sum / static_cast<double>(data.rows());
}

RbmParameters exactGradient(const RbmParameters& p, const BinaryData& data) {
  const Eigen::Index R = p.visible(), K = p.hidden();
  if (K > kMaxEnumeratedUnits)
    throw UsageError("the exact gradient sums over the hidden layer: at most " + std::to_string(kMaxEnumeratedUnits) +
                     " hidden units");
  RbmParameters g(R, K);
  // Data term: (1/N) sum_i v_i mu_i^T with mu_i = E[h | v_i].
  const auto N = static_cast<double>(data.rows());
  Eigen::MatrixXd mu;
  hiddenProbabilities(p, data, mu);
  g.weights = (data.transpose() * mu) / N;
  g.visibleBias = Eigen::VectorXd(data.transpose() * Eigen::VectorXd::Ones(data.rows())) / N;
  g.hiddenBias = mu.colwise().sum().transpose() / N;

  // Model term: p(h) is proportional to exp(c^T h + sum_r softplus(b_r + W_r h)), and given h,
  // E[v_r | h] = sigm(b_r + W_r h).
  const double logZ = logSumOverStates(p.weights, p.hiddenBias, p.visibleBias);
  Eigen::VectorXd h(K), activation(R), meanV(R);
  for (std::uint64_t state = 0; state < (std::uint64_t{1} << K); ++state) {
    for (Eigen::Index k = 0; k < K; ++k) h[k] = static_cast<double>(state >> k & 1U);
    activation = p.visibleBias + p.weights * h;
    double logWeight = p.hiddenBias.dot(h);
    for (Eigen::Index r = 0; r < R; ++r) {
      logWeight += softplus(activation[r]);
      meanV[r] = sigmoid(activation[r]);
    }
    const double w = std::exp(logWeight - logZ);
    g.weights.noalias() -= w * meanV * h.transpose();
    g.visibleBias -= w * meanV;
    g.hiddenBias -= w * h;
  }
  return g;
}

double meanPseudoLogLikelihood(const RbmParameters& p, const BinaryData& data) {
  if (data.rows() == 0) return 0.0;
  const double sum = sumOverCases<Eigen::ArrayXXd>(data.rows(), [&](Eigen::Index i, Eigen::ArrayXXd& flipped) {
    const Eigen::VectorXd v = denseRow(data, i);
    const Eigen::VectorXd activation = p.hiddenBias + p.weights.transpose() * v;
    const double biasTerm = p.visibleBias.dot(v);
    double freeV = -biasTerm;
    for (Eigen::Index k = 0; k < activation.size(); ++k) freeV -= softplus(activation[k]);
    // Row r of `flipped`: the hidden activations with unit r flipped, all R rows at once so that
    // the R x K softplus terms run vectorised (log(1 + e^-|x|) loses only terms below 1e-16).
    const Eigen::ArrayXd delta = 1.0 - 2.0 * v.array();
    flipped = (delta.matrix().asDiagonal() * p.weights).array().rowwise() + activation.array().transpose();
    flipped = flipped.max(0.0) + (1.0 + (-flipped.abs()).exp()).log();
    const Eigen::ArrayXd hiddenTerms = flipped.rowwise().sum();
    double total = 0.0;
    for (Eigen::Index r = 0; r < v.size(); ++r) {
      const double freeFlipped = -biasTerm - delta[r] * p.visibleBias[r] - hiddenTerms[r];
      // log p(v_r | v_-r) = log sigm(F(v flipped) - F(v)) = -softplus(F(v) - F(v flipped)).
      total -= softplus(freeV - freeFlipped);
    }
    return total;
  });
  return sum / static_cast<double>(data.rows());
}

}  // namespace latent::core::harmonium
