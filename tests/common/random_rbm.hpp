// SPDX-License-Identifier: GPL-3.0-or-later
// A binary RBM with random parameters and exact draws from it (its hidden layer enumerated), for
// the tests that check the RBM's sums, samplers and training against the truth.
#pragma once

#include <Eigen/SparseCore>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/models/harmonium/binary_rbm.hpp"
#include "core/util/random.hpp"

namespace latent::test {

// W ~ N(0, scale^2), b and c ~ N(0, 0.25), drawn in that order from stream 0 of `seed`.
inline core::harmonium::RbmParameters randomRbm(Eigen::Index visible, Eigen::Index hidden, double scale,
                                                std::uint64_t seed) {
  core::Rng rng(seed);
  core::harmonium::RbmParameters p(visible, hidden);
  for (Eigen::Index r = 0; r < visible; ++r)
    for (Eigen::Index k = 0; k < hidden; ++k) p.weights(r, k) = scale * rng.normal();
  for (Eigen::Index r = 0; r < visible; ++r) p.visibleBias[r] = 0.5 * rng.normal();
  for (Eigen::Index k = 0; k < hidden; ++k) p.hiddenBias[k] = 0.5 * rng.normal();
  return p;
}

// The n lowest bits of `state` as a 0/1 vector (bit i is unit i).
inline Eigen::VectorXd bits(std::uint64_t state, Eigen::Index n) {
  Eigen::VectorXd v(n);
  for (Eigen::Index i = 0; i < n; ++i) v[i] = static_cast<double>(state >> i & 1U);
  return v;
}

// Rows of 0/1 values as the sparse cases the trainer reads.
inline core::harmonium::BinaryData toData(const std::vector<Eigen::VectorXd>& rows, Eigen::Index visible) {
  std::vector<Eigen::Triplet<double>> entries;
  for (std::size_t i = 0; i < rows.size(); ++i)
    for (Eigen::Index r = 0; r < visible; ++r)
      if (rows[i][r] > 0.5) entries.emplace_back(static_cast<Eigen::Index>(i), r, 1.0);
  core::harmonium::BinaryData data(static_cast<Eigen::Index>(rows.size()), visible);
  data.setFromTriplets(entries.begin(), entries.end());
  return data;
}

// Exact samples of v: h from its marginal p(h), proportional to exp(c^T h + sum_r softplus(b_r +
// W_r h)) (small K, enumerated), then v from p(v | h).
inline core::harmonium::BinaryData exactSamples(const core::harmonium::RbmParameters& p, int count,
                                                std::uint64_t seed) {
  const auto states = std::uint64_t{1} << p.hidden();
  std::vector<double> logWeight(states);
  for (std::uint64_t s = 0; s < states; ++s) {
    const Eigen::VectorXd h = bits(s, p.hidden());
    const Eigen::VectorXd a = p.visibleBias + p.weights * h;
    logWeight[s] = p.hiddenBias.dot(h);
    for (Eigen::Index r = 0; r < a.size(); ++r) logWeight[s] += core::harmonium::softplus(a[r]);
  }
  const double top = *std::max_element(logWeight.begin(), logWeight.end());
  std::vector<double> cumulative(states);
  double total = 0.0;
  for (std::uint64_t s = 0; s < states; ++s) cumulative[s] = total += std::exp(logWeight[s] - top);
  core::Rng rng(seed);
  std::vector<Eigen::VectorXd> rows;
  for (int i = 0; i < count; ++i) {
    const double u = rng.uniform() * total;
    const auto s =
        static_cast<std::uint64_t>(std::lower_bound(cumulative.begin(), cumulative.end(), u) - cumulative.begin());
    const Eigen::VectorXd a = p.visibleBias + p.weights * bits(std::min(s, states - 1), p.hidden());
    Eigen::VectorXd v(p.visible());
    for (Eigen::Index r = 0; r < v.size(); ++r) v[r] = rng.uniform() < core::harmonium::sigmoid(a[r]) ? 1.0 : 0.0;
    rows.push_back(v);
  }
  return toData(rows, p.visible());
}

}  // namespace latent::test
