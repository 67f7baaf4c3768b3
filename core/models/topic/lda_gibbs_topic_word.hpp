// SPDX-License-Identifier: GPL-3.0-or-later
// A Gibbs chain's topics, phi_kw = (n_kw + beta) / (n_k + V beta) (001 eq. 6), read from any
// sampler kernel's table in the three forms the chain hands them on: a dense K x V (the result),
// the sparse form of the snapshots, and the columns the held-out scores read. The three hold the
// same values to the bit.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstdint>

#include <Eigen/Core>

#include "core/data/filled_sparse_matrix.hpp"
#include "core/eval/topic_columns.hpp"
#include "core/models/topic/lda_gibbs_state.hpp"

namespace latent::core::topic {

// 1 / (n_k + V beta) of every topic.
template <typename Kernel>
Eigen::VectorXd inverseTopicTotals(const Kernel& kernel, const LdaGibbsState& state) {
  const int K = state.topics(), V = state.vocabularySize();
  Eigen::VectorXd inverse(K);
  for (int k = 0; k < K; ++k)
    inverse[k] = 1.0 / (static_cast<double>(kernel.topicTotals()[static_cast<std::size_t>(k)]) + V * state.beta());
  return inverse;
}

// phi_kw = (n_kw + beta) / (n_k + V beta), the posterior mean given Z (001 eq. 6), in doubles:
// one formula for every form the topics take, so that they are the same to the bit.
inline double phiOfCount(double beta, double inverse, std::int64_t count) {
  return beta * inverse + static_cast<double>(count) * inverse;
}

// This sample's phi, K x V. Each value is computed in doubles, then stored as phi's scalar (floats
// for a large topic_word).
template <typename Kernel, typename Matrix>
void fillTopicWord(const Kernel& kernel, const LdaGibbsState& state, Matrix& phi) {
  using Scalar = typename Matrix::Scalar;
  const int K = state.topics(), V = state.vocabularySize();
  const double beta = state.beta();
  const Eigen::VectorXd inverse = inverseTopicTotals(kernel, state);
  phi.resize(K, V);
  tbb::parallel_for(tbb::blocked_range<int>(0, V, 256), [&](const auto& r) {
    for (int w = r.begin(); w != r.end(); ++w) {
      phi.col(w) = (beta * inverse).template cast<Scalar>();
      kernel.forEachTopicOfWord(static_cast<std::size_t>(w), [&](std::int32_t k, std::int64_t c) {
        phi(k, w) = static_cast<Scalar>(phiOfCount(beta, inverse[k], c));
      });
    }
  });
}

// This sample's phi as the held-out scores read it, a column at a time from the table: the values
// fillTopicWord stores (rounded to floats where topic_word is held as floats), without a K x V.
// The kernel's table must be current (synchronizeState) and stay so while it is read.
template <typename Kernel>
class SampledTopicColumns final : public TopicColumns {
 public:
  SampledTopicColumns(const Kernel& kernel, const LdaGibbsState& state, bool asFloats)
      : m_kernel(kernel),
        m_beta(state.beta()),
        m_inverse(inverseTopicTotals(kernel, state)),
        m_fill(m_inverse.size()),
        m_asFloats(asFloats) {
    for (Eigen::Index k = 0; k < m_fill.size(); ++k) m_fill[k] = held(m_beta * m_inverse[k]);
  }
  Eigen::Index topics() const override { return m_inverse.size(); }
  void column(std::int32_t w, double* out) const override {
    std::copy(m_fill.begin(), m_fill.end(), out);
    forEachOverride(w, [&](std::int32_t k, double value) { out[k] = value; });
  }
  bool heldAsFloats() const override { return m_asFloats; }
  const double* fill() const override { return m_fill.data(); }
  void overrides(std::int32_t w, std::vector<TopicValue>& out) const override {
    out.clear();
    forEachOverride(w, [&](std::int32_t k, double value) { out.push_back({k, value}); });
  }

 private:
  double held(double value) const { return heldValue(value, m_asFloats); }
  // f(k, phi_kw) for the topics that hold word w's tokens.
  template <typename F>
  void forEachOverride(std::int32_t w, F&& f) const {
    m_kernel.forEachTopicOfWord(static_cast<std::size_t>(w), [&](std::int32_t k, std::int64_t c) {
      f(k, held(phiOfCount(m_beta, m_inverse[k], c)));
    });
  }

  const Kernel& m_kernel;
  double m_beta;
  Eigen::VectorXd m_inverse;
  Eigen::VectorXd m_fill;  // phi_kw of the words without tokens in topic k
  bool m_asFloats;
};

// The same phi as fillTopicWord, value for value, as the smoothing of each topic and the entries of
// the (topic, word) pairs that hold tokens: a snapshot at K = 3000 is then ~1M entries instead of
// a dense K x V written out and stored.
template <typename Kernel>
FilledSparseMatrix sparseTopicWord(const Kernel& kernel, const LdaGibbsState& state) {
  return filledTopics(SampledTopicColumns<Kernel>(kernel, state, false), state.vocabularySize());
}

}  // namespace latent::core::topic
