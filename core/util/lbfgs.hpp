// SPDX-License-Identifier: GPL-3.0-or-later
// Limited-memory BFGS for smooth convex objectives (Nocedal & Wright 2006, Algorithm 7.4/7.5) with a
// weak-Wolfe line search by bracketing and bisection (Lewis & Overton 2013), and linear conjugate
// gradients for a symmetric positive definite system given as a product (Nocedal & Wright 2006,
// Algorithm 5.2). Written here rather than taken from a library: the baselines and the models of
// responses need no more than this, and no further dependency.
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>

namespace latent::core {

struct LbfgsOptions {
  int memory = 10;          // correction pairs kept
  int maxIterations = 500;  // iterations (each one line search)
  // Converged when the gradient's largest entry is below this, or when an iteration lowers the
  // objective by less than `valueTolerance` times its magnitude.
  double gradientTolerance = 1e-6;
  double valueTolerance = 1e-12;
};

struct LbfgsResult {
  double value = 0.0;
  int iterations = 0;
  int evaluations = 0;
  bool converged = false;
};

// Minimises f from x (updated in place). `objective(x, gradient)` returns f(x) and writes its
// gradient (gradient has x's size on entry). Deterministic: no randomness, no threads of its own.
template <typename Objective>
LbfgsResult minimizeLbfgs(Objective&& objective, Eigen::VectorXd& x, const LbfgsOptions& options = {}) {
  const Eigen::Index n = x.size();
  LbfgsResult result;
  Eigen::VectorXd gradient(n), trialGradient(n), direction(n), trial(n);
  double value = objective(x, gradient);
  ++result.evaluations;
  std::deque<Eigen::VectorXd> steps, changes;  // s_k = x_{k+1} - x_k, y_k = g_{k+1} - g_k
  std::deque<double> rhos;
  Eigen::VectorXd alphas(options.memory);

  for (; result.iterations < options.maxIterations; ++result.iterations) {
    if (n == 0 || gradient.lpNorm<Eigen::Infinity>() <= options.gradientTolerance) {
      result.converged = true;
      break;
    }
    // The two-loop recursion: direction = -H g.
    direction = -gradient;
    for (int i = static_cast<int>(steps.size()) - 1; i >= 0; --i) {
      alphas[i] = rhos[i] * steps[i].dot(direction);
      direction -= alphas[i] * changes[i];
    }
    if (!steps.empty()) direction *= steps.back().dot(changes.back()) / changes.back().squaredNorm();
    for (std::size_t i = 0; i < steps.size(); ++i) {
      const double beta = rhos[i] * changes[i].dot(direction);
      direction += (alphas[static_cast<Eigen::Index>(i)] - beta) * steps[i];
    }
    double slope = gradient.dot(direction);
    if (!(slope < 0.0)) {  // not a descent direction (rounding): restart from steepest descent
      steps.clear();
      changes.clear();
      rhos.clear();
      direction = -gradient;
      slope = -gradient.squaredNorm();
    }

    // Weak Wolfe conditions: sufficient decrease (c1) and curvature (c2).
    constexpr double c1 = 1e-4, c2 = 0.9;
    double low = 0.0, high = std::numeric_limits<double>::infinity();
    double step = steps.empty() ? std::min(1.0, 1.0 / direction.lpNorm<Eigen::Infinity>()) : 1.0;
    double trialValue = value;
    bool accepted = false;
    for (int search = 0; search < 50; ++search) {
      trial = x + step * direction;
      trialValue = objective(trial, trialGradient);
      ++result.evaluations;
      if (!std::isfinite(trialValue) || trialValue > value + c1 * step * slope) {
        high = step;
      } else if (trialGradient.dot(direction) < c2 * slope) {
        low = step;
      } else {
        accepted = true;
        break;
      }
      step = std::isinf(high) ? 2.0 * low : 0.5 * (low + high);
    }
    if (!accepted) {
      // No step met both conditions within the budget: keep a step that lowered the objective,
      // or stop where we are (at the precision of the arithmetic).
      if (!(std::isfinite(trialValue) && trialValue < value)) {
        result.converged = true;
        break;
      }
    }
    const double decrease = value - trialValue;
    Eigen::VectorXd s = trial - x;
    Eigen::VectorXd y = trialGradient - gradient;
    x.swap(trial);
    gradient.swap(trialGradient);
    value = trialValue;
    const double sy = s.dot(y);
    if (sy > 1e-12 * std::sqrt(s.squaredNorm() * y.squaredNorm())) {
      if (static_cast<int>(steps.size()) == options.memory) {
        steps.pop_front();
        changes.pop_front();
        rhos.pop_front();
      }
      steps.push_back(std::move(s));
      changes.push_back(std::move(y));
      rhos.push_back(1.0 / sy);
    }
    if (decrease <= options.valueTolerance * std::max(1.0, std::abs(value))) {
      result.converged = gradient.lpNorm<Eigen::Infinity>() <= std::sqrt(options.gradientTolerance);
      ++result.iterations;
      break;
    }
  }
  result.value = value;
  return result;
}

struct ConjugateGradientResult {
  int iterations = 0;
  double relativeResidual = 0.0;
};

// Solves A x = b for symmetric positive definite A given as `multiply(v, out)` (out = A v), from x
// (updated in place: a warm start), until |r| <= tolerance |b| or maxIterations.
template <typename Multiply>
ConjugateGradientResult solveConjugateGradient(Multiply&& multiply, const Eigen::VectorXd& b, Eigen::VectorXd& x,
                                               double tolerance, int maxIterations) {
  ConjugateGradientResult result;
  const double bNorm = b.norm();
  if (bNorm == 0.0) {
    x.setZero();
    return result;
  }
  Eigen::VectorXd r(b.size()), p(b.size()), q(b.size());
  multiply(x, q);
  r = b - q;
  p = r;
  double rr = r.squaredNorm();
  for (; result.iterations < maxIterations && std::sqrt(rr) > tolerance * bNorm; ++result.iterations) {
    multiply(p, q);
    const double alpha = rr / p.dot(q);
    x += alpha * p;
    r -= alpha * q;
    const double rrNext = r.squaredNorm();
    p = r + (rrNext / rr) * p;
    rr = rrNext;
  }
  result.relativeResidual = std::sqrt(rr) / bNorm;
  return result;
}

}  // namespace latent::core
