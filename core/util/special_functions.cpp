// SPDX-License-Identifier: GPL-3.0-or-later
// Special functions for Dirichlet posteriors and hyperparameter updates.
#include "core/util/special_functions.hpp"

#include <math.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace latent::core {

double digamma(double x) noexcept {
  if (!(x > 0.0)) return std::numeric_limits<double>::quiet_NaN();
  double result = 0.0;
  // psi(x) = psi(x + 1) - 1/x moves x to where the asymptotic series converges fast.
  while (x < 8.0) {
    result -= 1.0 / x;
    x += 1.0;
  }
  const double f = 1.0 / (x * x);
  // psi(x) ~ ln x - 1/(2x) - sum_n B_2n / (2n x^2n), seven terms: the next is below 1e-15 at 8.
  result += std::log(x) - 0.5 / x -
            f * (1.0 / 12 -
                 f * (1.0 / 120 - f * (1.0 / 252 - f * (1.0 / 240 - f * (1.0 / 132 - f * (691.0 / 32760 - f / 12))))));
  return result;
}

double trigamma(double x) noexcept {
  if (!(x > 0.0)) return std::numeric_limits<double>::quiet_NaN();
  double result = 0.0;
  while (x < 8.0) {
    result += 1.0 / (x * x);
    x += 1.0;
  }
  const double f = 1.0 / (x * x);
  // psi'(x) ~ 1/x + 1/(2x^2) + sum_n B_2n / x^(2n+1), seven terms.
  result += 1.0 / x + f / 2.0 +
            f / x *
                (1.0 / 6 -
                 f * (1.0 / 30 - f * (1.0 / 42 - f * (1.0 / 30 - f * (5.0 / 66 - f * (691.0 / 2730 - f * 7.0 / 6))))));
  return result;
}

double logGamma(double x) noexcept {
#if defined(__GLIBC__)
  int sign = 0;
  return ::lgamma_r(x, &sign);
#else
  return std::lgamma(x);
#endif
}

double logBeta(double x, double y) noexcept { return logGamma(x) + logGamma(y) - logGamma(x + y); }

double inverseDigamma(double x) noexcept {
  // Minka's initialisation: exp(x) + 1/2 for large x, -1/(x + gamma) for small x.
  constexpr double kEulerGamma = 0.57721566490153286;
  double y = x >= -2.22 ? std::exp(x) + 0.5 : -1.0 / (x - (-kEulerGamma));
  for (int i = 0; i < 6; ++i) y -= (digamma(y) - x) / trigamma(y);
  return y;
}

double logSumExp(std::span<const double> values) noexcept {
  if (values.empty()) return -std::numeric_limits<double>::infinity();
  const double top = *std::max_element(values.begin(), values.end());
  if (!std::isfinite(top)) return top;
  double sum = 0.0;
  for (const double v : values) sum += std::exp(v - top);
  return top + std::log(sum);
}

}  // namespace latent::core
