// SPDX-License-Identifier: GPL-3.0-or-later
// CD-k and persistent CD for the binary RBM (000 Alg. 27.3 and 27.4).
#include "core/models/harmonium/rbm_training.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace latent::core::harmonium {
namespace {

// Streams of the minibatch rows are (update << kRowStreamBits) + row; the particles' come after
// every row stream a run can use.
constexpr int kRowStreamBits = 32;
constexpr std::uint64_t kParticleStreams = std::uint64_t{1} << 62;

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
    m_particles = Eigen::VectorXd::Ones(S) * m_params.visibleBias.transpose();
    m_particles = m_particles.unaryExpr([](double x) { return sigmoid(x); });
    sampleBernoulliRows(m_particles, m_particleRngs.data());
  }
}

Rng* RbmTrainer::rowStreams(Eigen::Index rows) {
  m_rowRngs.clear();
  const auto base = static_cast<std::uint64_t>(m_updates) << kRowStreamBits;
  for (Eigen::Index i = 0; i < rows; ++i) m_rowRngs.emplace_back(m_seed, base + static_cast<std::uint64_t>(i));
  return m_rowRngs.data();
}

bool RbmTrainer::epoch(const BinaryData& data, std::span<const Eigen::Index> order, double learningRate,
                       std::stop_token stop) {
  const auto batch = static_cast<std::size_t>(std::max<Eigen::Index>(m_settings.batchSize, 1));
  double squaredError = 0.0;
  for (std::size_t start = 0; start < order.size(); start += batch) {
    if (stop.stop_requested()) return false;
    const auto rows = order.subspan(start, std::min(batch, order.size() - start));
    update(data, rows, learningRate);
    squaredError += (m_data - m_visibleProbabilities).squaredNorm();
  }
  const auto units = static_cast<double>(order.size()) * static_cast<double>(m_params.visible());
  m_reconstructionError = units > 0 ? squaredError / units : 0.0;
  return true;
}

void RbmTrainer::update(const BinaryData& data, std::span<const Eigen::Index> rows, double learningRate) {
  const auto B = static_cast<Eigen::Index>(rows.size());
  const Eigen::Index R = m_params.visible();
  m_data.setZero(B, R);
  for (Eigen::Index i = 0; i < B; ++i)
    for (BinaryData::InnerIterator it(data, rows[static_cast<std::size_t>(i)]); it; ++it)
      m_data(i, it.col()) = it.value();
  Rng* rngs = rowStreams(B);

  // Positive phase: mu_i = E[h | v_i] (Alg. 27.3 line 8), then h_i ~ p(h | v_i) (line 9).
  hiddenProbabilities(m_params, m_data, m_dataHidden);
  m_hidden = m_dataHidden;
  sampleBernoulliRows(m_hidden, rngs);
  // The reconstruction E[v | h_i] is the monitor; the chain goes on from a draw of it (line 10).
  visibleProbabilities(m_params, m_hidden, m_visibleProbabilities);

  const Eigen::MatrixXd* negativeVisible = &m_visible;
  if (!m_settings.persistent) {
    for (int step = 0; step < m_settings.gibbsSteps; ++step) {
      if (step > 0) {
        m_hidden = m_negativeHidden;
        sampleBernoulliRows(m_hidden, rngs);
        visibleProbabilities(m_params, m_hidden, m_visible);
      } else {
        m_visible = m_visibleProbabilities;
      }
      sampleBernoulliRows(m_visible, rngs);
      // mu'_i = E[h | v'_i] (line 11): the mean, not a draw, in the last upward pass.
      hiddenProbabilities(m_params, m_visible, m_negativeHidden);
    }
  } else {
    // Alg. 27.4 line 9: brief Gibbs sampling from the particles' previous states.
    Rng* particleRngs = m_particleRngs.data();
    for (int step = 0; step < m_settings.gibbsSteps; ++step) {
      hiddenProbabilities(m_params, m_particles, m_negativeHidden);
      sampleBernoulliRows(m_negativeHidden, particleRngs);
      visibleProbabilities(m_params, m_negativeHidden, m_particles);
      sampleBernoulliRows(m_particles, particleRngs);
    }
    hiddenProbabilities(m_params, m_particles, m_negativeHidden);
    negativeVisible = &m_particles;
  }

  // Gradient (Alg. 27.3 line 12, Alg. 27.4 line 11): data statistics minus the chains'.
  const double positiveScale = 1.0 / static_cast<double>(B);
  const double negativeScale = 1.0 / static_cast<double>(negativeVisible->rows());
  Eigen::MatrixXd& dW = m_velocity.weights;
  dW *= m_settings.momentum;
  dW.noalias() += learningRate * positiveScale * (m_data.transpose() * m_dataHidden);
  dW.noalias() -= learningRate * negativeScale * (negativeVisible->transpose() * m_negativeHidden);
  dW -= learningRate * m_settings.weightDecay * m_params.weights;
  m_velocity.visibleBias = m_settings.momentum * m_velocity.visibleBias +
                           learningRate * (positiveScale * m_data.colwise().sum().transpose() -
                                           negativeScale * negativeVisible->colwise().sum().transpose());
  m_velocity.hiddenBias = m_settings.momentum * m_velocity.hiddenBias +
                          learningRate * (positiveScale * m_dataHidden.colwise().sum().transpose() -
                                          negativeScale * m_negativeHidden.colwise().sum().transpose());
  m_params.weights += dW;
  m_params.visibleBias += m_velocity.visibleBias;
  m_params.hiddenBias += m_velocity.hiddenBias;
  ++m_updates;
}

}  // namespace latent::core::harmonium
