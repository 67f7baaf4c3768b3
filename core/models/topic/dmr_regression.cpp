// SPDX-License-Identifier: GPL-3.0-or-later
// The DMR objective, its gradient and its L-BFGS maximisation.
#include "core/models/topic/dmr_regression.hpp"

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
  // L-BFGS on the negated objective, with the parameters flattened.
  constexpr std::size_t kMemory = 7;
  constexpr double kArmijo = 1e-4;
  const auto size = lambda.size();
  Eigen::MatrixXd gradientMatrix;
  const auto evaluate = [&](const Eigen::VectorXd& at, Eigen::VectorXd& g) {
    const Eigen::MatrixXd l = Eigen::Map<const Eigen::MatrixXd>(at.data(), lambda.rows(), lambda.cols());
    const double v = dmrObjective(problem, l, &gradientMatrix);
    g = -Eigen::Map<const Eigen::VectorXd>(gradientMatrix.data(), size);
    return -v;
  };
  Eigen::VectorXd x = Eigen::Map<const Eigen::VectorXd>(lambda.data(), size);
  Eigen::VectorXd g(size), next(size), nextG(size), direction(size);
  double f = evaluate(x, g);
  DmrOptimizeResult result;
  if (!std::isfinite(f)) {
    result.objective = -f;
    return result;
  }
  std::deque<Eigen::VectorXd> s, y;
  std::deque<double> rho;
  std::vector<double> a(kMemory);
  for (int it = 0; it < maxIterations && !stop.stop_requested(); ++it) {
    // Two-loop recursion: direction = -H g.
    direction = -g;
    for (std::size_t i = s.size(); i-- > 0;) {
      a[i] = rho[i] * s[i].dot(direction);
      direction -= a[i] * y[i];
    }
    if (!s.empty()) direction *= s.back().dot(y.back()) / y.back().squaredNorm();
    for (std::size_t i = 0; i < s.size(); ++i) {
      const double b = rho[i] * y[i].dot(direction);
      direction += (a[i] - b) * s[i];
    }
    double slope = g.dot(direction);
    if (!(slope < 0.0)) {  // not a descent direction: restart from steepest descent
      s.clear();
      y.clear();
      rho.clear();
      direction = -g;
      slope = -g.squaredNorm();
    }
    if (slope == 0.0) break;
    // The first step of a steepest-descent direction has no scale: start it at unit length.
    double step = s.empty() ? std::min(1.0, 1.0 / std::sqrt(-slope)) : 1.0;
    double nextF = std::numeric_limits<double>::infinity();
    bool accepted = false;
    for (int tries = 0; tries < 40; ++tries) {
      next = x + step * direction;
      nextF = evaluate(next, nextG);
      if (std::isfinite(nextF) && nextF <= f + kArmijo * step * slope) {
        accepted = true;
        break;
      }
      step *= 0.5;
    }
    if (!accepted) break;
    ++result.iterations;
    const double gain = f - nextF;
    Eigen::VectorXd sk = next - x, yk = nextG - g;
    const double sy = sk.dot(yk);
    x.swap(next);
    g.swap(nextG);
    f = nextF;
    if (sy > 1e-12) {
      if (s.size() == kMemory) {
        s.pop_front();
        y.pop_front();
        rho.pop_front();
      }
      s.push_back(std::move(sk));
      y.push_back(std::move(yk));
      rho.push_back(1.0 / sy);
    }
    if (gain <= tolerance * std::max(1.0, std::abs(f))) break;
  }
  lambda = Eigen::Map<const Eigen::MatrixXd>(x.data(), lambda.rows(), lambda.cols());
  result.objective = -f;
  return result;
}

}  // namespace latent::core::topic
