// SPDX-License-Identifier: GPL-3.0-or-later
// The M step of the relational topic model: its link weights from the training links.
#include "core/models/links/rtm_link_fit.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <cmath>

#include "core/util/lbfgs.hpp"

namespace latent::core::rtm {
namespace {

// Links per task of the parallel sums: small enough to spread a few thousand links over the cores.
constexpr std::size_t kRtmLinkGrain = 512;
// The floor of an overlap sum in a logarithm: a topic no link shares gets a very negative weight,
// not minus infinity.
constexpr double kRtmOverlapFloor = 1e-10;
// The precision of the normal prior on each eta_k of the sigmoid link.
constexpr double kRtmEtaPrecision = 1.0;

// log sigm(s) without overflow.
double rtmLogSigmoid(double s) { return s >= 0 ? -std::log1p(std::exp(-s)) : s - std::log1p(std::exp(s)); }

}  // namespace

Eigen::VectorXd linkOverlapSum(const Eigen::MatrixXd& zbar, std::span<const Edge> links) {
  const auto K = zbar.cols();
  return tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, links.size(), kRtmLinkGrain), Eigen::VectorXd(Eigen::VectorXd::Zero(K)),
      [&](const auto& range, Eigen::VectorXd sum) {
        for (std::size_t l = range.begin(); l != range.end(); ++l)
          sum += (zbar.row(links[l].source).array() * zbar.row(links[l].target).array()).matrix().transpose();
        return sum;
      },
      [](const Eigen::VectorXd& a, const Eigen::VectorXd& b) -> Eigen::VectorXd { return a + b; });
}

LinkWeights fitLinkWeights(LinkFunction link, const Eigen::MatrixXd& zbar, std::span<const Edge> links, double rho,
                           const LinkWeights& start, const std::stop_token& stop) {
  const auto K = zbar.cols();
  const double Kd = static_cast<double>(K), M = static_cast<double>(links.size());
  const double prior = 1.0 / (Kd * Kd);  // each topic's overlap of a pseudo non-link
  LinkWeights out;
  if (link == LinkFunction::Exponential) {
    const Eigen::VectorXd pi = linkOverlapSum(zbar, links).cwiseMax(kRtmOverlapFloor);
    const double offDiagonal = std::max(M - pi.sum(), kRtmOverlapFloor);
    out.nu = std::log(offDiagonal) - std::log(rho * (Kd - 1.0) / Kd + offDiagonal);
    out.eta = (pi.array().log() - (pi.array() + rho * prior).log() - out.nu).matrix();
    return out;
  }
  // Sigmoid: minimise -[sum_l log sigm(eta' pi_l + nu) + rho log(1 - sigm(eta' pi_0 + nu))] + |eta|^2 / 2.
  Eigen::MatrixXd features(static_cast<Eigen::Index>(links.size()), K);
  for (std::size_t l = 0; l < links.size(); ++l)
    features.row(static_cast<Eigen::Index>(l)) = zbar.row(links[l].source).array() * zbar.row(links[l].target).array();
  Eigen::VectorXd x(K + 1);
  if (start.eta.size() == K) {
    x.head(K) = start.eta;
    x[K] = start.nu;
  } else {
    x.setZero();
  }
  struct Sums {
    double value = 0.0;
    Eigen::VectorXd gradient;
  };
  struct RtmFitStopped {};
  const auto objective = [&](const Eigen::VectorXd& w, Eigen::VectorXd& gradient) {
    if (stop.stop_requested()) throw RtmFitStopped{};
    const Eigen::VectorXd eta = w.head(K);
    const double nu = w[K];
    const Sums sums = tbb::parallel_reduce(
        tbb::blocked_range<Eigen::Index>(0, features.rows(), kRtmLinkGrain), Sums{0.0, Eigen::VectorXd::Zero(K + 1)},
        [&](const auto& range, Sums s) {
          for (Eigen::Index l = range.begin(); l != range.end(); ++l) {
            const double score = features.row(l).dot(eta) + nu;
            s.value -= rtmLogSigmoid(score);
            const double residual = 1.0 - linkProbability(LinkFunction::Sigmoid, score);
            s.gradient.head(K) -= residual * features.row(l).transpose();
            s.gradient[K] -= residual;
          }
          return s;
        },
        [](Sums a, const Sums& b) {
          a.value += b.value;
          a.gradient += b.gradient;
          return a;
        });
    const double pseudo = prior * eta.sum() + nu;
    const double value = sums.value - rho * rtmLogSigmoid(-pseudo) + 0.5 * kRtmEtaPrecision * eta.squaredNorm();
    gradient = sums.gradient;
    const double p = linkProbability(LinkFunction::Sigmoid, pseudo);
    gradient.head(K).array() += rho * p * prior;
    gradient[K] += rho * p;
    gradient.head(K) += kRtmEtaPrecision * eta;
    return value;
  };
  LbfgsOptions options;
  options.maxIterations = 100;
  options.gradientTolerance = 1e-6 * std::max(1.0, M);
  try {
    minimizeLbfgs(objective, x, options);
  } catch (const RtmFitStopped&) {
  }
  out.eta = x.head(K);
  out.nu = x[K];
  return out;
}

double linkLogLikelihood(LinkFunction link, const LinkWeights& weights, const Eigen::MatrixXd& zbar,
                         std::span<const Edge> links) {
  return tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, links.size(), kRtmLinkGrain), 0.0,
      [&](const auto& range, double sum) {
        for (std::size_t l = range.begin(); l != range.end(); ++l) {
          const double score = linkScore(weights, zbar.row(links[l].source), zbar.row(links[l].target));
          sum += link == LinkFunction::Exponential ? std::min(score, 0.0) : rtmLogSigmoid(score);
        }
        return sum;
      },
      [](double a, double b) { return a + b; });
}

}  // namespace latent::core::rtm
