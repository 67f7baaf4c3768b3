// SPDX-License-Identifier: GPL-3.0-or-later
// CD-k for replicated softmax (000 Alg. 27.3 with eq. 27.129).
#include "core/models/harmonium/rsm_training.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/util/errors.hpp"

namespace latent::core::harmonium {
namespace {

// Streams of the minibatch rows are (update << kRsmRowStreamBits) + row.
constexpr int kRsmRowStreamBits = 32;
constexpr std::uint64_t kRsmParticleStreams = std::uint64_t{1} << 62;
// Documents per task in the minibatch's sampling, and vocabulary rows per task of the gradient's
// product; every document and every row is computed alone, so any split gives the same numbers.
constexpr Eigen::Index kRsmDocumentsPerTask = 4;
constexpr Eigen::Index kRsmWordsPerTask = 1024;

// A task's scratch: one hidden draw and the cumulative probabilities of the multinomial draws.
struct RsmScratch {
  Eigen::VectorXd hidden;
  std::vector<double> cumulative;
};

// L c^T + n^T W for a dense row of word counts drawn by the sampler (at most L of them non-zero,
// so only those rows of W are read).
template <typename Counts>
void rsmActivationOfSample(const RbmParameters& p, double L, const Counts& counts, Eigen::RowVectorXd& activation) {
  activation = L * p.hiddenBias.transpose();
  for (Eigen::Index w = 0; w < counts.size(); ++w)
    if (counts[w] != 0.0) activation += counts[w] * p.weights.row(w);
}

}  // namespace

RbmParameters initialRsmParameters(const WordCounts& counts, Eigen::Index hidden, std::uint64_t seed, double scale) {
  RbmParameters p(counts.cols(), hidden);
  Rng rng(seed, 0);
  for (Eigen::Index k = 0; k < hidden; ++k)
    for (Eigen::Index w = 0; w < p.visible(); ++w) p.weights(w, k) = scale * rng.normal();
  p.visibleBias = logWordFrequencies(counts);
  return p;
}

RsmTrainer::RsmTrainer(const ContrastiveDivergence& settings, RbmParameters initial, std::uint64_t seed,
                       const Eigen::VectorXd& lengths)
    : m_settings(settings),
      m_params(std::move(initial)),
      m_velocity(m_params.visible(), m_params.hidden()),
      m_seed(seed) {
  if (m_settings.adaptive) {
    m_adaptive.emplace(m_params.visible(), m_params.hidden(), m_settings.momentum);
    m_step = RbmParameters(m_params.visible(), m_params.hidden());
  }
  if (!m_settings.persistent) return;
  if (lengths.size() == 0) throw UsageError("persistent CD for replicated softmax needs the documents' lengths");
  // Alg. 27.4 line 2: chains started from the visible biases alone (the unigram model at the start).
  const Eigen::Index S = std::max<Eigen::Index>(m_settings.particles, 1);
  m_particles.setZero(S, m_params.visible());
  m_particleLengths.resize(S);
  Eigen::VectorXd probabilities(m_params.visible());
  wordProbabilities(m_params, Eigen::VectorXd::Zero(m_params.hidden()), probabilities);
  std::vector<double> cumulative;
  for (Eigen::Index s = 0; s < S; ++s) {
    m_particleRngs.emplace_back(seed, kRsmParticleStreams + static_cast<std::uint64_t>(s));
    m_particleLengths[s] = lengths[s % lengths.size()];
    auto row = m_particles.row(s).transpose();
    sampleWordCounts(probabilities, static_cast<std::int64_t>(m_particleLengths[s]), m_particleRngs.back(), row,
                     cumulative);
  }
}

bool RsmTrainer::advanceParticles(const std::stop_token& stop) {
  const Eigen::Index S = m_particles.rows(), V = m_params.visible(), K = m_params.hidden();
  m_particleHidden.resize(S, K);
  std::atomic<bool> halted{false};
  tbb::enumerable_thread_specific<RsmScratch> scratch([K] { return RsmScratch{Eigen::VectorXd(K), {}}; });
  tbb::parallel_for(tbb::blocked_range<Eigen::Index>(0, S, kRsmDocumentsPerTask), [&](const auto& range) {
    auto& own = scratch.local();
    Eigen::VectorXd probabilities(V);
    std::int64_t sampled = 0;
    for (Eigen::Index s = range.begin(); s < range.end(); ++s) {
      if (halted.load(std::memory_order_relaxed) || stop.stop_requested()) {
        halted.store(true, std::memory_order_relaxed);
        break;
      }
      ++sampled;
      Rng& rng = m_particleRngs[static_cast<std::size_t>(s)];
      const double L = m_particleLengths[s];
      auto counts = m_particles.row(s).transpose();
      Eigen::RowVectorXd activation(K);
      for (int step = 0; step <= m_settings.gibbsSteps; ++step) {
        rsmActivationOfSample(m_params, L, counts, activation);
        // The last pass only gives E[h | n'] for the gradient (Alg. 27.4 line 11).
        if (step == m_settings.gibbsSteps) break;
        for (Eigen::Index k = 0; k < K; ++k) own.hidden[k] = rng.uniform() < sigmoid(activation[k]) ? 1.0 : 0.0;
        wordProbabilities(m_params, own.hidden, probabilities);
        sampleWordCounts(probabilities, static_cast<std::int64_t>(L), rng, counts, own.cumulative);
      }
      m_particleHidden.row(s) = activation.unaryExpr([](double x) { return sigmoid(x); });
    }
    m_rowsSampled.fetch_add(sampled, std::memory_order_relaxed);
  });
  return !halted.load();
}

bool RsmTrainer::epoch(const WordCounts& counts, const Eigen::VectorXd& lengths, std::span<const Eigen::Index> order,
                       double learningRate, const std::stop_token& stop) {
  const auto batch = static_cast<std::size_t>(std::max<Eigen::Index>(m_settings.batchSize, 1));
  double logLikelihood = 0.0, words = 0.0;
  for (std::size_t start = 0; start < order.size(); start += batch) {
    if (stop.stop_requested()) return false;
    const auto rows = order.subspan(start, std::min(batch, order.size() - start));
    const auto reconstruction = update(counts, lengths, rows, learningRate, stop);
    if (!reconstruction) return false;
    logLikelihood += *reconstruction;
    for (const auto d : rows) words += lengths[d];
  }
  m_reconstruction = words > 0 ? logLikelihood / words : 0.0;
  return true;
}

std::optional<double> RsmTrainer::update(const WordCounts& counts, const Eigen::VectorXd& lengths,
                                         std::span<const Eigen::Index> rows, double learningRate,
                                         const std::stop_token& stop) {
  const auto B = static_cast<Eigen::Index>(rows.size());
  const Eigen::Index V = m_params.visible(), K = m_params.hidden();
  m_dataHidden.resize(B, K);
  m_negativeHidden.resize(B, K);
  m_wordProbabilities.resize(B, V);
  m_negativeCounts.resize(B, V);
  m_rowReconstruction.assign(static_cast<std::size_t>(B), 0.0);
  const auto streamBase = static_cast<std::uint64_t>(m_updates) << kRsmRowStreamBits;

  std::atomic<bool> halted{false};
  tbb::enumerable_thread_specific<RsmScratch> scratch([K] { return RsmScratch{Eigen::VectorXd(K), {}}; });
  tbb::parallel_for(tbb::blocked_range<Eigen::Index>(0, B, kRsmDocumentsPerTask), [&](const auto& range) {
    auto& own = scratch.local();
    std::int64_t sampled = 0;
    for (Eigen::Index i = range.begin(); i < range.end(); ++i) {
      if (halted.load(std::memory_order_relaxed) || stop.stop_requested()) {
        halted.store(true, std::memory_order_relaxed);
        break;
      }
      ++sampled;
      const Eigen::Index d = rows[static_cast<std::size_t>(i)];
      const double L = lengths[d];
      Rng rng(m_seed, streamBase + static_cast<std::uint64_t>(i));
      // Positive phase: E[h | n] (000 Alg. 27.3 line 8).
      Eigen::RowVectorXd activation = L * m_params.hiddenBias.transpose();
      for (WordCounts::InnerIterator it(counts, d); it; ++it) activation += it.value() * m_params.weights.row(it.col());
      m_dataHidden.row(i) = activation.unaryExpr([](double x) { return sigmoid(x); });
      for (Eigen::Index k = 0; k < K; ++k) own.hidden[k] = rng.uniform() < m_dataHidden(i, k) ? 1.0 : 0.0;
      auto probabilities = m_wordProbabilities.row(i).transpose();
      auto negative = m_negativeCounts.row(i).transpose();
      const int steps = m_settings.persistent ? 1 : m_settings.gibbsSteps;
      for (int step = 0; step < steps; ++step) {
        if (step > 0)
          for (Eigen::Index k = 0; k < K; ++k) own.hidden[k] = rng.uniform() < m_negativeHidden(i, k) ? 1.0 : 0.0;
        // Down: L words drawn from softmax(b + W h) (line 10); up: E[h | n'] (line 11).
        wordProbabilities(m_params, own.hidden, probabilities);
        if (step == 0) {
          double reconstruction = 0.0;
          for (WordCounts::InnerIterator it(counts, d); it; ++it)
            reconstruction += it.value() * std::log(std::max(probabilities[it.col()], 1e-300));
          m_rowReconstruction[static_cast<std::size_t>(i)] = reconstruction;
          if (m_settings.persistent) break;  // the particles give the negative phase
        }
        sampleWordCounts(probabilities, static_cast<std::int64_t>(L), rng, negative, own.cumulative);
        rsmActivationOfSample(m_params, L, negative, activation);
        m_negativeHidden.row(i) = activation.unaryExpr([](double x) { return sigmoid(x); });
      }
    }
    m_rowsSampled.fetch_add(sampled, std::memory_order_relaxed);
  });
  if (halted.load()) return std::nullopt;

  if (m_settings.persistent && !advanceParticles(stop)) return std::nullopt;
  const RowMatrix& negativeCounts = m_settings.persistent ? m_particles : m_negativeCounts;
  const Eigen::MatrixXd& negativeHidden = m_settings.persistent ? m_particleHidden : m_negativeHidden;

  // The gradient of Alg. 27.3 line 12 (Alg. 27.4 line 11) with each document's terms divided by
  // its length: the gradient of the mean over documents of log p(v_d) / L_d, the per-word
  // log-likelihood that perplexity averages over documents (000 eq. 27.29). It keeps a long
  // document from outweighing many short ones, and the size of a step from growing with the
  // lengths. Data terms come from sparse rows in row order, the negative chains' from a dense
  // product split by words; the chains count as B rows (as many as the minibatch for CD, S
  // particles weighted B / S for PCD).
  const double negativeWeight = static_cast<double>(B) / static_cast<double>(negativeCounts.rows());
  const Eigen::VectorXd& negativeLengths = m_settings.persistent ? m_particleLengths : m_batchLengths;
  m_batchLengths.resize(B);
  for (Eigen::Index i = 0; i < B; ++i) m_batchLengths[i] = lengths[rows[static_cast<std::size_t>(i)]];
  const Eigen::VectorXd negativeRowWeight = negativeWeight * negativeLengths.cwiseInverse();
  m_scaledNegativeHidden = negativeRowWeight.asDiagonal() * negativeHidden;
  m_gradient.setZero(V, K);
  Eigen::VectorXd visibleGradient = Eigen::VectorXd::Zero(V);
  for (Eigen::Index i = 0; i < B; ++i) {
    const double perWord = 1.0 / m_batchLengths[i];
    for (WordCounts::InnerIterator it(counts, rows[static_cast<std::size_t>(i)]); it; ++it) {
      m_gradient.row(it.col()) += it.value() * perWord * m_dataHidden.row(i);
      visibleGradient[it.col()] += it.value() * perWord;
    }
  }
  tbb::parallel_for(tbb::blocked_range<Eigen::Index>(0, V, kRsmWordsPerTask), [&](const auto& range) {
    if (halted.load(std::memory_order_relaxed) || stop.stop_requested()) {
      halted.store(true, std::memory_order_relaxed);
      return;
    }
    const auto n = range.end() - range.begin();
    m_gradient.middleRows(range.begin(), n).noalias() -=
        negativeCounts.middleCols(range.begin(), n).transpose() * m_scaledNegativeHidden;
    visibleGradient.segment(range.begin(), n).noalias() -=
        negativeCounts.middleCols(range.begin(), n).transpose() * negativeRowWeight;
  });
  if (halted.load()) return std::nullopt;
  // The hidden biases enter the energy as L c^T h: their gradient, divided by L, is h.
  const Eigen::VectorXd hiddenGradient =
      m_dataHidden.colwise().sum().transpose() - negativeWeight * negativeHidden.colwise().sum().transpose();
  const double scale = 1.0 / static_cast<double>(B);

  if (m_adaptive) {
    m_step.weights = scale * m_gradient - m_settings.weightDecay * m_params.weights;
    m_step.visibleBias = scale * visibleGradient;
    m_step.hiddenBias = scale * hiddenGradient;
    m_adaptive->apply(m_params, m_step, learningRate);
  } else {
    m_velocity.weights *= m_settings.momentum;
    m_velocity.weights += learningRate * (scale * m_gradient - m_settings.weightDecay * m_params.weights);
    m_velocity.visibleBias = m_settings.momentum * m_velocity.visibleBias + learningRate * scale * visibleGradient;
    m_velocity.hiddenBias = m_settings.momentum * m_velocity.hiddenBias + learningRate * scale * hiddenGradient;
    m_params.weights += m_velocity.weights;
    m_params.visibleBias += m_velocity.visibleBias;
    m_params.hiddenBias += m_velocity.hiddenBias;
  }
  ++m_updates;

  double total = 0.0;
  for (const double r : m_rowReconstruction) total += r;
  return total;
}

}  // namespace latent::core::harmonium
