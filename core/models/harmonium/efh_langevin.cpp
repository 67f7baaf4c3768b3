// SPDX-License-Identifier: GPL-3.0-or-later
// GB-EFH by maximum likelihood and by the Langevin algorithm with empirical Bayes (004 §3-4).
#include "core/models/harmonium/efh_langevin.hpp"

#include <algorithm>
#include <cmath>

#include "core/util/dense_svd.hpp"

namespace latent::core::harmonium {
namespace {

// Each step draws from streams of its own: the brief sampling's cases from one seed, the Langevin
// noise from another.
enum class StepStream : std::uint64_t { BriefSampling = 0, LangevinNoise = 1 };

std::uint64_t stepSeed(std::uint64_t seed, std::int64_t step, StepStream stream) {
  Rng mixer(seed, static_cast<std::uint64_t>(step) * 2 + static_cast<std::uint64_t>(stream));
  return mixer.next();
}

}  // namespace

EfhPrior EfhPrior::uniform(Eigen::Index visible, double mean, double sd) {
  return {Eigen::VectorXd::Constant(visible, mean), Eigen::VectorXd::Constant(visible, sd)};
}

EfhPrior EfhPrior::fromWeights(const Eigen::MatrixXd& weights) {
  PriorUpdate update;
  update.add(weights);
  return update.estimate(0.0);
}

EfhTrainer::EfhTrainer(const EfhSteps& steps, EfhParameters initial, std::uint64_t seed)
    : m_settings(steps), m_params(std::move(initial)), m_seed(seed) {}

double EfhTrainer::langevinStepSize(Eigen::Index cases) const {
  if (m_settings.langevinStep > 0.0) return m_settings.langevinStep;
  // eps^2 / 2 times the summed gradient then moves W as far as the ML step moves it.
  return std::sqrt(2.0 * m_settings.learningRate / static_cast<double>(std::max<Eigen::Index>(cases, 1)));
}

bool EfhTrainer::likelihoodGradient(const BinaryData& data, std::stop_token stop) {
  if (!briefSample(m_params, data, m_settings.briefSteps, stepSeed(m_seed, m_steps, StepStream::BriefSampling),
                   m_sampled, std::move(stop)))
    return false;
  // 004 eq. 16-17: X^T X W from the data, N times grad log Z from the brief samples.
  sufficientStatistics(m_params, data, m_data);
  sufficientStatistics(m_params, m_sampled, m_model);
  m_gradient = m_data.weights - m_model.weights;
  m_biasGradient = m_data.visible - m_model.visible;
  return true;
}

bool EfhTrainer::maximumLikelihoodStep(const BinaryData& data, std::stop_token stop) {
  if (!likelihoodGradient(data, std::move(stop))) return false;
  const double scale = m_settings.learningRate / static_cast<double>(std::max<Eigen::Index>(data.rows(), 1));
  m_params.weights += scale * m_gradient;
  if (m_settings.fitVisibleBias) m_params.visibleBias += scale * m_biasGradient;
  ++m_steps;
  return true;
}

bool EfhTrainer::langevinStep(const BinaryData& data, const EfhPrior& prior, std::stop_token stop) {
  if (!likelihoodGradient(data, std::move(stop))) return false;
  const double eps = langevinStepSize(data.rows());
  const double drift = 0.5 * eps * eps;
  // 004 eq. 15: the prior's pull, -(W_ij - mu_i) / sigma_i^2.
  const Eigen::VectorXd precision = prior.sd.array().square().inverse().matrix();
  m_gradient -= precision.asDiagonal() * (m_params.weights.colwise() - prior.mean);
  Rng noise(stepSeed(m_seed, m_steps, StepStream::LangevinNoise));
  for (Eigen::Index j = 0; j < m_params.hidden(); ++j)
    for (Eigen::Index i = 0; i < m_params.visible(); ++i)
      m_params.weights(i, j) += drift * m_gradient(i, j) + eps * noise.normal();
  if (m_settings.fitVisibleBias) {
    // theta stays a point estimate (004 §2): the ML step for it.
    const double scale = m_settings.learningRate / static_cast<double>(std::max<Eigen::Index>(data.rows(), 1));
    m_params.visibleBias += scale * m_biasGradient;
  }
  ++m_steps;
  return true;
}

void PosteriorWeights::add(const Eigen::MatrixXd& weights) {
  if (m_draws == 0) {
    m_reference = weights;
    m_sum = Eigen::MatrixXd::Zero(weights.rows(), weights.cols());
    m_sumSquares = m_sum;
    if (m_keepOuterProducts) m_outerSum = Eigen::MatrixXd::Zero(weights.rows(), weights.rows());
  }
  // Orthogonal Procrustes: Q = U V^T from the SVD of W^T W_ref minimises |W Q - W_ref|.
  const ThinSvd svd = thinSvd(weights.transpose() * m_reference);  // square: thin is full
  const Eigen::MatrixXd rotated = weights * (svd.u * svd.v.transpose());
  m_sum += rotated;
  m_sumSquares += rotated.cwiseAbs2();
  if (m_keepOuterProducts) m_outerSum.noalias() += weights * weights.transpose();
  ++m_draws;
}

Eigen::MatrixXd PosteriorWeights::mean() const { return m_draws == 0 ? m_sum : m_sum / static_cast<double>(m_draws); }

Eigen::MatrixXd PosteriorWeights::sd() const {
  if (m_draws == 0) return m_sum;
  const auto n = static_cast<double>(m_draws);
  const Eigen::MatrixXd mu = m_sum / n;
  return (m_sumSquares / n - mu.cwiseAbs2()).cwiseMax(0.0).cwiseSqrt();
}

Eigen::MatrixXd PosteriorWeights::meanOuterProduct() const {
  return m_draws == 0 ? m_outerSum : m_outerSum / static_cast<double>(m_draws);
}

void PriorUpdate::add(const Eigen::MatrixXd& weights) {
  if (m_draws == 0) {
    m_hidden = weights.cols();
    m_sum = Eigen::VectorXd::Zero(weights.rows());
    m_sumSquares = m_sum;
  }
  m_sum += weights.rowwise().sum();
  m_sumSquares += weights.rowwise().squaredNorm();
  ++m_draws;
}

EfhPrior PriorUpdate::estimate(double minimumSd) {
  // 004 eq. 24-25 over the J K values of each visible unit (J K - 1 in the spread's denominator).
  const auto n = static_cast<double>(m_draws * m_hidden);
  EfhPrior prior;
  prior.mean = m_sum / n;
  const Eigen::ArrayXd squares = m_sumSquares.array() - n * prior.mean.array().square();
  prior.sd = (squares.max(0.0) / std::max(n - 1.0, 1.0)).sqrt().max(minimumSd).matrix();
  m_draws = 0;
  return prior;
}

OuterProductErrors outerProductErrors(const Eigen::MatrixXd& truth, const Eigen::MatrixXd& estimate) {
  OuterProductErrors e;
  const Eigen::ArrayXXd difference = (truth - estimate).array().abs();
  const auto cells = static_cast<double>(truth.size());
  e.meanAbsolute = difference.sum() / cells;
  const Eigen::ArrayXXd scale = truth.array().abs().max(estimate.array().abs());
  e.meanRelative = (scale > 0.0).select(difference / scale, 0.0).sum() / cells;
  return e;
}

}  // namespace latent::core::harmonium
