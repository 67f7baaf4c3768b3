// SPDX-License-Identifier: GPL-3.0-or-later
// AIS for the replicated softmax (Salakhutdinov & Hinton 2009, §3-4; Salakhutdinov & Murray 2008,
// §4) and the full-document held-out perplexity from it.
#include "core/models/harmonium/rsm_ais.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numbers>
#include <span>
#include <vector>

#include "core/util/clock.hpp"
#include "core/util/errors.hpp"
#include "core/util/random.hpp"

namespace latent::core::harmonium {
namespace {

// Particles run together, their word logits one dense product (particles x K times K x V). The
// blocks are fixed by the particle count, never by the threads, so a particle's numbers do not
// depend on the schedule.
constexpr Eigen::Index kRsmAisParticlesPerBlock = 16;
// Temperatures between two checks of the stop request.
constexpr Eigen::Index kRsmAisTemperaturesPerStopCheck = 32;
// The product is taken over slices of the vocabulary whose part of W^T (K x slice floats) stays
// under Eigen's limit for packing on the stack (128 KiB), so that it allocates nothing.
constexpr Eigen::Index kRsmAisSliceBytes = 96 * 1024;

using RsmAisFloatRows = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using RsmAisRows = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// W^T twice: in double for the hidden inputs, on which the importance weights depend, and in single
// precision for the word logits of the transitions, which only steer the draws (the product and
// the exponentials over the vocabulary are most of the cost; single precision halves it, and its
// rounding, about 1e-7 of a logit, moves the distribution a transition keeps by far less than
// AIS's spread).
struct RsmAisWeights {
  Eigen::MatrixXd transposed;  // K x V: column w is W_w:, contiguous
  Eigen::MatrixXf transposedSingle;
};

// The state and workspace of one block of particles along the whole path: each particle's L words,
// their hidden input a = L c + W^T n and their two bias terms b_A^T n and b^T n.
class RsmAisBlock {
 public:
  RsmAisBlock(const RbmParameters& p, const RsmAisWeights& weights, std::int64_t length,
              const Eigen::VectorXd& baseBias, Eigen::Index particles)
      : m_p(p),
        m_weights(weights),
        m_length(length),
        m_baseBias(baseBias),
        m_scaledHiddenBias(static_cast<double>(length) * p.hiddenBias.transpose()),
        m_words(static_cast<std::size_t>(particles * length)),
        m_input(particles, p.hidden()),
        m_baseTerm(particles),
        m_modelTerm(particles),
        m_hidden(particles, p.hidden()),
        m_logits(particles, p.visible()),
        m_mixedBias(p.visible()),
        m_cumulative(static_cast<std::size_t>(p.visible())) {}

  Eigen::Index particles() const { return m_input.rows(); }

  // Particle i's words drawn from `cumulative` (V unnormalised cumulative probabilities), then
  // its hidden input and bias terms.
  void drawWords(Eigen::Index i, const double* cumulative, Rng& rng) {
    const Eigen::Index V = m_p.visible();
    const double total = cumulative[V - 1];
    std::int32_t* words = m_words.data() + i * m_length;
    for (std::int64_t j = 0; j < m_length; ++j) {
      const double u = rng.uniform() * total;
      const auto w = std::upper_bound(cumulative, cumulative + V, u) - cumulative;
      words[j] = static_cast<std::int32_t>(std::min<Eigen::Index>(w, V - 1));
    }
    auto input = m_input.row(i);
    input = m_scaledHiddenBias;
    double base = 0.0, model = 0.0;
    for (std::int64_t j = 0; j < m_length; ++j) {
      const Eigen::Index w = words[j];
      input += m_weights.transposed.col(w).transpose();
      base += m_baseBias[w];
      model += m_p.visibleBias[w];
    }
    m_baseTerm[i] = base;
    m_modelTerm[i] = model;
  }

  // log p*_beta(n) of particle i's words.
  double logUnnormalised(Eigen::Index i, double beta) const {
    double value = (1.0 - beta) * m_baseTerm[i] + beta * m_modelTerm[i];
    for (Eigen::Index k = 0; k < m_input.cols(); ++k) value += softplus(beta * m_input(i, k));
    return value;
  }

