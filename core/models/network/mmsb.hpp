// SPDX-License-Identifier: GPL-3.0-or-later
// The mixed membership stochastic block model (000 §27.5.2, eq. 27.77-27.78; Airoldi et al.
// 2008) fitted by collapsed Gibbs sampling of each dyad's pair of indicators (001 eq. 1-5), with
// the robust variant of 000 eq. 27.79 and exact or subsampled non-edges.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "models/model.hpp"

namespace latent::core {

struct MmsbOptions {
  enum class NonEdges { Auto, Exact, Sampled };
  std::int64_t blocks = 3;        // "k"
  std::int64_t iterations = 500;  // sweeps of the chain that continues from the best start
  std::int64_t restarts = 8;      // independent starts; the best log joint continues
  double alpha = 0.1;             // Dirichlet(alpha) on each node's memberships theta_i
  double densityA = 1.0;          // Beta(a, b) prior on each block-pair link probability B_pq
  double densityB = 1.0;
  double rho = 0.0;               // robust variant (000 eq. 27.79); 0 = plain MMSB
  NonEdges nonEdges = NonEdges::Auto;
  double nonEdgeRatio = 1.0;      // sampled: non-edges drawn per sweep per training edge
  std::int64_t snapshotEvery = 10;

  static MmsbOptions fromJson(const nlohmann::json& options);
};

const ModelInfo& mmsbInfo();
std::unique_ptr<Model> makeMmsbModel();

// "auto" uses the exact sampler up to this many training dyads (about 1000 nodes directed,
// 1400 undirected) and samples non-edges above; "exact" refuses graphs beyond kMmsbExactMaxDyads.
inline constexpr std::int64_t kMmsbAutoExactDyads = 1'000'000;
inline constexpr std::int64_t kMmsbExactMaxDyads = 5'000'000;

// Sweeps each restart runs before the restarts are compared.
std::int64_t mmsbRestartSweeps(std::int64_t iterations);

}  // namespace latent::core
