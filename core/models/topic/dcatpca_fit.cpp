// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/models/topic/dcatpca_fit.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include <Eigen/Cholesky>
#include <Eigen/LU>

#include "core/util/lbfgs.hpp"
#include "core/util/random.hpp"

namespace latent::core::topic {
namespace {

// Iterations between checks of the stop token (L-BFGS restarts its memory after each run).
constexpr int kDcatpcaIterationsPerRun = 50;

// The negative log posterior over theta = [V^T (features x K), W^T (K x labels), b, Z (documents
// x K)], each block column-major, the data terms averaged over documents:
//   (1/n) sum_d [ n_d lse(W z_d + b) - sum_{l in y_d} (W z_d + b)_l
//                 + (z_d - V x_d)^T Sigma^-1 (z_d - V x_d) / 2 ]
//   + penalty/2 (|V|^2 + |W|^2)
template <typename Matrix>
struct DcatpcaObjective {
  const Matrix& features;
  const Eigen::MatrixXd& counts;  // documents x labels: how often each label is drawn
  Eigen::Index latent;
  double penalty;
  Eigen::MatrixXd precision;  // Sigma^-1, K x K
  Eigen::MatrixXd means, logits, residuals, gaps, weightedGaps;

  double operator()(const Eigen::VectorXd& theta, Eigen::VectorXd& gradient) {
    const Eigen::Index p = features.cols(), n = features.rows(), labels = counts.cols(), k = latent;
    const Eigen::Map<const Eigen::MatrixXd> v(theta.data(), p, k);
    const Eigen::Map<const Eigen::MatrixXd> w(theta.data() + p * k, k, labels);
    const auto b = theta.segment(p * k + k * labels, labels);
    const Eigen::Map<const Eigen::MatrixXd> z(theta.data() + p * k + k * labels + labels, n, k);
    means.noalias() = features * v;
    logits.noalias() = z * w;
    logits.rowwise() += b.transpose();
    residuals.resize(n, labels);
    double loss = 0.0;
    for (Eigen::Index i = 0; i < n; ++i) {
      const double draws = counts.row(i).sum();
      const double top = logits.row(i).maxCoeff();
      const double lse = top + std::log((logits.row(i).array() - top).exp().sum());
      loss += draws * lse - counts.row(i).dot(logits.row(i));
      residuals.row(i) = draws * (logits.row(i).array() - lse).exp().matrix() - counts.row(i);
    }
    gaps = z - means;
    weightedGaps.noalias() = gaps * precision;
    const double scale = 1.0 / static_cast<double>(n);
    loss = (loss + 0.5 * gaps.cwiseProduct(weightedGaps).sum()) * scale +
           0.5 * penalty * (v.squaredNorm() + w.squaredNorm());
    Eigen::Map<Eigen::MatrixXd> gv(gradient.data(), p, k);
    Eigen::Map<Eigen::MatrixXd> gw(gradient.data() + p * k, k, labels);
    Eigen::Map<Eigen::MatrixXd> gz(gradient.data() + p * k + k * labels + labels, n, k);
    gv.noalias() = features.transpose() * weightedGaps;
    gv = penalty * v - scale * gv;
    gw.noalias() = z.transpose() * residuals;
    gw = scale * gw + penalty * w;
    gradient.segment(p * k + k * labels, labels) = scale * residuals.colwise().sum().transpose();
    gz.noalias() = residuals * w.transpose();
    gz = scale * (gz + weightedGaps);
    return loss;
  }
};

// One round: L-BFGS at the current Sigma, then Sigma's M step: the mean of the gaps' outer
// products and of the latents' posterior covariances, (Sigma^-1 + n_d W A W^T)^-1 with Bohning's
// bound A on the softmax's curvature (000 §12.4, as catpca bounds it). Returns the change in Sigma
// relative to its size and whether L-BFGS converged.
template <typename Matrix>
std::pair<double, bool> dcatpcaRound(const Matrix& features, const Eigen::MatrixXd& counts, Eigen::Index k,
                                     double penalty, int iterations, Eigen::VectorXd& theta,
                                     Eigen::MatrixXd& covariance, double& objectiveValue) {
  const Eigen::Index p = features.cols(), n = features.rows(), labels = counts.cols();
  DcatpcaObjective<Matrix> objective{features, counts, k, penalty, covariance.inverse(), {}, {}, {}, {}, {}};
  LbfgsOptions options;
  options.gradientTolerance = 1e-7;
  options.maxIterations = iterations;
  const auto result = minimizeLbfgs(objective, theta, options);
  Eigen::VectorXd gradient(theta.size());
  objectiveValue = objective(theta, gradient);  // leaves the gaps at theta
  const Eigen::Map<const Eigen::MatrixXd> w(theta.data() + p * k, k, labels);
  const Eigen::MatrixXd curvature =
      0.5 * (Eigen::MatrixXd::Identity(labels, labels) -
             Eigen::MatrixXd::Constant(labels, labels, 1.0 / static_cast<double>(labels)));
  const Eigen::MatrixXd bound = w * curvature * w.transpose();
  Eigen::MatrixXd next = objective.gaps.transpose() * objective.gaps;
  // Documents with the same number of labels share a posterior covariance.
  std::vector<std::pair<double, double>> groups;  // (labels drawn, documents)
  for (Eigen::Index i = 0; i < n; ++i) {
    const double draws = counts.row(i).sum();
    auto at = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == draws; });
    if (at == groups.end())
      groups.emplace_back(draws, 1.0);
    else
      at->second += 1.0;
  }
  for (const auto& [draws, documents] : groups) next += documents * (objective.precision + draws * bound).inverse();
  next /= static_cast<double>(n);
  next.diagonal().array() += 1e-9;
  const double change = (next - covariance).norm() / covariance.norm();
  covariance = next;
  return {change, result.converged};
}

}  // namespace

