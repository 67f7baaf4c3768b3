// SPDX-License-Identifier: GPL-3.0-or-later
// The Gaussian RBM (000 §27.7.1.3) against the truth: log Z against a numerical integral of the
// energy, exact draws against the model's mean and variance, the hidden conditionals against the
// energy, a stop between minibatches. A planted model
// fitted back is in the evidence suite (tst_rbm_evidence).
#include <QtTest>

#include <array>
#include <cmath>
#include <numbers>
#include <stop_token>
#include <vector>

#include "core/models/harmonium/gaussian_rbm.hpp"
#include "core/util/random.hpp"
#include "random_rbm.hpp"
#include "test_case.hpp"

using namespace latent;
namespace grbm = latent::core::harmonium;

namespace {

// W ~ N(0, scale^2), b ~ N(0, 0.25), c ~ N(-1, 0.25), log s ~ N(0, 0.25).
grbm::GaussianRbmParameters plantedGaussianRbm(Eigen::Index visible, Eigen::Index hidden, double scale,
                                               std::uint64_t seed) {
  core::Rng rng(seed);
  grbm::GaussianRbmParameters p(visible, hidden);
  for (Eigen::Index k = 0; k < hidden; ++k)
    for (Eigen::Index r = 0; r < visible; ++r) p.rbm.weights(r, k) = scale * rng.normal();
  for (Eigen::Index r = 0; r < visible; ++r) p.rbm.visibleBias[r] = 0.5 * rng.normal();
  for (Eigen::Index k = 0; k < hidden; ++k) p.rbm.hiddenBias[k] = -1.0 + 0.5 * rng.normal();
  for (Eigen::Index r = 0; r < visible; ++r) p.variance[r] = std::exp(0.5 * rng.normal());
  return p;
}

// -E(v, h) by the definition (gaussian_rbm.hpp).
double negativeEnergy(const grbm::GaussianRbmParameters& p, const Eigen::VectorXd& v, const Eigen::VectorXd& h) {
  const Eigen::ArrayXd s = p.variance.array();
  return ((v.array() * (p.rbm.weights * h).array()) / s).sum() -
         0.5 * ((v - p.rbm.visibleBias).array().square() / s).sum() + p.rbm.hiddenBias.dot(h);
}

}  // namespace

class GaussianRbmTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void logPartitionMatchesANumericalIntegral() {
    // R = 2, K = 2: sum over h of exp(-E(v, h)) integrated over v on a grid (a Riemann sum, which
    // for these smooth, fast-decaying integrands is exact far below the tolerance). -E is written
    // out for R = 2 with each state's W h and c^T h taken once, so that the sanitizer build's run
    // stays short; negativeEnergy() checks the same expression at a few points.
    const auto p = plantedGaussianRbm(2, 2, 1.0, 3);
    const double s0 = p.variance[0], s1 = p.variance[1], b0 = p.rbm.visibleBias[0], b1 = p.rbm.visibleBias[1];
    std::array<double, 4> m0{}, m1{}, ch{};
    for (std::uint64_t state = 0; state < 4; ++state) {
      const Eigen::VectorXd h = test::bits(state, 2);
      const Eigen::VectorXd m = p.rbm.weights * h;
      m0[state] = m[0];
      m1[state] = m[1];
      ch[state] = p.rbm.hiddenBias.dot(h);
      const Eigen::Vector2d v(0.3, -1.1);
      QVERIFY(std::abs(negativeEnergy(p, v, h) -
                       (v[0] * m0[state] / s0 + v[1] * m1[state] / s1 - (v[0] - b0) * (v[0] - b0) / (2 * s0) -
                        (v[1] - b1) * (v[1] - b1) / (2 * s1) + ch[state])) < 1e-12);
    }
    const double step = 0.04;
    double sum = 0.0;
    for (double x = -12.0; x <= 12.0; x += step)
      for (double y = -12.0; y <= 12.0; y += step)
        for (std::size_t state = 0; state < 4; ++state)
          sum += std::exp(x * m0[state] / s0 + y * m1[state] / s1 - (x - b0) * (x - b0) / (2 * s0) -
                          (y - b1) * (y - b1) / (2 * s1) + ch[state]);
    const double numeric = std::log(sum * step * step);
    QVERIFY2(std::abs(grbm::gaussianExactLogPartition(p) - numeric) < 1e-6,
             qPrintable(QStringLiteral("%1 vs %2").arg(grbm::gaussianExactLogPartition(p)).arg(numeric)));
  }

  void drawsHaveTheModelsMeanAndVariance() {
    // E[v] = b + W E[h] and Var[v_r] = s_r + Var[(W h)_r], with p(h) enumerated:
    // p(h) = exp(c^T h + sum_r ((b_r + (W h)_r)^2 - b_r^2) / (2 s_r)) prod_r sqrt(2 pi s_r) / Z.
    const auto p = plantedGaussianRbm(4, 3, 1.2, 5);
    const double logZ = grbm::gaussianExactLogPartition(p);
    const Eigen::ArrayXd s = p.variance.array();
    Eigen::VectorXd mean = Eigen::VectorXd::Zero(4);
    Eigen::ArrayXd secondMoment = Eigen::ArrayXd::Zero(4);
    double total = 0.0;
    for (std::uint64_t state = 0; state < 8; ++state) {
      const Eigen::VectorXd h = test::bits(state, 3);
      const Eigen::ArrayXd shifted = (p.rbm.visibleBias + p.rbm.weights * h).array();
      const double logWeight = p.rbm.hiddenBias.dot(h) +
                               0.5 * ((shifted.square() - p.rbm.visibleBias.array().square()) / s).sum() +
                               0.5 * (2.0 * std::numbers::pi * s).log().sum();
      const double weight = std::exp(logWeight - logZ);
      total += weight;
      mean += weight * shifted.matrix();
      secondMoment += weight * (shifted.square() + s);
    }
    QVERIFY(std::abs(total - 1.0) < 1e-12);
    const Eigen::ArrayXd variance = secondMoment - mean.array().square();
    const Eigen::MatrixXd draws = grbm::gaussianRbmSamples(p, 40000, 6);
    const Eigen::RowVectorXd observedMean = draws.colwise().mean();
    const Eigen::ArrayXd observedVariance =
        (draws.rowwise() - observedMean).array().square().colwise().mean().transpose();
    QVERIFY2((observedMean.transpose() - mean).cwiseAbs().maxCoeff() < 0.04,
             qPrintable(QString::number((observedMean.transpose() - mean).cwiseAbs().maxCoeff())));
    QVERIFY2((observedVariance / variance - 1.0).abs().maxCoeff() < 0.04,
             qPrintable(QString::number((observedVariance / variance - 1.0).abs().maxCoeff())));
  }

  void hiddenConditionalsFollowTheEnergy() {
    // p(h_k = 1 | v) against the joint energy summed over the other units.
    const auto p = plantedGaussianRbm(3, 3, 1.0, 11);
    const Eigen::MatrixXd v = grbm::gaussianRbmSamples(p, 5, 12);
    Eigen::MatrixXd computed;
    grbm::gaussianHiddenProbabilities(p, v, computed);
    for (Eigen::Index i = 0; i < v.rows(); ++i) {
      Eigen::VectorXd on = Eigen::VectorXd::Zero(3);
      double total = 0.0;
      for (std::uint64_t state = 0; state < 8; ++state) {
        const Eigen::VectorXd h = test::bits(state, 3);
        const double w = std::exp(negativeEnergy(p, v.row(i).transpose(), h));
        total += w;
        on += w * h;
      }
      QVERIFY(((on / total).transpose() - computed.row(i)).cwiseAbs().maxCoeff() < 1e-12);
    }
  }

  void stopBeforeAMinibatchLeavesTheParameters() {
    const auto p = plantedGaussianRbm(4, 2, 1.0, 7);
    const Eigen::MatrixXd cases = grbm::gaussianRbmSamples(p, 50, 8);
    std::vector<Eigen::Index> order(50);
    for (Eigen::Index i = 0; i < 50; ++i) order[static_cast<std::size_t>(i)] = i;
    for (const bool persistent : {false, true}) {
      grbm::GaussianRbmTraining training;
      training.cd.persistent = persistent;
      grbm::GaussianRbmTrainer trainer(training, p, 9);
      std::stop_source stop;
      stop.request_stop();
      QVERIFY(!trainer.epoch(cases, order, 0.1, stop.get_token()));
      QCOMPARE(trainer.parameters().rbm.weights, p.rbm.weights);
      QCOMPARE(trainer.parameters().variance, p.variance);
      QVERIFY(trainer.epoch(cases, order, 0.1, {}));
      QVERIFY(trainer.parameters().rbm.weights != p.rbm.weights);
      QVERIFY(trainer.parameters().variance != p.variance);
    }
  }
};

LATENT_TEST_CASE(GaussianRbmTest)

#include "tst_gaussian_rbm.moc"
