// SPDX-License-Identifier: GPL-3.0-or-later
// Document completion for replicated softmax, the protocol every topic model here is scored by
// (003 §5; 000 eq. 27.29): each held-out document's scored half is predicted from its observed
// half. A scored word's probability is p(w | observed) = E[softmax(b + W h)_w | observed], the
// posterior of h taken under the model of the whole document's length with the scored positions
// unknown; it is estimated by Gibbs sampling that fills the unknown positions in (h given all
// words, the unknown words given h), averaging softmax(b + W h) over the draws of h. As for the
// topic models, each scored word is predicted alone from the observed half.
#pragma once

#include <cstdint>
#include <stop_token>
#include <vector>

#include <Eigen/Core>

#include "core/eval/heldout.hpp"
#include "core/models/harmonium/binary_rbm.hpp"

namespace latent::core::harmonium {

struct RsmCompletionSettings {
  int burnIn = 10;   // sweeps before the draws of h are averaged
  int samples = 20;  // draws of h averaged
};

// sum over each held-out document's scored words of log p(w | observed half), one entry per
// document; parallel over documents, each on the stream Rng(seed, full-corpus index), so the
// result does not depend on the thread count. Empty when `stop` was requested.
std::vector<double> rsmCompletionLogLikelihoods(const RbmParameters& p, const HeldoutDocuments& heldout,
                                                const RsmCompletionSettings& settings, std::uint64_t seed,
                                                std::stop_token stop = {});

}  // namespace latent::core::harmonium
