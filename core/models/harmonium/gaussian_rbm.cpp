// SPDX-License-Identifier: GPL-3.0-or-later
// The Gaussian RBM (000 §27.7.1.3) with a variance per column: free energy, exact log Z of a small
// hidden layer, exact draws, CD-k and PCD.
#include "core/models/harmonium/gaussian_rbm.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

#include "core/util/errors.hpp"
#include "core/util/random.hpp"

namespace latent::core::harmonium {
namespace {

Eigen::VectorXd hiddenBits(std::uint64_t state, Eigen::Index K) {
  Eigen::VectorXd h(K);
  for (Eigen::Index k = 0; k < K; ++k) h[k] = static_cast<double>(state >> k & 1U);
  return h;
}

// log of the unnormalised marginal of each hidden state:
// c^T h + sum_r ((b_r + (W h)_r)^2 - b_r^2) / (2 s_r).
std::vector<double> hiddenStateLogWeights(const GaussianRbmParameters& p) {
  if (p.hidden() > kMaxEnumeratedUnits)
    throw UsageError("the exact sums of a Gaussian RBM enumerate its hidden layer, at most " +
                     std::to_string(kMaxEnumeratedUnits) + " units (this one has " + std::to_string(p.hidden()) + ")");
  const std::uint64_t states = std::uint64_t{1} << p.hidden();
  std::vector<double> out(states);
  const Eigen::ArrayXd base = p.rbm.visibleBias.array().square();
  for (std::uint64_t s = 0; s < states; ++s) {
    const Eigen::VectorXd h = hiddenBits(s, p.hidden());
    const Eigen::ArrayXd mean = (p.rbm.visibleBias + p.rbm.weights * h).array();
    out[s] = p.rbm.hiddenBias.dot(h) + 0.5 * ((mean.square() - base) / p.variance.array()).sum();
  }
  return out;
}

}  // namespace

GaussianRbmParameters::GaussianRbmParameters(Eigen::Index visible, Eigen::Index hidden)
    : rbm(visible, hidden), variance(Eigen::VectorXd::Ones(visible)) {}

void gaussianHiddenProbabilities(const GaussianRbmParameters& p, const Eigen::MatrixXd& cases, Eigen::MatrixXd& out) {
  const Eigen::MatrixXd scaled = cases.array().rowwise() / p.variance.transpose().array();
  hiddenProbabilities(p.rbm, scaled, out);
}

double gaussianFreeEnergy(const GaussianRbmParameters& p, const Eigen::Ref<const Eigen::VectorXd>& v) {
  double f = 0.5 * ((v - p.rbm.visibleBias).array().square() / p.variance.array()).sum();
  const Eigen::VectorXd activation =
      p.rbm.hiddenBias + p.rbm.weights.transpose() * (v.array() / p.variance.array()).matrix();
  for (Eigen::Index k = 0; k < activation.size(); ++k) f -= softplus(activation[k]);
  return f;
}

double gaussianExactLogPartition(const GaussianRbmParameters& p) {
  const auto logWeights = hiddenStateLogWeights(p);
  const double top = *std::max_element(logWeights.begin(), logWeights.end());
  double sum = 0.0;
  for (double w : logWeights) sum += std::exp(w - top);
  return 0.5 * (2.0 * std::numbers::pi * p.variance.array()).log().sum() + top + std::log(sum);
}

double gaussianMeanLogLikelihood(const GaussianRbmParameters& p, const Eigen::MatrixXd& cases, double logPartition) {
  if (cases.rows() == 0) return 0.0;
  double sum = 0.0;
  for (Eigen::Index i = 0; i < cases.rows(); ++i) sum -= gaussianFreeEnergy(p, cases.row(i).transpose());
  return sum / static_cast<double>(cases.rows()) - logPartition;
}

double gaussianReconstructionRmse(const GaussianRbmParameters& p, const Eigen::MatrixXd& cases) {
  if (cases.size() == 0) return 0.0;
  Eigen::MatrixXd hidden;
  gaussianHiddenProbabilities(p, cases, hidden);
  const Eigen::MatrixXd reconstruction = (hidden * p.rbm.weights.transpose()).rowwise() + p.rbm.visibleBias.transpose();
  return std::sqrt((reconstruction - cases).squaredNorm() / static_cast<double>(cases.size()));
}

Eigen::MatrixXd gaussianRbmSamples(const GaussianRbmParameters& p, Eigen::Index count, std::uint64_t seed) {
  const auto logWeights = hiddenStateLogWeights(p);
  const double top = *std::max_element(logWeights.begin(), logWeights.end());
  std::vector<double> cumulative(logWeights.size());
  double total = 0.0;
  for (std::size_t s = 0; s < logWeights.size(); ++s) cumulative[s] = total += std::exp(logWeights[s] - top);
  const Eigen::VectorXd sd = p.variance.cwiseSqrt();
  Rng rng(seed);
  Eigen::MatrixXd out(count, p.visible());
  for (Eigen::Index i = 0; i < count; ++i) {
    const double u = rng.uniform() * total;
    const auto s =
        static_cast<std::uint64_t>(std::lower_bound(cumulative.begin(), cumulative.end(), u) - cumulative.begin());
    const Eigen::VectorXd mean =
        p.rbm.visibleBias + p.rbm.weights * hiddenBits(std::min<std::uint64_t>(s, logWeights.size() - 1), p.hidden());
    for (Eigen::Index r = 0; r < p.visible(); ++r) out(i, r) = mean[r] + sd[r] * rng.normal();
  }
  return out;
}

GaussianRbmTrainer::GaussianRbmTrainer(const GaussianRbmTraining& settings, GaussianRbmParameters initial,
                                       std::uint64_t seed)
    : m_settings(settings),
      m_params(std::move(initial)),
      m_seed(seed),
      m_velocity(m_params.visible(), m_params.hidden()),
      m_logVarianceVelocity(Eigen::VectorXd::Zero(m_params.visible())) {}

void GaussianRbmTrainer::drawHidden(Rng& rng) {
  m_drawn.resize(m_negative.rows(), m_negative.cols());
  for (Eigen::Index i = 0; i < m_negative.rows(); ++i)
    for (Eigen::Index k = 0; k < m_negative.cols(); ++k) m_drawn(i, k) = rng.uniform() < m_negative(i, k) ? 1.0 : 0.0;
  m_reconstruction = (m_drawn * m_params.rbm.weights.transpose()).rowwise() + m_params.rbm.visibleBias.transpose();
}

void GaussianRbmTrainer::negativePhase(const Eigen::MatrixXd& cases, Rng& rng) {
  const int steps = std::max(m_settings.cd.gibbsSteps, 1);
  const Eigen::VectorXd sd = m_params.variance.cwiseSqrt();
  auto addNoise = [&](Eigen::MatrixXd& v) {
    for (Eigen::Index i = 0; i < v.rows(); ++i)
      for (Eigen::Index r = 0; r < v.cols(); ++r) v(i, r) += sd[r] * rng.normal();
  };
  if (!m_settings.cd.persistent) {
    // CD-k from the batch. v is drawn when the variances are learnt: their gradient compares the
    // data's spread with the model's, which the mean alone would understate.
    m_negative = m_positive;
    for (int step = 0; step < steps; ++step) {
      drawHidden(rng);
      if (m_settings.learnVariance) addNoise(m_reconstruction);
      gaussianHiddenProbabilities(m_params, m_reconstruction, m_negative);
    }
    return;
  }
  // PCD (Alg. 27.4): the particles start at the first cases and are a Gibbs chain of the model
  // from then on, v drawn as well as h, so that they follow p(v) and not the data's modes.
  if (m_particles.rows() == 0) {
    const Eigen::Index count = std::max<Eigen::Index>(m_settings.cd.particles, 1);
    m_particles.resize(count, cases.cols());
    for (Eigen::Index s = 0; s < count; ++s) m_particles.row(s) = cases.row(s % cases.rows());
  }
  for (int step = 0; step < steps; ++step) {
    gaussianHiddenProbabilities(m_params, m_particles, m_negative);
    drawHidden(rng);
    m_particles = m_reconstruction;
    addNoise(m_particles);
  }
  m_reconstruction = m_particles;
  gaussianHiddenProbabilities(m_params, m_reconstruction, m_negative);
}

Eigen::VectorXd GaussianRbmTrainer::logVarianceGradient(const Eigen::MatrixXd& v, const Eigen::MatrixXd& h) const {
  const Eigen::MatrixXd mean = h * m_params.rbm.weights.transpose();  // (W E[h | v])_r per row
  const Eigen::ArrayXXd centred = v.rowwise() - m_params.rbm.visibleBias.transpose();
  const Eigen::ArrayXd perColumn = (0.5 * centred.square() - v.array() * mean.array()).colwise().sum().transpose();
  return (perColumn / m_params.variance.array()).matrix();
}

bool GaussianRbmTrainer::epoch(const Eigen::MatrixXd& cases, std::span<const Eigen::Index> order, double learningRate,
                               std::stop_token stop) {
  const auto batchSize = static_cast<std::size_t>(std::max<Eigen::Index>(m_settings.cd.batchSize, 1));
  const double minimumLogVariance = std::log(m_settings.minimumVariance);
  for (std::size_t first = 0; first < order.size(); first += batchSize) {
    if (stop.stop_requested()) return false;
    const auto rows = order.subspan(first, std::min(batchSize, order.size() - first));
    const auto B = static_cast<Eigen::Index>(rows.size());
    m_batch.resize(B, cases.cols());
    for (Eigen::Index i = 0; i < B; ++i) m_batch.row(i) = cases.row(rows[static_cast<std::size_t>(i)]);
    // Positive phase: E[h | v] of the data (000 eq. 27.111); the negative phase's v and E[h | v]
    // in m_reconstruction and m_negative.
    gaussianHiddenProbabilities(m_params, m_batch, m_positive);
    Rng rng(m_seed, static_cast<std::uint64_t>(m_updates) + 1);
    negativePhase(cases, rng);
    const double scale = learningRate / static_cast<double>(B);
    const double negativeScale = learningRate / static_cast<double>(m_reconstruction.rows());
    const double momentum = m_settings.cd.momentum;
    const Eigen::ArrayXd inverseVariance = m_params.variance.array().inverse();
    Eigen::MatrixXd weightStep =
        scale * (m_batch.transpose() * m_positive) - negativeScale * (m_reconstruction.transpose() * m_negative);
    weightStep.array().colwise() *= inverseVariance;
    m_velocity.weights =
        momentum * m_velocity.weights + weightStep - learningRate * m_settings.cd.weightDecay * m_params.rbm.weights;
    const Eigen::ArrayXd visibleStep =
        (scale * (m_batch.colwise().sum().transpose() - static_cast<double>(B) * m_params.rbm.visibleBias) -
         negativeScale * (m_reconstruction.colwise().sum().transpose() -
                          static_cast<double>(m_reconstruction.rows()) * m_params.rbm.visibleBias))
            .array() *
        inverseVariance;
    m_velocity.visibleBias = momentum * m_velocity.visibleBias + visibleStep.matrix();
    m_velocity.hiddenBias = momentum * m_velocity.hiddenBias + scale * m_positive.colwise().sum().transpose() -
                            negativeScale * m_negative.colwise().sum().transpose();
    if (m_settings.learnVariance)
      m_logVarianceVelocity = momentum * m_logVarianceVelocity + scale * logVarianceGradient(m_batch, m_positive) -
                              negativeScale * logVarianceGradient(m_reconstruction, m_negative);
    m_params.rbm.weights += m_velocity.weights;
    m_params.rbm.visibleBias += m_velocity.visibleBias;
    m_params.rbm.hiddenBias += m_velocity.hiddenBias;
    if (m_settings.learnVariance)
      m_params.variance =
          (m_params.variance.array().log() + m_logVarianceVelocity.array()).max(minimumLogVariance).exp().matrix();
    ++m_updates;
  }
  return true;
}

}  // namespace latent::core::harmonium
