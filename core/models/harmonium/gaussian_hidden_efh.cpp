// SPDX-License-Identifier: GPL-3.0-or-later
// GB-EFH (004 §2): conditionals, exact sums of a small model, brief sampling (004 §3.2).
#include "core/models/harmonium/gaussian_hidden_efh.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <bit>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/util/errors.hpp"

namespace latent::core::harmonium {
namespace {

// Cases per task; each case draws from its own stream, so the split changes nothing but speed.
constexpr Eigen::Index kEfhCasesPerTask = 32;

void requireEnumerable(const EfhParameters& p) {
  if (p.visible() > kMaxEnumeratedUnits)
    throw UsageError("the exact sums of a GB-EFH enumerate its visible layer, at most " +
                     std::to_string(kMaxEnumeratedUnits) + " units (this one has " + std::to_string(p.visible()) + ")");
}

// Calls visit(x, W^T x, log p~(x)) for every x in {0,1}^M, in Gray-code order.
template <typename Visit>
void forEachVisibleState(const EfhParameters& p, Visit&& visit) {
  const auto M = static_cast<int>(p.visible());
  Eigen::VectorXd x = Eigen::VectorXd::Zero(M);
  Eigen::VectorXd projected = Eigen::VectorXd::Zero(p.hidden());
  double linear = 0.0;
  const std::uint64_t states = std::uint64_t{1} << M;
  for (std::uint64_t s = 0; s < states; ++s) {
    if (s > 0) {
      const int i = std::countr_zero(s);
      const double sign = x[i] == 1.0 ? -1.0 : 1.0;
      x[i] = 1.0 - x[i];
      projected += sign * p.weights.row(i).transpose();
      linear += sign * p.visibleBias[i];
    }
    visit(x, projected, linear + 0.5 * projected.squaredNorm());
  }
}

}  // namespace

EfhParameters::EfhParameters(Eigen::Index visible, Eigen::Index hidden)
    : weights(Eigen::MatrixXd::Zero(visible, hidden)), visibleBias(Eigen::VectorXd::Zero(visible)) {}

double logUnnormalised(const EfhParameters& p, const Eigen::Ref<const Eigen::VectorXd>& x) {
  return p.visibleBias.dot(x) + 0.5 * (p.weights.transpose() * x).squaredNorm();
}

double efhExactLogPartition(const EfhParameters& p) {
  requireEnumerable(p);
  double maxLog = -std::numeric_limits<double>::infinity();
  forEachVisibleState(p, [&](const auto&, const auto&, double logP) { maxLog = std::max(maxLog, logP); });
  double sum = 0.0;
  forEachVisibleState(p, [&](const auto&, const auto&, double logP) { sum += std::exp(logP - maxLog); });
  return maxLog + std::log(sum);
}

EfhParameters efhExactGradient(const EfhParameters& p, const BinaryData& data) {
  const double logZ = efhExactLogPartition(p);
  EfhParameters model(p.visible(), p.hidden());
  forEachVisibleState(p, [&](const Eigen::VectorXd& x, const Eigen::VectorXd& projected, double logP) {
    const double probability = std::exp(logP - logZ);
    model.weights.noalias() += probability * x * projected.transpose();
    model.visibleBias += probability * x;
  });
  EfhStatistics observed;
  sufficientStatistics(p, data, observed);
  const auto N = static_cast<double>(data.rows());
  EfhParameters gradient(p.visible(), p.hidden());
  gradient.weights = observed.weights / N - model.weights;
  gradient.visibleBias = observed.visible / N - model.visibleBias;
  return gradient;
}

double efhMeanPseudoLogLikelihood(const EfhParameters& p, const BinaryData& data) {
  if (data.rows() == 0) return 0.0;
  const Eigen::VectorXd selfCoupling = p.weights.rowwise().squaredNorm();
  const Eigen::Index blocks = (data.rows() + kEfhCasesPerTask - 1) / kEfhCasesPerTask;
  std::vector<double> partial(static_cast<std::size_t>(blocks), 0.0);
  tbb::parallel_for(tbb::blocked_range<Eigen::Index>(0, blocks), [&](const auto& range) {
    Eigen::VectorXd x, gain;
    for (Eigen::Index b = range.begin(); b < range.end(); ++b) {
      double sum = 0.0;
      for (Eigen::Index c = b * kEfhCasesPerTask; c < std::min(data.rows(), (b + 1) * kEfhCasesPerTask); ++c) {
        x = denseRow(data, c);
        // Log-odds of each unit being on given the others.
        gain = p.visibleBias + p.weights * (p.weights.transpose() * x) + 0.5 * selfCoupling;
        gain -= x.cwiseProduct(selfCoupling);
        for (Eigen::Index i = 0; i < gain.size(); ++i) sum += x[i] * gain[i] - softplus(gain[i]);
      }
      partial[static_cast<std::size_t>(b)] = sum;
    }
  });
  double total = 0.0;
  for (double s : partial) total += s;
  return total / static_cast<double>(data.rows());
}

bool briefSample(const EfhParameters& p, const BinaryData& data, int steps, std::uint64_t seed, BinaryData& out,
                 std::stop_token stop) {
  const Eigen::Index N = data.rows();
  const Eigen::Index M = p.visible();
  const Eigen::Index J = p.hidden();
  // Dense draws first (each row its own stream), then packed into the sparse result in row order.
  RowMatrixF drawn(N, M);
  tbb::parallel_for(tbb::blocked_range<Eigen::Index>(0, N, kEfhCasesPerTask), [&](const auto& range) {
    Eigen::VectorXd x(M), h(J), rate(M);
    if (stop.stop_requested()) return;
    for (Eigen::Index c = range.begin(); c < range.end(); ++c) {
      Rng rng(seed, static_cast<std::uint64_t>(c));
      x.setZero();
      for (BinaryData::InnerIterator it(data, c); it; ++it) x[it.col()] = it.value();
      for (int step = 0; step < steps; ++step) {
        h.noalias() = p.weights.transpose() * x;
        for (Eigen::Index j = 0; j < J; ++j) h[j] += rng.normal();
        rate.noalias() = p.visibleBias + p.weights * h;
        for (Eigen::Index i = 0; i < M; ++i) x[i] = rng.uniform() < sigmoid(rate[i]) ? 1.0 : 0.0;
      }
      drawn.row(c) = x.transpose().cast<float>();
    }
  });
  if (stop.stop_requested()) return false;
  out.resize(N, M);
  out.reserve(static_cast<Eigen::Index>(drawn.sum()));
  for (Eigen::Index c = 0; c < N; ++c) {
    out.startVec(c);
    for (Eigen::Index i = 0; i < M; ++i)
      if (drawn(c, i) != 0.0F) out.insertBack(c, i) = 1.0;
  }
  out.finalize();
  return true;
}

void sufficientStatistics(const EfhParameters& p, const BinaryData& cases, EfhStatistics& out) {
  const Eigen::MatrixXd projected = cases * p.weights;  // N x J: W^T x of each case
  out.weights.noalias() = cases.transpose() * projected;
  out.visible = cases.transpose() * Eigen::VectorXd::Ones(cases.rows());
}

void efhHiddenMeans(const EfhParameters& p, const BinaryData& cases, Eigen::MatrixXd& out) {
  out.noalias() = cases * p.weights;
}

}  // namespace latent::core::harmonium
