// SPDX-License-Identifier: GPL-3.0-or-later
// The Gaussian-Bernoulli exponential family harmonium of 004 §2 (GB-EFH): binary visible units x,
// Gaussian hidden units h, p(x | h) = Ber(sigm(theta + W h)) (004 eq. 4), p(h | x) = N(W^T x, I)
// (004 eq. 5), so that p(x) is proportional to exp(theta^T x + 1/2 x^T W W^T x) (004 eq. 33). Its
// conditionals, the exact sums of a small model (for tests), and the brief-sampling estimate of
// grad log Z (004 §3.2) that both maximum likelihood and the Langevin algorithm use.
#pragma once

#include <cstdint>
#include <stop_token>

#include <Eigen/Core>

#include "core/models/harmonium/binary_rbm.hpp"
#include "core/util/random.hpp"

namespace latent::core::harmonium {

struct EfhParameters {
  Eigen::MatrixXd weights;      // W, M x J (M visible, J hidden units)
  Eigen::VectorXd visibleBias;  // theta, M

  EfhParameters() = default;
  EfhParameters(Eigen::Index visible, Eigen::Index hidden);  // all zero
  Eigen::Index visible() const { return weights.rows(); }
  Eigen::Index hidden() const { return weights.cols(); }
};

// log p~(x) = theta^T x + 1/2 |W^T x|^2, the unnormalised log-marginal of the visible units (004
// eq. 33; p~(x | W) of 004 eq. 9).
double logUnnormalised(const EfhParameters& p, const Eigen::Ref<const Eigen::VectorXd>& x);

// log Z_x of 004 eq. 33, summing over the 2^M visible states: small models only (tests and the
// exact log-likelihood). Throws UsageError when M exceeds kMaxEnumeratedUnits.
double efhExactLogPartition(const EfhParameters& p);

// The exact gradient of the mean log-likelihood with respect to W and theta (004 eq. 14-17 without
// the prior): mean_data x x^T W - E_model[x x^T W], and mean_data x - E_model[x], by enumeration.
EfhParameters efhExactGradient(const EfhParameters& p, const BinaryData& data);

// The mean over cases of sum_i log p(x_i | x_-i) (Besag's pseudo-log-likelihood), exactly: turning
// unit i on adds theta_i + W_i.(W^T x) - x_i |W_i|^2 + 1/2 |W_i|^2 to log p~, O(M J) per case.
double efhMeanPseudoLogLikelihood(const EfhParameters& p, const BinaryData& data);

// One full Gibbs step from the data, for each case: h ~ N(W^T x, I), then x' ~ Ber(sigm(theta +
// W h)) (004 §3.2, the brief sampling with l = 1; repeated for l > 1). Case i draws from
// Rng(seed, i), so the draws do not depend on the thread count. Returns false, `out` unfinished,
// when `stop` was requested (checked between blocks of cases: one step over a large corpus takes a
// good part of a second).
bool briefSample(const EfhParameters& p, const BinaryData& data, int steps, std::uint64_t seed, BinaryData& out,
                 std::stop_token stop = {});

// The summed statistics of a set of cases: X^T X W (M x J, 004 eq. 16) and X^T 1 (M).
struct EfhStatistics {
  Eigen::MatrixXd weights;
  Eigen::VectorXd visible;
};
void sufficientStatistics(const EfhParameters& p, const BinaryData& cases, EfhStatistics& out);

// E[h | x] = W^T x for each row (N x J).
void efhHiddenMeans(const EfhParameters& p, const BinaryData& cases, Eigen::MatrixXd& out);

}  // namespace latent::core::harmonium
