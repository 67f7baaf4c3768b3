// SPDX-License-Identifier: GPL-3.0-or-later
// What the harmoniums' annealed importance sampling shares (000 §27.7.3.1, which refers to
// §24.6.2; Salakhutdinov & Murray 2008, "On the quantitative analysis of deep belief networks"):
// the settings, the estimate with its spread, the schedule of inverse temperatures, and the
// estimate of log Z from the particles' log importance weights.
#pragma once

#include <span>
#include <vector>

#include <Eigen/Core>

namespace latent::core::harmonium {

struct AisSettings {
  Eigen::Index particles = 100;
  // Intermediate distributions, spaced evenly in beta within [0, 0.5), [0.5, 0.9) and [0.9, 1]
  // in Salakhutdinov & Murray's proportions (500, 4000 and 10000 of 14500).
  Eigen::Index temperatures = 14500;
};

// An estimate of log Z, with log(Z_hat -/+ 3 standard errors of the mean importance weight): the
// spread Salakhutdinov & Murray report. It is an estimate: in expectation Z_hat is unbiased, so
// log Z_hat tends to lie below log Z.
struct AisEstimate {
  double logPartition = 0.0;
  double low = 0.0;  // -inf when three standard errors reach zero
  double high = 0.0;
  Eigen::Index particles = 0;
  Eigen::Index temperatures = 0;
};

// 0 = beta_0 < beta_1 < ... < beta_T = 1 (T = max(temperatures, 3)) in the three evenly spaced
// stretches of AisSettings.
std::vector<double> aisTemperatures(Eigen::Index temperatures);

// The estimate from each particle's log importance weight, log w = sum_t log p*_t(x_t) -
// log p*_(t-1)(x_t), and the base model's log Z: log Z = log Z_base + log mean w, with the spread
// of three standard errors of the mean weight. `temperatures` is T, recorded in the estimate.
AisEstimate aisEstimate(double logBasePartition, std::span<const double> logWeights, Eigen::Index temperatures);

}  // namespace latent::core::harmonium
