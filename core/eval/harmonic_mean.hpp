// SPDX-License-Identifier: GPL-3.0-or-later
// The harmonic-mean estimate of the evidence log P(W) from posterior samples (001 eq. 9) —
// a biased estimator, kept because it is what the literature long reported (Wallach et al. 2009).
#pragma once

#include <span>

namespace latent::core {

// 001 eq. 9: log P(W) ~= log N - log sum_n exp(-t_n), with t_n = log P(W | Z^(n)) for samples
// Z^(n) ~ P(Z | W), computed as log N - log sum_n exp(t_0 - t_n) + t_0 with t_0 = min_n t_n so
// that no exponent is positive. NaN for an empty span.
//
// 1/P(W) is the posterior mean of 1/P(W|Z), so the estimate is consistent, but 1/P(W|Z) is
// heavy-tailed under the posterior: finite runs miss the rare samples that dominate that mean,
// and the estimate comes out too high (Wallach, Murray, Salakhutdinov & Mimno 2009, "Evaluation
// methods for topic models"; Newton & Raftery 1994). Report it under a name that says so.
double harmonicMeanLogEvidence(std::span<const double> logLikelihoods) noexcept;

}  // namespace latent::core
