// SPDX-License-Identifier: GPL-3.0-or-later
// The implicit-feedback sums and the exact y_j updates of pmf's SVD++ option.
#include "core/models/ratings/pmf_implicit.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/Core>

namespace latent::core::pmf {
namespace {

// Users (of an item in the sequential pass) between two looks at the stop token: each costs a
// K x K product, so a few dozen stay far below DESIGN §4's bound at any K while keeping the look
// (an atomic read) out of the per-user work.
constexpr std::int64_t kImplicitStopUsers = 32;

// Working space filled entry by entry before it is read: allocated without zeroing, which would
// itself take seconds at U K^2 doubles for a large K.
std::unique_ptr<double[]> uninitialisedDoubles(std::size_t n) { return std::unique_ptr<double[]>(new double[n]); }

}  // namespace

double implicitWeight(std::int64_t ratedItems) noexcept {
  return ratedItems > 0 ? 1.0 / std::sqrt(double(ratedItems)) : 0.0;
}

void updateImplicitSums(const TrainingRatings& data, Parameters& params) {
  const int K = params.implicit.factors;
  tbb::parallel_for(tbb::blocked_range<std::int32_t>(0, data.users, 64), [&](const auto& range) {
    Eigen::VectorXd sum(K);
    for (std::int32_t u = range.begin(); u != range.end(); ++u) {
      sum.setZero();
      for (auto k = data.userStart[u]; k < data.userStart[u + 1]; ++k) {
        const float* y = params.implicit.row(data.userItems[static_cast<std::size_t>(k)]);
        for (int f = 0; f < K; ++f) sum(f) += y[f];
      }
      const double w = implicitWeight(data.userDegree(u));
      float* z = params.implicitSums.row(u);
      for (int f = 0; f < K; ++f) z[f] = static_cast<float>(w * sum(f));
    }
  });
}

bool alsImplicitStep(const TrainingRatings& data, const Regularization& reg, Parameters& params, std::stop_token stop,
                     std::atomic<std::int64_t>* finished) {
  const int K = params.implicit.factors;
  if (K == 0) return true;
  const auto U = static_cast<std::size_t>(data.users);
  const auto KK = static_cast<std::size_t>(K) * static_cast<std::size_t>(K);
  std::atomic<bool> stopped{false};
  const auto stopNow = [&] {
    if (stopped.load(std::memory_order_relaxed)) return true;
    if (!stop.stop_requested()) return false;
    stopped.store(true, std::memory_order_relaxed);
    return true;
  };
  // Per user: p_u (kept fixed), g_u and G_u at the current parameters (users in parallel).
  const auto own = uninitialisedDoubles(U * static_cast<std::size_t>(K));
  const auto gradient = uninitialisedDoubles(U * static_cast<std::size_t>(K));
  const auto gram = uninitialisedDoubles(U * KK);
  tbb::parallel_for(tbb::blocked_range<std::int32_t>(0, data.users, 16), [&](const auto& range) {
    for (std::int32_t u = range.begin(); u != range.end(); ++u) {
      if (stopNow()) return;
      const auto at = static_cast<std::size_t>(u);
      Eigen::Map<Eigen::VectorXd> p(own.get() + at * K, K), g(gradient.get() + at * K, K);
      Eigen::Map<Eigen::MatrixXd> G(gram.get() + at * KK, K, K);
      const float* uu = params.users.row(u);
      const float* z = params.implicitSums.row(u);
      for (int f = 0; f < K; ++f) p(f) = double(uu[f]) - double(z[f]);
      g.setZero();
      G.setZero();
      Eigen::VectorXd q(K);
      for (auto k = data.userStart[u]; k < data.userStart[u + 1]; ++k) {
        const auto i = data.userItems[static_cast<std::size_t>(k)];
        const float* qi = params.items.row(i);
        for (int f = 0; f < K; ++f) q(f) = qi[f];
        const double e = double(data.userValues[static_cast<std::size_t>(k)]) - params.userBias[at] -
                         params.itemBias[static_cast<std::size_t>(i)] - params.interaction(u, i);
        g += e * q;
        G.selfadjointView<Eigen::Lower>().rankUpdate(q);
      }
      G.triangularView<Eigen::StrictlyUpper>() = G.transpose();
    }
  });
  if (stopped.load()) return false;

  // The systems' matrices depend on q only, not on y: every item's is factorised up front, items in
  // parallel, leaving only the gradient bookkeeping to the sequential pass below.
  const auto I = static_cast<std::size_t>(data.items);
  std::vector<Eigen::LLT<Eigen::MatrixXd>> systems(I);
  tbb::parallel_for(tbb::blocked_range<std::int32_t>(0, data.items, 8), [&](const auto& range) {
    Eigen::MatrixXd hessian(K, K);
    for (std::int32_t j = range.begin(); j != range.end(); ++j) {
      if (stopNow()) return;
      if (data.itemDegree(j) == 0) continue;
      hessian.setIdentity();
      hessian *= std::max(reg.factorRidge(data.itemDegree(j)), 1e-9);
      for (auto k = data.itemStart[j]; k < data.itemStart[j + 1]; ++k) {
        const auto u = static_cast<std::size_t>(data.itemUsers[static_cast<std::size_t>(k)]);
        const double w = implicitWeight(data.userDegree(static_cast<std::int32_t>(u)));
        hessian += (w * w) * Eigen::Map<const Eigen::MatrixXd>(gram.get() + u * KK, K, K);
      }
      systems[static_cast<std::size_t>(j)].compute(hessian);
    }
  });
  if (stopped.load()) return false;

  Eigen::VectorXd rhs(K), step(K);
  const auto done = [&] {
    if (finished) finished->fetch_add(1, std::memory_order_relaxed);
  };
  std::int32_t j = 0;
  for (; j < data.items && !stopNow(); ++j) {
    if (data.itemDegree(j) == 0) {  // in no N(u): y_j stays at its prior mean, zero
      done();
      continue;
    }
    const double ridge = std::max(reg.factorRidge(data.itemDegree(j)), 1e-9);
    float* y = params.implicit.row(j);
    for (int f = 0; f < K; ++f) rhs(f) = -ridge * double(y[f]);
    for (auto k = data.itemStart[j]; k < data.itemStart[j + 1]; ++k) {
      const auto u = static_cast<std::size_t>(data.itemUsers[static_cast<std::size_t>(k)]);
      rhs += implicitWeight(data.userDegree(static_cast<std::int32_t>(u))) *
             Eigen::Map<const Eigen::VectorXd>(gradient.get() + u * K, K);
    }
    step = systems[static_cast<std::size_t>(j)].solve(rhs);
    // The change actually stored (y is float), so that g_u stays the true gradient.
    for (int f = 0; f < K; ++f) {
      const float moved = static_cast<float>(double(y[f]) + step(f));
      step(f) = double(moved) - double(y[f]);
      y[f] = moved;
    }
    done();
    // y_j has moved: a stop from here on leaves the gradients (needed only by later items) stale.
    for (auto k = data.itemStart[j]; k < data.itemStart[j + 1]; ++k) {
      if ((k - data.itemStart[j]) % kImplicitStopUsers == kImplicitStopUsers - 1 && stopNow()) break;
      const auto u = static_cast<std::size_t>(data.itemUsers[static_cast<std::size_t>(k)]);
      const double w = implicitWeight(data.userDegree(static_cast<std::int32_t>(u)));
      Eigen::Map<Eigen::VectorXd>(gradient.get() + u * K, K).noalias() -=
          w * (Eigen::Map<const Eigen::MatrixXd>(gram.get() + u * KK, K, K) * step);
    }
  }

  // u_u = p_u + z_u with the new y.
  updateImplicitSums(data, params);
  tbb::parallel_for(tbb::blocked_range<std::int32_t>(0, data.users, 64), [&](const auto& range) {
    for (std::int32_t u = range.begin(); u != range.end(); ++u) {
      float* uu = params.users.row(u);
      const float* z = params.implicitSums.row(u);
      const double* p = own.get() + static_cast<std::size_t>(u) * K;
      for (int f = 0; f < K; ++f) uu[f] = static_cast<float>(p[f] + double(z[f]));
    }
  });
  return j == data.items;
}

}  // namespace latent::core::pmf