DcatpcaFitter::DcatpcaFitter(const WordFeatureRows& features, const std::vector<std::vector<std::int32_t>>& labelSets,
                             int labels, const DcatpcaSettings& settings)
    : m_settings(settings) {
  m_counts = Eigen::MatrixXd::Zero(features.rows(), labels);
  for (std::size_t d = 0; d < labelSets.size() && static_cast<Eigen::Index>(d) < features.rows(); ++d)
    for (const auto l : labelSets[d])
      if (l >= 0 && l < labels) m_counts(static_cast<Eigen::Index>(d), l) += 1.0;
  m_reduced = reducingWordFeaturesPays(features);
  if (m_reduced)
    m_reduction = reduceWordFeatures(features);
  else
    m_sparse = features;
  const Eigen::Index p = m_reduced ? m_reduction.train.cols() : features.cols(), n = features.rows(),
                     k = settings.latent;
  m_theta.resize(p * k + k * labels + labels + n * k);
  // A random start (all zeros is a saddle: W = 0 and Z = 0 hold each other's gradient at zero).
  Rng rng(settings.seed, 0x6463);
  for (Eigen::Index i = 0; i < p * k + k * labels; ++i) m_theta[i] = 0.1 * rng.normal();
  m_theta.segment(p * k + k * labels, labels).setZero();
  const Eigen::Map<const Eigen::MatrixXd> v(m_theta.data(), p, k);
  Eigen::Map<Eigen::MatrixXd> z(m_theta.data() + p * k + k * labels + labels, n, k);
  if (m_reduced)
    z = m_reduction.train * v;
  else
    z = m_sparse * v;
  m_covariance = Eigen::MatrixXd::Identity(k, k);
}

