// SPDX-License-Identifier: GPL-3.0-or-later
// The regression half of DMR-LDA (Mimno & McCallum 2008): given each document's topic counts n_dk
// and its features x_d, the weights lambda (K x F) maximise the Dirichlet-multinomial likelihood
// of the counts under alpha_dk = exp(lambda_k . x_d) (000 eq. 27.71-27.72) plus a Gaussian prior,
// by L-BFGS (core/util/lbfgs.hpp).
#pragma once

#include <cstdint>
#include <stop_token>

#include <Eigen/Core>

namespace latent::core::topic {

// n_dk, one row per document.
using DmrTopicCounts = Eigen::Matrix<std::int32_t, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

struct DmrRegressionProblem {
  const Eigen::MatrixXd* features = nullptr;  // D x F, column 0 the intercept
  const DmrTopicCounts* counts = nullptr;     // D x K
  // The prior's variance per feature (F): lambda_kf ~ N(0, variance_f).
  Eigen::VectorXd priorVariance;
};

// The objective
//   sum_d [log Gamma(alpha_d0) - log Gamma(alpha_d0 + N_d) + sum_k (log Gamma(alpha_dk + n_dk) - log Gamma(alpha_dk))]
//   - sum_kf lambda_kf^2 / (2 variance_f),
// alpha_d0 = sum_k alpha_dk, N_d = sum_k n_dk; with `gradient` (K x F) its gradient,
//   d/d lambda_kf = sum_d x_df alpha_dk [psi(alpha_d0) - psi(alpha_d0 + N_d) + psi(alpha_dk + n_dk) - psi(alpha_dk)]
//                   - lambda_kf / variance_f.
// -infinity when some alpha overflows or underflows.
double dmrObjective(const DmrRegressionProblem& problem, const Eigen::MatrixXd& lambda, Eigen::MatrixXd* gradient);

struct DmrOptimizeResult {
  double objective = 0.0;  // at the lambda returned
  int iterations = 0;
};

// Maximises dmrObjective from `lambda` (updated in place) for at most `maxIterations` L-BFGS
// steps, stopping once a step raises the objective by less than `tolerance` times its size.
// The objective never decreases: a failed line search keeps the last point. A stop request ends it
// after the current step (lambda then holds the best point so far).
DmrOptimizeResult maximiseDmrObjective(const DmrRegressionProblem& problem, Eigen::MatrixXd& lambda,
                                       int maxIterations = 50, double tolerance = 1e-7,
                                       const std::stop_token& stop = {});

}  // namespace latent::core::topic
