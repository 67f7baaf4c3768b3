// SPDX-License-Identifier: GPL-3.0-or-later
// CD-k and persistent CD for the binary RBM (000 Alg. 27.3 and 27.4).
#include "core/models/harmonium/rbm_training.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

namespace latent::core::harmonium {
namespace {

// Streams of the minibatch rows are (update << kRowStreamBits) + row; the particles' come after
// every row stream a run can use.
constexpr int kRowStreamBits = 32;
constexpr std::uint64_t kParticleStreams = std::uint64_t{1} << 62;
// The reconstruction monitor reads the first kMonitorCases cases once per epoch, on streams
// (epoch << kRowStreamBits) + case after kMonitorStreams: its own draws, so that watching the
// fit does not change it, and a fixed set, so that its curve shows the model and not the batch.
constexpr Eigen::Index kMonitorCases = 100;
constexpr std::uint64_t kMonitorStreams = std::uint64_t{1} << 61;

// Standard deviation of the initial weights.
constexpr double kInitialWeightScale = 0.01;

}  // namespace

RbmParameters initialParameters(const BinaryData& data, Eigen::Index hidden, std::uint64_t seed) {
  RbmParameters p(data.cols(), hidden);
  Rng rng(seed, 0);
  for (Eigen::Index k = 0; k < hidden; ++k)
    for (Eigen::Index r = 0; r < p.visible(); ++r) p.weights(r, k) = kInitialWeightScale * rng.normal();
  p.visibleBias = baseRateBiases(data);
  return p;
}

RbmTrainer::RbmTrainer(const ContrastiveDivergence& settings, RbmParameters initial, std::uint64_t seed)
    : m_settings(settings),
      m_params(std::move(initial)),
      m_velocity(m_params.visible(), m_params.hidden()),
      m_seed(seed) {
  if (m_settings.persistent) {
    // Alg. 27.4 line 2: chains started at random, here from the visible biases alone.
    const Eigen::Index S = m_settings.particles;
    m_particleRngs.reserve(static_cast<std::size_t>(S));
    for (Eigen::Index s = 0; s < S; ++s)
      m_particleRngs.emplace_back(seed, kParticleStreams + static_cast<std::uint64_t>(s));
    m_visible = Eigen::VectorXd::Ones(S) * m_params.visibleBias.transpose();
    m_visible = m_visible.unaryExpr([](double x) { return sigmoid(x); });
    sampleBernoulliRows(m_visible, m_particleRngs.data(), m_particles);
  }
}

Rng* RbmTrainer::rowStreams(std::uint64_t base, Eigen::Index rows) {
  m_rowRngs.clear();
  for (Eigen::Index i = 0; i < rows; ++i) m_rowRngs.emplace_back(m_seed, base + static_cast<std::uint64_t>(i));
  return m_rowRngs.data();
}

bool RbmTrainer::epoch(const BinaryData& data, std::span<const Eigen::Index> order, double learningRate,
                       std::stop_token stop) {
  const auto batch = static_cast<std::size_t>(std::max<Eigen::Index>(m_settings.batchSize, 1));
  for (std::size_t start = 0; start < order.size(); start += batch) {
    if (stop.stop_requested()) return false;
    update(data, order.subspan(start, std::min(batch, order.size() - start)), learningRate);
  }
  m_reconstructionError = monitorReconstruction(data);
  ++m_epochs;
  return true;
}

void RbmTrainer::gatherRows(const BinaryData& data, std::span<const Eigen::Index> rows) {
  m_batch.resize(static_cast<Eigen::Index>(rows.size()), data.cols());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    m_batch.startVec(static_cast<Eigen::Index>(i));
    for (BinaryData::InnerIterator it(data, rows[i]); it; ++it)
      m_batch.insertBack(static_cast<Eigen::Index>(i), it.col()) = it.value();
  }
  m_batch.finalize();
}

