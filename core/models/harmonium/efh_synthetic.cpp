// SPDX-License-Identifier: GPL-3.0-or-later
// 004 §5.1's synthetic GB-EFH and exact draws by monotone coupling from the past.
#include "core/models/harmonium/efh_synthetic.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <vector>

#include "core/util/errors.hpp"
#include "core/util/symmetric_eigen.hpp"

namespace latent::core::harmonium {
namespace {

// A bound on the doublings of coupling from the past: 2^40 sweeps back means the chains never met.
constexpr int kMaxDoublings = 40;

// One Gibbs sweep over the units of `x` at time `time` (< 0): unit i turns on when its uniform is
// below sigm(theta_i + V_ii / 2 + sum_{k != i} V_ik x_k). Both chains of coupling from the past use
// the same uniforms, the stream of (seed, -time).
void sweep(const EfhParameters& p, const Eigen::MatrixXd& V, std::uint64_t seed, std::int64_t time,
           Eigen::VectorXd& x) {
  Rng rng(seed, static_cast<std::uint64_t>(-time));
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    const double logOdds = p.visibleBias[i] + 0.5 * V(i, i) + V.row(i).dot(x) - V(i, i) * x[i];
    x[i] = rng.uniform() < sigmoid(logOdds) ? 1.0 : 0.0;
  }
}

Eigen::VectorXd coupledDraw(const EfhParameters& p, const Eigen::MatrixXd& V, std::uint64_t seed) {
  std::int64_t start = 1;
  for (int doubling = 0; doubling < kMaxDoublings; ++doubling, start *= 2) {
    Eigen::VectorXd upper = Eigen::VectorXd::Ones(p.visible());
    Eigen::VectorXd lower = Eigen::VectorXd::Zero(p.visible());
    for (std::int64_t t = -start; t < 0; ++t) {
      sweep(p, V, seed, t, upper);
      sweep(p, V, seed, t, lower);
    }
    if (upper == lower) return upper;
  }
  throw UsageError("coupling from the past did not coalesce");
}

}  // namespace

Eigen::MatrixXd syntheticEfhWeights(Eigen::Index visible, Eigen::Index hidden, std::uint64_t seed) {
  for (std::uint64_t attempt = 0;; ++attempt) {
    Rng rng(seed, attempt);
    Eigen::MatrixXd uniform(visible, visible);
    for (Eigen::Index j = 0; j < visible; ++j)
      for (Eigen::Index i = 0; i < visible; ++i) uniform(i, j) = 0.1 * rng.uniform();
    const Eigen::MatrixXd symmetric = 0.5 * (uniform + uniform.transpose());
    // The best rank-J approximation by W W^T: the J largest eigenvalues (ascending in Eigen's order).
    const SymmetricEigen eigen = symmetricEigen(symmetric);
    const Eigen::VectorXd values = eigen.values.tail(hidden).cwiseMax(0.0);
    Eigen::MatrixXd weights = eigen.vectors.rightCols(hidden) * values.cwiseSqrt().asDiagonal();
    if ((weights * weights.transpose()).minCoeff() >= 0.0) return weights;
  }
}

bool isAttractive(const EfhParameters& p) {
  Eigen::MatrixXd V = p.weights * p.weights.transpose();
  V.diagonal().setZero();
  return V.size() == 0 || V.minCoeff() >= 0.0;
}

BinaryData exactEfhSamples(const EfhParameters& p, Eigen::Index cases, std::uint64_t seed) {
  if (!isAttractive(p)) throw UsageError("exact GB-EFH samples need W W^T without negative entries off the diagonal");
  const Eigen::MatrixXd V = p.weights * p.weights.transpose();
  std::vector<Eigen::VectorXd> draws(static_cast<std::size_t>(cases));
  tbb::parallel_for(tbb::blocked_range<Eigen::Index>(0, cases), [&](const auto& range) {
    for (Eigen::Index c = range.begin(); c < range.end(); ++c) {
      Rng caseSeed(seed, static_cast<std::uint64_t>(c));
      draws[static_cast<std::size_t>(c)] = coupledDraw(p, V, caseSeed.next());
    }
  });
  BinaryData out(cases, p.visible());
  for (Eigen::Index c = 0; c < cases; ++c) {
    out.startVec(c);
    const Eigen::VectorXd& x = draws[static_cast<std::size_t>(c)];
    for (Eigen::Index i = 0; i < x.size(); ++i)
      if (x[i] != 0.0) out.insertBack(c, i) = 1.0;
  }
  out.finalize();
  return out;
}

}  // namespace latent::core::harmonium