void DcatpcaFitter::round(int iterations) {
  const auto [change, converged] =
      m_reduced ? dcatpcaRound(m_reduction.train, m_counts, m_settings.latent, m_settings.penalty, iterations, m_theta,
                               m_covariance, m_objective)
                : dcatpcaRound(m_sparse, m_counts, m_settings.latent, m_settings.penalty, iterations, m_theta,
                               m_covariance, m_objective);
  m_iterations += iterations;
  m_converged = converged && change < 1e-4;
}

DcatpcaParameters DcatpcaFitter::parameters() const {
  const Eigen::Index k = m_settings.latent, labels = m_counts.cols(), n = m_counts.rows();
  const Eigen::Index p = m_reduced ? m_reduction.train.cols() : m_sparse.cols();
  DcatpcaParameters out;
  out.inputWeights = Eigen::Map<const Eigen::MatrixXd>(m_theta.data(), p, k);
  out.labelWeights = Eigen::Map<const Eigen::MatrixXd>(m_theta.data() + p * k, k, labels);
  out.labelBias = m_theta.segment(p * k + k * labels, labels);
  out.latent = Eigen::Map<const Eigen::MatrixXd>(m_theta.data() + p * k + k * labels + labels, n, k);
  out.covariance = m_covariance;
  out.reduced = m_reduced;
  out.reduction = m_reduction;
  out.objective = m_objective;
  out.iterations = m_iterations;
  out.converged = m_converged;
  return out;
}

DcatpcaParameters fitDcatpca(const WordFeatureRows& features, const std::vector<std::vector<std::int32_t>>& labelSets,
                             int labels, const DcatpcaSettings& settings, std::stop_token stop) {
  DcatpcaFitter fitter(features, labelSets, labels, settings);
  while (fitter.iterations() < settings.iterations && !fitter.converged() && !stop.stop_requested())
    fitter.round(std::min(kDcatpcaIterationsPerRun, settings.iterations - fitter.iterations()));
  return fitter.parameters();
}
Eigen::MatrixXd dcatpcaLatentMeans(const DcatpcaParameters& parameters, const WordFeatureRows& training,
                                   const WordFeatureRows& documents) {
  if (parameters.reduced) return parameters.reduction.map(training, documents) * parameters.inputWeights;
  return documents * parameters.inputWeights;
}

Eigen::MatrixXd dcatpcaLabelProbabilities(const DcatpcaParameters& parameters, const Eigen::MatrixXd& latentMeans,
                                          int draws, std::uint64_t seed) {
  const Eigen::Index k = parameters.labelWeights.rows(), labels = parameters.labelWeights.cols();
  Rng rng(seed, 0x64726177);
  Eigen::MatrixXd noise(std::max(draws, 1), k);
  for (Eigen::Index s = 0; s < noise.rows(); ++s)
    for (Eigen::Index j = 0; j < k; ++j) noise(s, j) = draws > 0 ? rng.normal() : 0.0;
  const Eigen::MatrixXd factor = parameters.covariance.llt().matrixL();
  const Eigen::MatrixXd noiseLogits = noise * factor.transpose() * parameters.labelWeights;  // draws x labels
  Eigen::MatrixXd probabilities = Eigen::MatrixXd::Zero(latentMeans.rows(), labels);
  Eigen::RowVectorXd logits(labels);
  for (Eigen::Index d = 0; d < latentMeans.rows(); ++d) {
    const Eigen::RowVectorXd mean = latentMeans.row(d) * parameters.labelWeights + parameters.labelBias.transpose();
    for (Eigen::Index s = 0; s < noiseLogits.rows(); ++s) {
      logits = mean + noiseLogits.row(s);
      logits.array() -= logits.maxCoeff();
      logits = logits.array().exp();
      probabilities.row(d) += logits / logits.sum();
    }
  }
  return probabilities / static_cast<double>(noiseLogits.rows());
}

Eigen::MatrixXd dcatpcaLabelSetScores(const Eigen::MatrixXd& probabilities, double n) {
  return (1.0 - (1.0 - probabilities.array()).pow(std::max(n, 1.0))).matrix();
}

}  // namespace latent::core::topic