double RbmTrainer::monitorReconstruction(const BinaryData& data) {
  const Eigen::Index M = std::min(kMonitorCases, data.rows());
  if (M == 0) return 0.0;
  m_monitorRows.resize(static_cast<std::size_t>(M));
  std::iota(m_monitorRows.begin(), m_monitorRows.end(), Eigen::Index{0});
  gatherRows(data, m_monitorRows);
  Rng* rngs = rowStreams(kMonitorStreams + (static_cast<std::uint64_t>(m_epochs) << kRowStreamBits), M);
  hiddenProbabilities(m_params, m_batch, m_hidden);
  sampleBernoulliRows(m_hidden, rngs);
  visibleProbabilities(m_params, m_hidden, m_visible);
  // sum (v - p)^2 = sum p^2 - 2 sum v p + sum v^2 reads v only where it is not 0.
  double squaredError = m_visible.squaredNorm();
  for (Eigen::Index i = 0; i < M; ++i)
    for (BinaryData::InnerIterator it(m_batch, i); it; ++it)
      squaredError += it.value() * (it.value() - 2.0 * m_visible(i, it.col()));
  return squaredError / (static_cast<double>(M) * static_cast<double>(m_params.visible()));
}

void RbmTrainer::update(const BinaryData& data, std::span<const Eigen::Index> rows, double learningRate) {
  const auto B = static_cast<Eigen::Index>(rows.size());
  gatherRows(data, rows);
  Rng* rngs = rowStreams(static_cast<std::uint64_t>(m_updates) << kRowStreamBits, B);

  // Positive phase: mu_i = E[h | v_i] (Alg. 27.3 line 8), then h_i ~ p(h | v_i) (line 9).
  hiddenProbabilities(m_params, m_batch, m_dataHidden);
  m_hidden = m_dataHidden;
  sampleBernoulliRows(m_hidden, rngs);

  const BinaryData* negativeVisible = &m_negative;
  if (!m_settings.persistent) {
    for (int step = 0; step < m_settings.gibbsSteps; ++step) {
      if (step > 0) {
        m_hidden = m_negativeHidden;
        sampleBernoulliRows(m_hidden, rngs);
      }
      // v'_i ~ p(v | h_i) (line 10), drawn from E[v | h_i].
      visibleProbabilities(m_params, m_hidden, m_visible);
      sampleBernoulliRows(m_visible, rngs, m_negative);
      // mu'_i = E[h | v'_i] (line 11): the mean, not a draw, in the last upward pass.
      hiddenProbabilities(m_params, m_negative, m_negativeHidden);
    }
  } else {
    // Alg. 27.4 line 9: brief Gibbs sampling from the particles' previous states.
    Rng* particleRngs = m_particleRngs.data();
    for (int step = 0; step < m_settings.gibbsSteps; ++step) {
      hiddenProbabilities(m_params, m_particles, m_negativeHidden);
      sampleBernoulliRows(m_negativeHidden, particleRngs);
      visibleProbabilities(m_params, m_negativeHidden, m_visible);
      sampleBernoulliRows(m_visible, particleRngs, m_particles);
    }
    hiddenProbabilities(m_params, m_particles, m_negativeHidden);
    negativeVisible = &m_particles;
  }

  // Gradient (Alg. 27.3 line 12, Alg. 27.4 line 11): data statistics minus the chains', both from
  // sparse visible states.
  const double positiveScale = learningRate / static_cast<double>(B);
  const double negativeScale = learningRate / static_cast<double>(negativeVisible->rows());
  Eigen::MatrixXd& dW = m_velocity.weights;
  dW *= m_settings.momentum;
  dW.noalias() += positiveScale * (m_batch.transpose() * m_dataHidden);
  dW.noalias() -= negativeScale * (negativeVisible->transpose() * m_negativeHidden);
  dW -= learningRate * m_settings.weightDecay * m_params.weights;
  Eigen::VectorXd& db = m_velocity.visibleBias;
  db *= m_settings.momentum;
  for (Eigen::Index i = 0; i < B; ++i)
    for (BinaryData::InnerIterator it(m_batch, i); it; ++it) db[it.col()] += positiveScale * it.value();
  for (Eigen::Index i = 0; i < negativeVisible->rows(); ++i)
    for (BinaryData::InnerIterator it(*negativeVisible, i); it; ++it) db[it.col()] -= negativeScale * it.value();
  m_velocity.hiddenBias = m_settings.momentum * m_velocity.hiddenBias +
                          positiveScale * m_dataHidden.colwise().sum().transpose() -
                          negativeScale * m_negativeHidden.colwise().sum().transpose();
  m_params.weights += dW;
  m_params.visibleBias += db;
  m_params.hiddenBias += m_velocity.hiddenBias;
  ++m_updates;
}

}  // namespace latent::core::harmonium
