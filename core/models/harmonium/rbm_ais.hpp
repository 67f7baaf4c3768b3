// SPDX-License-Identifier: GPL-3.0-or-later
// Annealed importance sampling of an RBM's log partition function (000 §27.7.3.1, which refers to
// §24.6.2; Salakhutdinov & Murray 2008, "On the quantitative analysis of deep belief networks").
// The path runs from a base RBM with no weights and visible biases b_A, whose Z is known, to the
// model: p*_beta(v) = exp((1 - beta) b_A^T v + beta b^T v) prod_k (1 + exp(beta (c_k + W_:k^T v))).
#pragma once

#include <cstdint>
#include <stop_token>

#include <Eigen/Core>

#include "core/models/harmonium/ais_support.hpp"
#include "core/models/harmonium/binary_rbm.hpp"

namespace latent::core::harmonium {

// The base model's visible biases are best baseRateBiases(data) (binary_rbm.hpp), which puts the
// start of the path close to the data (Salakhutdinov & Murray §4.2).
// Runs the particles in parallel, each on its own stream of `seed`, so the estimate depends on the
// seed only. Throws Cancelled when `stop` is requested.
AisEstimate estimateLogPartition(const RbmParameters& p, const Eigen::VectorXd& baseVisibleBias,
                                 const AisSettings& settings, std::uint64_t seed, std::stop_token stop = {});

}  // namespace latent::core::harmonium
