// SPDX-License-Identifier: GPL-3.0-or-later
// Digamma, trigamma and their inverse, thread-safe log Gamma and log Beta, and log-sum-exp: what
// Dirichlet- and Beta-based models need.
#pragma once

#include <span>

namespace latent::core {

// psi(x) = d/dx log Gamma(x) for x > 0: recurrence up to x >= 8, then the asymptotic series.
// Accurate to about 1e-14 relative.
double digamma(double x) noexcept;
// psi'(x) for x > 0, same scheme.
double trigamma(double x) noexcept;
// The y with digamma(y) = x (Minka 2000, appendix C: a good start, then Newton's method).
double inverseDigamma(double x) noexcept;

// log Gamma(x) for x > 0, thread-safe: std::lgamma may write the global `signgam` (a data race
// when restarts run in parallel).
double logGamma(double x) noexcept;
// log B(x, y) = log Gamma(x) + log Gamma(y) - log Gamma(x + y) for x, y > 0, thread-safe.
double logBeta(double x, double y) noexcept;

// log(sum_i exp(v_i)) without overflow; -inf for an empty span.
double logSumExp(std::span<const double> values) noexcept;

}  // namespace latent::core
