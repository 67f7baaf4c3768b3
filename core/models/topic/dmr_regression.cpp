// SPDX-License-Identifier: GPL-3.0-or-later
// The DMR objective, its gradient and its L-BFGS maximisation.
#include "core/models/topic/dmr_regression.hpp"

#include "core/util/lbfgs.hpp"

#include <cmath>
#include <deque>
#include <limits>

#include "core/util/special_functions.hpp"

namespace latent::core::topic {

double dmrObjective(const DmrRegressionProblem& problem, const Eigen::MatrixXd& lambda, Eigen::MatrixXd* gradient) {
  const Eigen::MatrixXd& x = *problem.features;
  const DmrTopicCounts& n = *problem.counts;
  const Eigen::Index D = x.rows(), K = lambda.rows();
  const Eigen::MatrixXd logAlpha = x * lambda.transpose();  // D x K
  if (gradient) gradient->setZero(lambda.rows(), lambda.cols());
  Eigen::VectorXd alpha(K), weight(K);
  double value = 0.0;
  for (Eigen::Index d = 0; d < D; ++d) {
    alpha = logAlpha.row(d).transpose().array().exp();
    const double alpha0 = alpha.sum();
    if (!std::isfinite(alpha0) || alpha.minCoeff() <= 0.0) return -std::numeric_limits<double>::infinity();
    double length = 0.0;
    for (Eigen::Index k = 0; k < K; ++k) length += n(d, k);
    value += logGamma(alpha0) - logGamma(alpha0 + length);
    for (Eigen::Index k = 0; k < K; ++k)
      if (n(d, k) > 0) value += logGamma(alpha[k] + n(d, k)) - logGamma(alpha[k]);
    if (!gradient || length == 0.0) continue;
    const double shared = digamma(alpha0) - digamma(alpha0 + length);
    for (Eigen::Index k = 0; k < K; ++k) {
      // psi(a + n) - psi(a) as the sum of 1 / (a + i) for small n: exact, and cheaper.
      double own = 0.0;
      const std::int32_t c = n(d, k);
      if (c < 20)
        for (std::int32_t i = 0; i < c; ++i) own += 1.0 / (alpha[k] + i);
      else
        own = digamma(alpha[k] + c) - digamma(alpha[k]);
      weight[k] = alpha[k] * (shared + own);
    }
    gradient->noalias() += weight * x.row(d);
  }
  for (Eigen::Index f = 0; f < lambda.cols(); ++f) {
    const double v = problem.priorVariance[f];
    value -= lambda.col(f).squaredNorm() / (2.0 * v);
    if (gradient) gradient->col(f) -= lambda.col(f) / v;
  }
  return value;
}

DmrOptimizeResult maximiseDmrObjective(const DmrRegressionProblem& problem, Eigen::MatrixXd& lambda, int maxIterations,
                                       double tolerance, const std::stop_token& stop) {
  // L-BFGS (core/util/lbfgs.hpp) on the negated objective, the parameters flattened. A stop
  // request ends it at the next evaluation, keeping the last accepted point.
  struct DmrStopped {};
  const auto size = lambda.size();
  Eigen::MatrixXd gradientMatrix;
  const auto negated = [&](const Eigen::VectorXd& at, Eigen::VectorXd& g) {
    if (stop.stop_requested()) throw DmrStopped{};
    const Eigen::MatrixXd l = Eigen::Map<const Eigen::MatrixXd>(at.data(), lambda.rows(), lambda.cols());
    const double v = dmrObjective(problem, l, &gradientMatrix);
    g = -Eigen::Map<const Eigen::VectorXd>(gradientMatrix.data(), size);
    return -v;
  };
  Eigen::VectorXd x = Eigen::Map<const Eigen::VectorXd>(lambda.data(), size);
  LbfgsOptions options;
  options.memory = 7;
  options.maxIterations = maxIterations;
  options.gradientTolerance = 0.0;  // the objective is a sum over documents: judge by its relative gain
  options.valueTolerance = tolerance;
  DmrOptimizeResult result;
  try {
    const auto fit = minimizeLbfgs(negated, x, options);
    result.iterations = fit.iterations;
  } catch (const DmrStopped&) {
  }
  lambda = Eigen::Map<const Eigen::MatrixXd>(x.data(), lambda.rows(), lambda.cols());
  result.objective = dmrObjective(problem, lambda, nullptr);
  return result;
}

}  // namespace latent::core::topic
