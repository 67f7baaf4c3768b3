// SPDX-License-Identifier: GPL-3.0-or-later
// Annealed importance sampling of the replicated softmax's log partition function Z_L, which
// depends on the document length L (Salakhutdinov & Hinton 2009, "Replicated softmax: an
// undirected topic model", §3-4; 000 §27.7.3.1 and §24.6.2), and the full-document held-out
// perplexity it gives. The path runs from a base model with no weights and word biases b_A, whose
// Z is known, to the model:
//   p*_beta(n) = exp((1 - beta) b_A^T n + beta b^T n) prod_k (1 + exp(beta (L c_k + W_:k^T n))),
//   log Z_A = L log sum_w exp(b_A,w) + K log 2,
// each step a Gibbs sweep that leaves p_beta invariant: h ~ Ber(sigm(beta (L c + W^T n))), then L
// words ~ softmax((1 - beta) b_A + beta (b + W h)). As in replicated_softmax.hpp, Z_L sums over
// word sequences, so exp(-F(n)) / Z_L is the probability of a document's word sequence.
#pragma once

#include <cstdint>
#include <stop_token>

#include <Eigen/Core>

#include "core/models/harmonium/ais_support.hpp"
#include "core/models/harmonium/binary_rbm.hpp"
#include "core/models/harmonium/replicated_softmax.hpp"

namespace latent::core::harmonium {

// An AIS estimate of log Z_L for documents of `length` words. The base model's biases are best
// logWordFrequencies(training counts) (replicated_softmax.hpp), which puts the start of the path
// close to the data. The particles run in fixed blocks, in parallel, each particle on its own
// stream of `seed`, so the estimate depends on the seed only, not on the thread count. Throws
// Cancelled when `stop` is requested.
AisEstimate estimateRsmLogPartition(const RbmParameters& p, std::int64_t length, const Eigen::VectorXd& baseVisibleBias,
                                    const AisSettings& settings, std::uint64_t seed, std::stop_token stop = {});

// The held-out perplexity of whole documents, exp(-sum_d log p(n_d) / sum_d L_d) with log p(n_d) =
// -F(n_d) - log Z_(L_d), each Z_L an AIS estimate; not document completion (rsm_completion.hpp).
struct RsmAisPerplexity {
  double perplexity = 0.0;
  // The range from each length's spread, every length taken at the same end of its own (the
  // widest the errors can add up to); low is 0 when a spread reaches Z = 0.
  double low = 0.0;
  double high = 0.0;
  double logLikelihood = 0.0;  // sum_d log p(n_d), with the estimates of Z
  std::int64_t documents = 0;
  std::int64_t tokens = 0;
  std::int64_t lengths = 0;  // distinct lengths, one AIS run each
  double seconds = 0.0;      // wall-clock time of the whole computation
};

// Estimates Z_L once per distinct length of `documents` (D x V count rows), the lengths in
// parallel, length L on the seed Rng(seed, L).next(). Throws Cancelled when `stop` is requested.
RsmAisPerplexity rsmAisPerplexity(const RbmParameters& p, const WordCounts& documents,
                                  const Eigen::VectorXd& baseVisibleBias, const AisSettings& settings,
                                  std::uint64_t seed, std::stop_token stop = {});

}  // namespace latent::core::harmonium
