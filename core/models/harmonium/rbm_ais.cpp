// SPDX-License-Identifier: GPL-3.0-or-later
// AIS for the binary RBM (Salakhutdinov & Murray 2008, §4; 000 §27.7.3.1).
#include "core/models/harmonium/rbm_ais.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "core/util/errors.hpp"
#include "core/util/random.hpp"

namespace latent::core::harmonium {
namespace {

// Temperatures between two checks of the stop request.
constexpr Eigen::Index kTemperaturesPerStopCheck = 256;

// log p*_beta(v) given v's hidden input a = c + W^T v and its two bias terms.
double logUnnormalised(double beta, double baseTerm, double modelTerm, const Eigen::VectorXd& hiddenInput) {
  double value = (1.0 - beta) * baseTerm + beta * modelTerm;
  for (Eigen::Index k = 0; k < hiddenInput.size(); ++k) value += softplus(beta * hiddenInput[k]);
  return value;
}

}  // namespace

AisEstimate estimateLogPartition(const RbmParameters& p, const Eigen::VectorXd& baseVisibleBias,
                                 const AisSettings& settings, std::uint64_t seed, std::stop_token stop) {
  const Eigen::Index R = p.visible(), K = p.hidden();
  const Eigen::Index M = std::max<Eigen::Index>(settings.particles, 1);
  const std::vector<double> betas = aisTemperatures(settings.temperatures);
  const auto T = static_cast<Eigen::Index>(betas.size()) - 1;

  // At beta = 0 the hidden units are free: Z_0 = 2^K prod_r (1 + e^(b_A,r)).
  double logBase = static_cast<double>(K) * std::numbers::ln2;
  for (Eigen::Index r = 0; r < R; ++r) logBase += softplus(baseVisibleBias[r]);

  std::vector<double> logWeights(static_cast<std::size_t>(M), 0.0);
  tbb::parallel_for(tbb::blocked_range<Eigen::Index>(0, M, 1), [&](const auto& range) {
    Eigen::VectorXd v(R), h(K), hiddenInput(K), visibleInput(R);
    for (Eigen::Index m = range.begin(); m < range.end(); ++m) {
      Rng rng(seed, static_cast<std::uint64_t>(m));
      // An exact draw from the base model.
      for (Eigen::Index r = 0; r < R; ++r) v[r] = rng.uniform() < sigmoid(baseVisibleBias[r]) ? 1.0 : 0.0;
      double logWeight = 0.0;
      for (Eigen::Index t = 1; t <= T; ++t) {
        if (t % kTemperaturesPerStopCheck == 0 && stop.stop_requested()) return;
        hiddenInput.noalias() = p.hiddenBias + p.weights.transpose() * v;
        const double baseTerm = baseVisibleBias.dot(v), modelTerm = p.visibleBias.dot(v);
        const double beta = betas[static_cast<std::size_t>(t)], previous = betas[static_cast<std::size_t>(t - 1)];
        logWeight += logUnnormalised(beta, baseTerm, modelTerm, hiddenInput) -
                     logUnnormalised(previous, baseTerm, modelTerm, hiddenInput);
        if (t == T) break;
        // One Gibbs sweep that leaves p_beta invariant: h | v, then v | h.
        for (Eigen::Index k = 0; k < K; ++k) h[k] = rng.uniform() < sigmoid(beta * hiddenInput[k]) ? 1.0 : 0.0;
        visibleInput.noalias() = p.weights * h;
        for (Eigen::Index r = 0; r < R; ++r) {
          const double input = (1.0 - beta) * baseVisibleBias[r] + beta * (p.visibleBias[r] + visibleInput[r]);
          v[r] = rng.uniform() < sigmoid(input) ? 1.0 : 0.0;
        }
      }
      logWeights[static_cast<std::size_t>(m)] = logWeight;
    }
  });
  if (stop.stop_requested()) throw Cancelled();
  return aisEstimate(logBase, logWeights, T);
}

}  // namespace latent::core::harmonium
