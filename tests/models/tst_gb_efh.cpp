// SPDX-License-Identifier: GPL-3.0-or-later
// The GB-EFH of 004 against the truth on models small enough to enumerate: the exact gradient by
// finite differences, the pseudo-likelihood by flipping units, coupling from the past by
// chi-squared against the enumerated distribution, brief sampling from exact draws against the
// model's exact expectations, the Langevin chain without data against its prior, the posterior
// summary's rotation, the empirical Bayes M-step (004 eq. 24-27) and the error measures (004 eq.
// 29-30) by hand, and planted weights fitted back from exact draws.
#include <QtTest>

#include <cmath>
#include <map>
#include <stop_token>
#include <vector>

#include "core/models/harmonium/efh_langevin.hpp"
#include "core/models/harmonium/efh_synthetic.hpp"
#include "core/models/harmonium/gaussian_hidden_efh.hpp"
#include "core/util/random.hpp"
#include "test_case.hpp"

using namespace latent;
namespace efh = latent::core::harmonium;

namespace {

efh::EfhParameters randomEfh(Eigen::Index visible, Eigen::Index hidden, double scale, std::uint64_t seed) {
  core::Rng rng(seed);
  efh::EfhParameters p(visible, hidden);
  for (Eigen::Index j = 0; j < hidden; ++j)
    for (Eigen::Index i = 0; i < visible; ++i) p.weights(i, j) = scale * rng.normal();
  for (Eigen::Index i = 0; i < visible; ++i) p.visibleBias[i] = 0.5 * rng.normal() - 0.5;
  return p;
}

// An attractive model (non-negative W, so W W^T >= 0): coupling from the past applies.
efh::EfhParameters attractiveEfh(Eigen::Index visible, Eigen::Index hidden, std::uint64_t seed) {
  auto p = randomEfh(visible, hidden, 0.5, seed);
  p.weights = p.weights.cwiseAbs();
  return p;
}

Eigen::VectorXd efhBits(std::uint64_t state, Eigen::Index n) {
  Eigen::VectorXd v(n);
  for (Eigen::Index i = 0; i < n; ++i) v[i] = static_cast<double>(state >> i & 1U);
  return v;
}

double meanLogLikelihoodOf(const efh::EfhParameters& p, const efh::BinaryData& data) {
  const double logZ = efh::efhExactLogPartition(p);
  double sum = 0.0;
  for (Eigen::Index c = 0; c < data.rows(); ++c) sum += efh::logUnnormalised(p, efh::denseRow(data, c)) - logZ;
  return sum / static_cast<double>(data.rows());
}

std::vector<double> enumeratedProbabilities(const efh::EfhParameters& p) {
  const double logZ = efh::efhExactLogPartition(p);
  std::vector<double> probabilities(std::size_t{1} << p.visible());
  for (std::uint64_t s = 0; s < probabilities.size(); ++s)
    probabilities[s] = std::exp(efh::logUnnormalised(p, efhBits(s, p.visible())) - logZ);
  return probabilities;
}

std::uint64_t efhStateOf(const efh::BinaryData& data, Eigen::Index row) {
  std::uint64_t s = 0;
  for (efh::BinaryData::InnerIterator it(data, row); it; ++it) s |= std::uint64_t{1} << it.col();
  return s;
}

}  // namespace

class GaussianBernoulliEfhTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void partitionFunctionSumsToOne() {
    const auto p = randomEfh(7, 3, 0.6, 2);
    double total = 0.0;
    for (double q : enumeratedProbabilities(p)) total += q;
    QVERIFY(std::abs(total - 1.0) < 1e-12);
  }

  void exactGradientMatchesFiniteDifferences() {
    const auto p = randomEfh(6, 2, 0.7, 5);
    const auto data = efh::exactEfhSamples(attractiveEfh(6, 2, 9), 40, 1);
    const auto gradient = efh::efhExactGradient(p, data);
    const double h = 1e-6;
    for (Eigen::Index i = 0; i < 6; ++i)
      for (Eigen::Index j = 0; j < 2; ++j) {
        auto up = p, down = p;
        up.weights(i, j) += h;
        down.weights(i, j) -= h;
        const double numeric = (meanLogLikelihoodOf(up, data) - meanLogLikelihoodOf(down, data)) / (2 * h);
        QVERIFY2(std::abs(numeric - gradient.weights(i, j)) < 1e-6, qPrintable(QString::number(numeric)));
      }
    for (Eigen::Index i = 0; i < 6; ++i) {
      auto up = p, down = p;
      up.visibleBias[i] += h;
      down.visibleBias[i] -= h;
      const double numeric = (meanLogLikelihoodOf(up, data) - meanLogLikelihoodOf(down, data)) / (2 * h);
      QVERIFY(std::abs(numeric - gradient.visibleBias[i]) < 1e-6);
    }
  }

  void pseudoLikelihoodFlipsEachUnit() {
    const auto p = randomEfh(8, 3, 0.6, 7);
    const auto data = efh::exactEfhSamples(attractiveEfh(8, 3, 4), 25, 3);
    double expected = 0.0;
    for (Eigen::Index c = 0; c < data.rows(); ++c) {
      const Eigen::VectorXd x = efh::denseRow(data, c);
      for (Eigen::Index i = 0; i < x.size(); ++i) {
        Eigen::VectorXd flipped = x;
        flipped[i] = 1.0 - x[i];
        const double own = efh::logUnnormalised(p, x), other = efh::logUnnormalised(p, flipped);
        expected += own - std::log(std::exp(own) + std::exp(other));
      }
    }
    expected /= static_cast<double>(data.rows());
    QVERIFY(std::abs(efh::efhMeanPseudoLogLikelihood(p, data) - expected) < 1e-10);
  }

  void couplingFromThePastDrawsExactly() {
    // 20000 draws of a 5-unit attractive model against its 32 enumerated probabilities: Pearson's
    // statistic on 31 degrees of freedom stays below 61.1 (its 0.999 quantile).
    const auto p = attractiveEfh(5, 2, 21);
    QVERIFY(efh::isAttractive(p));
    const int draws = 20000;
    const auto data = efh::exactEfhSamples(p, draws, 8);
    std::map<std::uint64_t, int> counts;
    for (Eigen::Index c = 0; c < data.rows(); ++c) ++counts[efhStateOf(data, c)];
    const auto expected = enumeratedProbabilities(p);
    double statistic = 0.0;
    for (std::uint64_t s = 0; s < expected.size(); ++s) {
      const double e = expected[s] * draws;
      const double o = counts.contains(s) ? counts[s] : 0.0;
      statistic += (o - e) * (o - e) / e;
    }
    QVERIFY2(statistic < 61.1, qPrintable(QString::number(statistic)));
  }

  void notAttractiveIsAnError() {
    efh::EfhParameters p(3, 1);
    p.weights << 1.0, -1.0, 0.5;
    QVERIFY(!efh::isAttractive(p));
    QVERIFY_THROWS_EXCEPTION(std::exception, efh::exactEfhSamples(p, 1, 0));
  }

  void briefSamplesOfExactDrawsFollowTheModel() {
    // A Gibbs step leaves the model's distribution unchanged: from exact draws, the brief samples'
    // statistics (004 §3.2) estimate E_model[x x^T W] and E_model[x] without bias.
    const auto p = attractiveEfh(6, 2, 13);
    const auto data = efh::exactEfhSamples(p, 40000, 5);
    efh::BinaryData sampled;
    efh::briefSample(p, data, 1, 77, sampled);
    efh::EfhStatistics statistics;
    efh::sufficientStatistics(p, sampled, statistics);
    const auto N = static_cast<double>(data.rows());
    efh::EfhParameters model(6, 2);
    const auto probabilities = enumeratedProbabilities(p);
    for (std::uint64_t s = 0; s < probabilities.size(); ++s) {
      const Eigen::VectorXd x = efhBits(s, 6);
      model.weights += probabilities[s] * x * (p.weights.transpose() * x).transpose();
      model.visibleBias += probabilities[s] * x;
    }
    QVERIFY2((statistics.visible / N - model.visibleBias).cwiseAbs().maxCoeff() < 0.02,
             qPrintable(QString::number((statistics.visible / N - model.visibleBias).cwiseAbs().maxCoeff())));
    QVERIFY((statistics.weights / N - model.weights).cwiseAbs().maxCoeff() < 0.03);
  }

  void langevinWithoutDataDrawsThePrior() {
    // With no cases only the prior's pull and the noise remain (004 eq. 13, 15): an Ornstein-
    // Uhlenbeck chain whose draws have the prior's mean and, for a small step, its spread.
    const efh::BinaryData none(0, 3);
    const auto prior = efh::EfhPrior{Eigen::Vector3d(0.5, -1.0, 0.0), Eigen::Vector3d(1.0, 0.5, 2.0)};
    efh::EfhSteps steps;
    steps.langevinStep = 0.2;
    steps.fitVisibleBias = false;
    efh::EfhTrainer trainer(steps, efh::EfhParameters(3, 2), 3);
    Eigen::Matrix<double, 3, 2> sum = Eigen::Matrix<double, 3, 2>::Zero(), squares = sum;
    const int burnIn = 2000, draws = 60000;
    for (int t = 0; t < burnIn + draws; ++t) {
      trainer.langevinStep(none, prior);
      if (t < burnIn) continue;
      sum += trainer.parameters().weights;
      squares += trainer.parameters().weights.cwiseAbs2();
    }
    for (Eigen::Index i = 0; i < 3; ++i)
      for (Eigen::Index j = 0; j < 2; ++j) {
        const double mean = sum(i, j) / draws;
        const double sd = std::sqrt(squares(i, j) / draws - mean * mean);
        QVERIFY2(std::abs(mean - prior.mean[i]) < 0.15 * prior.sd[i], qPrintable(QString::number(mean)));
        QVERIFY2(std::abs(sd / prior.sd[i] - 1.0) < 0.1, qPrintable(QString::number(sd)));
      }
  }

  void aStoppedStepChangesNothing() {
    const auto p = attractiveEfh(6, 2, 3);
    const auto data = efh::exactEfhSamples(p, 50, 1);
    efh::EfhTrainer trainer(efh::EfhSteps{}, p, 1);
    std::stop_source stop;
    stop.request_stop();
    QVERIFY(!trainer.maximumLikelihoodStep(data, stop.get_token()));
    QVERIFY(!trainer.langevinStep(data, efh::EfhPrior::uniform(6, 0.0, 1.0), stop.get_token()));
    QCOMPARE(trainer.steps(), std::int64_t{0});
    QVERIFY(trainer.parameters().weights == p.weights);
    QVERIFY(trainer.maximumLikelihoodStep(data));
    QCOMPARE(trainer.steps(), std::int64_t{1});
  }

  void posteriorSummaryUndoesRotations() {
    const auto p = randomEfh(6, 3, 1.0, 17);
    efh::PosteriorWeights posterior(true);
    posterior.add(p.weights);
    // A rotation of W (a Givens rotation of hidden units 0 and 2) is the same model (004 eq. 28).
    Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();
    rotation(0, 0) = rotation(2, 2) = std::cos(0.7);
    rotation(0, 2) = -std::sin(0.7);
    rotation(2, 0) = std::sin(0.7);
    posterior.add(p.weights * rotation);
    QVERIFY((posterior.mean() - p.weights).cwiseAbs().maxCoeff() < 1e-12);
    QVERIFY(posterior.sd().maxCoeff() < 1e-6);
    QVERIFY((posterior.meanOuterProduct() - p.weights * p.weights.transpose()).cwiseAbs().maxCoeff() < 1e-12);
  }

  void empiricalBayesStepByHand() {
    // 004 eq. 24-25: unit 0 sees 1, 3 (draw 1) and 5, 7 (draw 2): mean 4, spread sqrt(20 / 3).
    efh::PriorUpdate update;
    Eigen::Matrix<double, 2, 2> first, second;
    first << 1, 3, 0, 0;
    second << 5, 7, 0, 0;
    update.add(first);
    update.add(second);
    const auto prior = update.estimate(0.01);
    QCOMPARE(prior.mean[0], 4.0);
    QVERIFY(std::abs(prior.sd[0] - std::sqrt(20.0 / 3.0)) < 1e-12);
    QCOMPARE(prior.mean[1], 0.0);
    QCOMPARE(prior.sd[1], 0.01);  // the floor
    QCOMPARE(update.draws(), std::int64_t{0});
    // 004 eq. 26-27 from one estimate of W.
    const auto start = efh::EfhPrior::fromWeights(first);
    QCOMPARE(start.mean[0], 2.0);
    QVERIFY(std::abs(start.sd[0] - std::sqrt(2.0)) < 1e-12);
  }

  void errorMeasuresByHand() {
    Eigen::Matrix2d truth, estimate;
    truth << 1, 2, 2, 0;
    estimate << 2, 2, 1, 0;
    const auto e = efh::outerProductErrors(truth, estimate);
    QCOMPARE(e.meanAbsolute, 0.5);        // (1 + 0 + 1 + 0) / 4
    QCOMPARE(e.meanRelative, 1.0 / 4.0);  // (1/2 + 0 + 1/2 + 0) / 4, 0/0 counted as 0
  }

  void syntheticWeightsAreThoseOf004() {
    const Eigen::MatrixXd W = efh::syntheticEfhWeights(100, 10, 1);
    QCOMPARE(W.rows(), Eigen::Index{100});
    QCOMPARE(W.cols(), Eigen::Index{10});
    const Eigen::MatrixXd V = W * W.transpose();
    QVERIFY(V.minCoeff() >= 0.0);
    // The rank-10 approximation of a matrix of mean 0.05: V's entries average about that.
    QVERIFY(std::abs(V.mean() - 0.05) < 0.005);
  }

  void plantedWeightsAreFittedBack() {
    // 2000 exact draws of a planted 10 x 2 model, theta known (it trades with V's diagonal, as
    // x_i^2 = x_i); ML from small random weights, then Langevin (a flat prior, sd 1) from there,
    // recover V = W W^T (rotation-free) far better than the start (errors 0.035 and 0.043 against
    // 0.17). Exact gradient ascent on 3000 such draws ends at 0.021, their sampling error; the
    // posterior's spread adds to the mean of W W^T over the draws.
    efh::EfhParameters truth = attractiveEfh(10, 2, 31);
    truth.visibleBias.setConstant(-1.0);
    const auto data = efh::exactEfhSamples(truth, 2000, 2);
    const Eigen::MatrixXd V = truth.weights * truth.weights.transpose();
    efh::EfhParameters start = randomEfh(10, 2, 0.05, 4);
    start.visibleBias = truth.visibleBias;
    const double startError = efh::outerProductErrors(V, start.weights * start.weights.transpose()).meanAbsolute;

    efh::EfhSteps steps;
    steps.learningRate = 0.1;
    steps.fitVisibleBias = false;
    efh::EfhTrainer ml(steps, start, 1);
    for (int t = 0; t < 700; ++t) ml.maximumLikelihoodStep(data);
    const auto& w = ml.parameters().weights;
    const double mlError = efh::outerProductErrors(V, w * w.transpose()).meanAbsolute;
    QVERIFY2(mlError < 0.3 * startError, qPrintable(QStringLiteral("%1 vs %2").arg(mlError).arg(startError)));

    // The chain starts where ML ended (as 004 §4's empirical Bayes does), past the burn-in.
    efh::EfhTrainer langevin(steps, ml.parameters(), 1);
    const auto prior = efh::EfhPrior::uniform(10, 0.0, 1.0);
    efh::PosteriorWeights posterior(true);
    for (int t = 0; t < 500; ++t) {
      langevin.langevinStep(data, prior);
      if (t >= 100) posterior.add(langevin.parameters().weights);
    }
    const double bayesError = efh::outerProductErrors(V, posterior.meanOuterProduct()).meanAbsolute;
    QVERIFY2(bayesError < 0.3 * startError, qPrintable(QStringLiteral("%1 vs %2").arg(bayesError).arg(startError)));
  }
};

LATENT_TEST_CASE(GaussianBernoulliEfhTest)

#include "tst_gb_efh.moc"