  // One Gibbs sweep at `beta` for every particle: h | n, then the words | h.
  void sweep(double beta, Rng* rngs) {
    const Eigen::Index P = particles(), K = m_p.hidden(), V = m_p.visible();
    for (Eigen::Index i = 0; i < P; ++i)
      for (Eigen::Index k = 0; k < K; ++k)
        m_hidden(i, k) = rngs[i].uniform() < sigmoid(beta * m_input(i, k)) ? 1.0F : 0.0F;
    const Eigen::Index slice =
        std::max<Eigen::Index>(16, kRsmAisSliceBytes / (Eigen::Index{sizeof(float)} * std::max<Eigen::Index>(K, 1)));
    for (Eigen::Index from = 0; from < V; from += slice) {
      const Eigen::Index width = std::min(slice, V - from);
      m_logits.middleCols(from, width).noalias() = m_hidden * m_weights.transposedSingle.middleCols(from, width);
    }
    m_mixedBias = ((1.0 - beta) * m_baseBias + beta * m_p.visibleBias).cast<float>().transpose();
    const auto betaSingle = static_cast<float>(beta);
    for (Eigen::Index i = 0; i < P; ++i) {
      auto row = m_logits.row(i);
      row = betaSingle * row + m_mixedBias;
      const float top = row.maxCoeff();
      row = (row.array() - top).exp();
      double total = 0.0;
      for (Eigen::Index w = 0; w < V; ++w) m_cumulative[static_cast<std::size_t>(w)] = total += row[w];
      drawWords(i, m_cumulative.data(), rngs[i]);
    }
  }

