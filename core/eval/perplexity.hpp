// SPDX-License-Identifier: GPL-3.0-or-later
// Per-word perplexity from per-document log-likelihoods (000 eq. 27.29).
#pragma once

#include <cstdint>
#include <span>

namespace latent::core {

// 000 eq. 27.29: exp(-(1/N) sum_i (1/L_i) sum_l log q(y_il)), the geometric-mean branching
// factor with every document weighted equally. `logLikelihoods[i]` is sum_l log q(y_il) in nats
// and `lengths[i]` is L_i; documents with L_i = 0 are skipped.
double perplexityPerDocument(std::span<const double> logLikelihoods, std::span<const std::int64_t> lengths);

// The token-weighted variant exp(-sum_i sum_l log q(y_il) / sum_i L_i) of Blei et al. (2003),
// which scikit-learn and gensim report; given beside eq. 27.29 for comparison with them.
double perplexityPerToken(std::span<const double> logLikelihoods, std::span<const std::int64_t> lengths);

}  // namespace latent::core
