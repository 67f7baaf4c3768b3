// SPDX-License-Identifier: GPL-3.0-or-later
// The synthetic GB-EFH of 004 §5.1 and exact draws from it. The weights: the best rank-J
// approximation W W^T of a symmetric M x M matrix with entries uniform in [0, 0.1] (004 §5.1).
// Exact draws: p(x) is proportional to exp(theta^T x + 1/2 x^T V x) with V = W W^T (004 eq. 28);
// when V has no negative entry off its diagonal, each unit's conditional rises with every other
// unit, Gibbs sampling is monotone, and coupling from the past (Propp & Wilson 1996) gives exact
// draws — the attractive case of the perfect sampling 004 §5.1 uses.
#pragma once

#include <cstdint>

#include <Eigen/Core>

#include "core/models/harmonium/gaussian_hidden_efh.hpp"

namespace latent::core::harmonium {

// W (M x J) as in 004 §5.1, drawn from the seed. Redraws (a new stream) until V = W W^T has no
// negative entry, which exact sampling needs.
Eigen::MatrixXd syntheticEfhWeights(Eigen::Index visible, Eigen::Index hidden, std::uint64_t seed);

// True when coupling from the past applies: V = W W^T has no negative entry off the diagonal.
bool isAttractive(const EfhParameters& p);

// `cases` exact draws of x from p(x) (rows, N x M), case c by coupling from the past on the streams
// of (seed, c). Throws UsageError when the model is not attractive.
BinaryData exactEfhSamples(const EfhParameters& p, Eigen::Index cases, std::uint64_t seed);

}  // namespace latent::core::harmonium