 private:
  const RbmParameters& m_p;
  const RsmAisWeights& m_weights;
  std::int64_t m_length;
  const Eigen::VectorXd& m_baseBias;
  Eigen::RowVectorXd m_scaledHiddenBias;  // L c^T
  std::vector<std::int32_t> m_words;      // particle i's words at [i L, (i + 1) L)
  RsmAisRows m_input;                     // P x K
  Eigen::VectorXd m_baseTerm;
  Eigen::VectorXd m_modelTerm;
  Eigen::MatrixXf m_hidden;        // P x K
  RsmAisFloatRows m_logits;        // P x V, then each row's unnormalised probabilities
  Eigen::RowVectorXf m_mixedBias;  // (1 - beta) b_A + beta b
  std::vector<double> m_cumulative;
};

}  // namespace

AisEstimate estimateRsmLogPartition(const RbmParameters& p, std::int64_t length, const Eigen::VectorXd& baseVisibleBias,
                                    const AisSettings& settings, std::uint64_t seed, std::stop_token stop) {
  const Eigen::Index V = p.visible(), K = p.hidden();
  const Eigen::Index M = std::max<Eigen::Index>(settings.particles, 1);
  const std::vector<double> betas = aisTemperatures(settings.temperatures);
  const auto T = static_cast<Eigen::Index>(betas.size()) - 1;
  RsmAisWeights weights{p.weights.transpose(), p.weights.transpose().cast<float>()};

  // At beta = 0 the hidden units are free and the words independent draws from softmax(b_A).
  const double top = baseVisibleBias.maxCoeff();
  const double logNormaliser = top + std::log((baseVisibleBias.array() - top).exp().sum());
  const double logBase = static_cast<double>(length) * logNormaliser + static_cast<double>(K) * std::numbers::ln2;
  Eigen::VectorXd baseCumulative = (baseVisibleBias.array() - top).exp();
  for (Eigen::Index w = 1; w < V; ++w) baseCumulative[w] += baseCumulative[w - 1];

  std::vector<double> logWeights(static_cast<std::size_t>(M), 0.0);
  const Eigen::Index blocks = (M + kRsmAisParticlesPerBlock - 1) / kRsmAisParticlesPerBlock;
  tbb::parallel_for(tbb::blocked_range<Eigen::Index>(0, blocks, 1), [&](const auto& range) {
    for (Eigen::Index b = range.begin(); b < range.end(); ++b) {
      const Eigen::Index first = b * kRsmAisParticlesPerBlock;
      const Eigen::Index P = std::min(kRsmAisParticlesPerBlock, M - first);
      RsmAisBlock block(p, weights, length, baseVisibleBias, P);
      std::vector<Rng> rngs;
      rngs.reserve(static_cast<std::size_t>(P));
      for (Eigen::Index i = 0; i < P; ++i) rngs.emplace_back(seed, static_cast<std::uint64_t>(first + i));
      // An exact draw from the base model.
      for (Eigen::Index i = 0; i < P; ++i) block.drawWords(i, baseCumulative.data(), rngs[static_cast<std::size_t>(i)]);
      std::span<double> blockWeights(logWeights.data() + first, static_cast<std::size_t>(P));
      for (Eigen::Index t = 1; t <= T; ++t) {
        if (t % kRsmAisTemperaturesPerStopCheck == 0 && stop.stop_requested()) return;
        const double beta = betas[static_cast<std::size_t>(t)], previous = betas[static_cast<std::size_t>(t - 1)];
        for (Eigen::Index i = 0; i < P; ++i)
          blockWeights[static_cast<std::size_t>(i)] +=
              block.logUnnormalised(i, beta) - block.logUnnormalised(i, previous);
        if (t < T) block.sweep(beta, rngs.data());
      }
    }
  });
  if (stop.stop_requested()) throw Cancelled();
  return aisEstimate(logBase, logWeights, T);
}

RsmAisPerplexity rsmAisPerplexity(const RbmParameters& p, const WordCounts& documents,
                                  const Eigen::VectorXd& baseVisibleBias, const AisSettings& settings,
                                  std::uint64_t seed, std::stop_token stop) {
  const Stopwatch clock;
  RsmAisPerplexity out;
  const Eigen::VectorXd lengths = documentLengths(documents);
  if (lengths.sum() <= 0.0) return out;
  // Documents per distinct length, in increasing order of length.
  std::map<std::int64_t, std::int64_t> perLength;
  for (Eigen::Index d = 0; d < lengths.size(); ++d) ++perLength[static_cast<std::int64_t>(std::llround(lengths[d]))];
  std::vector<std::int64_t> distinct;
  for (const auto& [length, count] : perLength) distinct.push_back(length);

  // The longest lengths first: they take longest.
  std::vector<AisEstimate> estimates(distinct.size());
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, distinct.size(), 1), [&](const auto& range) {
    for (std::size_t j = range.begin(); j < range.end(); ++j) {
      const std::size_t i = distinct.size() - 1 - j;
      const std::int64_t L = distinct[i];
      estimates[i] = estimateRsmLogPartition(p, L, baseVisibleBias, settings,
                                             Rng(seed, static_cast<std::uint64_t>(L)).next(), stop);
    }
  });

  double freeEnergy = 0.0, logZ = 0.0, logZLow = 0.0, logZHigh = 0.0;
  Eigen::VectorXd counts(p.visible());
  for (Eigen::Index d = 0; d < documents.rows(); ++d) {
    counts = documents.row(d).transpose();
    freeEnergy += rsmFreeEnergy(p, counts, lengths[d]);
  }
  for (std::size_t i = 0; i < distinct.size(); ++i) {
    const auto documentsOfLength = static_cast<double>(perLength[distinct[i]]);
    logZ += documentsOfLength * estimates[i].logPartition;
    logZLow += documentsOfLength * estimates[i].low;
    logZHigh += documentsOfLength * estimates[i].high;
  }
  const double tokens = lengths.sum();
  out.logLikelihood = -freeEnergy - logZ;
  out.perplexity = std::exp((freeEnergy + logZ) / tokens);
  out.low = std::exp((freeEnergy + logZLow) / tokens);  // 0 when a low end is -inf
  out.high = std::exp((freeEnergy + logZHigh) / tokens);
  out.documents = documents.rows();
  out.tokens = static_cast<std::int64_t>(tokens);
  out.lengths = static_cast<std::int64_t>(distinct.size());
  out.seconds = clock.seconds();
  return out;
}

}  // namespace latent::core::harmonium
