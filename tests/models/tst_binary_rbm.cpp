// SPDX-License-Identifier: GPL-3.0-or-later
// The binary RBM's kernels against the truth on models small enough to enumerate: the partition
// function and the likelihood's gradient by brute force and by finite differences, the Gibbs
// conditionals by chi-squared and contrastive divergence against the exact gradient. AIS against
// the exact log Z and a planted RBM fitted back are in the evidence suite (tst_rbm_evidence).
#include <QtTest>

#include <tbb/task_arena.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <stop_token>
#include <vector>

#include "core/models/harmonium/binary_rbm.hpp"
#include "core/models/harmonium/rbm_training.hpp"
#include "core/util/errors.hpp"
#include "core/util/random.hpp"
#include "random_rbm.hpp"
#include "test_case.hpp"

using namespace latent;
namespace rbm = latent::core::harmonium;

namespace {

using test::bits;
using test::exactSamples;
using test::randomRbm;

// log Z by the definition (000 eq. 27.100): every (v, h) pair.
double bruteForceLogPartition(const rbm::RbmParameters& p) {
  double sum = 0.0;
  for (std::uint64_t sv = 0; sv < (std::uint64_t{1} << p.visible()); ++sv)
    for (std::uint64_t sh = 0; sh < (std::uint64_t{1} << p.hidden()); ++sh) {
      const Eigen::VectorXd v = bits(sv, p.visible()), h = bits(sh, p.hidden());
      sum += std::exp(v.dot(p.weights * h) + v.dot(p.visibleBias) + h.dot(p.hiddenBias));
    }
  return std::log(sum);
}

// Pearson's statistic of observed counts against expected probabilities.
double chiSquared(const std::map<std::uint64_t, int>& counts, const std::vector<double>& expected, int draws) {
  double statistic = 0.0;
  for (std::size_t s = 0; s < expected.size(); ++s) {
    const auto it = counts.find(s);
    const double observed = it == counts.end() ? 0.0 : it->second;
    const double e = expected[s] * draws;
    statistic += (observed - e) * (observed - e) / e;
  }
  return statistic;
}

std::uint64_t stateOf(const Eigen::MatrixXd& m, Eigen::Index row) {
  std::uint64_t s = 0;
  for (Eigen::Index j = 0; j < m.cols(); ++j)
    if (m(row, j) > 0.5) s |= std::uint64_t{1} << j;
  return s;
}

}  // namespace

class BinaryRbmTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void partitionFunctionMatchesBruteForce() {
    // Summed over the hidden layer (K < R) and over the visible one (R < K): 000 Exercise 27.1.
    for (const auto& [visible, hidden] : {std::pair{6, 3}, std::pair{3, 7}, std::pair{5, 5}}) {
      const auto p = randomRbm(visible, hidden, 0.8, 11 + visible);
      QVERIFY2(std::abs(rbm::exactLogPartition(p) - bruteForceLogPartition(p)) < 1e-10,
               qPrintable(QStringLiteral("R=%1 K=%2").arg(visible).arg(hidden)));
    }
  }

  void freeEnergyGivesANormalisedDistribution() {
    const auto p = randomRbm(7, 4, 1.0, 3);
    const double logZ = rbm::exactLogPartition(p);
    double total = 0.0;
    for (std::uint64_t s = 0; s < (1U << 7); ++s) total += std::exp(-rbm::freeEnergy(p, bits(s, 7)) - logZ);
    QVERIFY(std::abs(total - 1.0) < 1e-12);
  }

  void tooLargeToEnumerateIsAnError() {
    const rbm::RbmParameters p(30, 30);
    QVERIFY(!rbm::canEnumerate(p));
    QVERIFY_THROWS_EXCEPTION(core::UsageError, rbm::exactLogPartition(p));
  }

  void exactGradientMatchesFiniteDifferences() {
    // 000 eq. 27.112 against central differences of the exact mean log-likelihood (eq. 27.118).
    const auto p = randomRbm(5, 3, 0.7, 5);
    const auto data = exactSamples(randomRbm(5, 3, 1.5, 6), 40, 7);
    const auto g = rbm::exactGradient(p, data);
    auto objective = [&](const rbm::RbmParameters& q) {
      return rbm::meanLogLikelihood(q, data, rbm::exactLogPartition(q));
    };
    const double h = 1e-5;
    double worst = 0.0;
    for (Eigen::Index r = 0; r < 5; ++r)
      for (Eigen::Index k = 0; k < 3; ++k) {
        auto plus = p, minus = p;
        plus.weights(r, k) += h;
        minus.weights(r, k) -= h;
        worst = std::max(worst, std::abs((objective(plus) - objective(minus)) / (2 * h) - g.weights(r, k)));
      }
    for (Eigen::Index r = 0; r < 5; ++r) {
      auto plus = p, minus = p;
      plus.visibleBias[r] += h;
      minus.visibleBias[r] -= h;
      worst = std::max(worst, std::abs((objective(plus) - objective(minus)) / (2 * h) - g.visibleBias[r]));
    }
    for (Eigen::Index k = 0; k < 3; ++k) {
      auto plus = p, minus = p;
      plus.hiddenBias[k] += h;
      minus.hiddenBias[k] -= h;
      worst = std::max(worst, std::abs((objective(plus) - objective(minus)) / (2 * h) - g.hiddenBias[k]));
    }
    QVERIFY2(worst < 1e-7, qPrintable(QString::number(worst)));
  }

  void pseudoLikelihoodMatchesItsDefinition() {
    // sum_r log p(v_r | v_-r) with the conditionals from the enumerated joint p(v).
    const auto p = randomRbm(6, 3, 1.0, 8);
    const auto data = exactSamples(p, 25, 9);
    const double logZ = rbm::exactLogPartition(p);
    double expected = 0.0;
    for (Eigen::Index i = 0; i < data.rows(); ++i) {
      const Eigen::VectorXd v = rbm::denseRow(data, i);
      for (Eigen::Index r = 0; r < 6; ++r) {
        Eigen::VectorXd flipped = v;
        flipped[r] = 1.0 - v[r];
        const double pv = std::exp(-rbm::freeEnergy(p, v) - logZ);
        const double pf = std::exp(-rbm::freeEnergy(p, flipped) - logZ);
        expected += std::log(pv / (pv + pf));
      }
    }
    expected /= static_cast<double>(data.rows());
    QVERIFY(std::abs(rbm::meanPseudoLogLikelihood(p, data) - expected) < 1e-10);
  }

  void gibbsConditionalsPassChiSquared() {
    // 000 eq. 27.101-27.102: draws of h given v, and of v given h, against the products of
    // sigmoids. Critical values at p = 0.001: 7 degrees of freedom 24.32, 15 degrees 37.70.
    const auto p = randomRbm(4, 3, 1.2, 10);
    const int draws = 20000;
    std::vector<core::Rng> rngs;
    for (int i = 0; i < draws; ++i) rngs.emplace_back(12, static_cast<std::uint64_t>(i));

    const Eigen::VectorXd v = bits(0b1011, 4);
    Eigen::MatrixXd h;
    rbm::hiddenProbabilities(p, Eigen::MatrixXd(Eigen::VectorXd::Ones(draws) * v.transpose()), h);
    const Eigen::VectorXd mu = h.row(0).transpose();
    rbm::sampleBernoulliRows(h, rngs.data());
    std::map<std::uint64_t, int> hiddenCounts;
    for (int i = 0; i < draws; ++i) ++hiddenCounts[stateOf(h, i)];
    std::vector<double> hiddenExpected(8);
    for (std::uint64_t s = 0; s < 8; ++s) {
      hiddenExpected[s] = 1.0;
      for (int k = 0; k < 3; ++k) hiddenExpected[s] *= (s >> k & 1U) ? mu[k] : 1.0 - mu[k];
    }
    QVERIFY2(chiSquared(hiddenCounts, hiddenExpected, draws) < 24.32,
             qPrintable(QString::number(chiSquared(hiddenCounts, hiddenExpected, draws))));

    const Eigen::VectorXd given = bits(0b101, 3);
    Eigen::MatrixXd vis;
    rbm::visibleProbabilities(p, Eigen::MatrixXd(Eigen::VectorXd::Ones(draws) * given.transpose()), vis);
    const Eigen::VectorXd nu = vis.row(0).transpose();
    rbm::sampleBernoulliRows(vis, rngs.data());
    std::map<std::uint64_t, int> visibleCounts;
    for (int i = 0; i < draws; ++i) ++visibleCounts[stateOf(vis, i)];
    std::vector<double> visibleExpected(16);
    for (std::uint64_t s = 0; s < 16; ++s) {
      visibleExpected[s] = 1.0;
      for (int r = 0; r < 4; ++r) visibleExpected[s] *= (s >> r & 1U) ? nu[r] : 1.0 - nu[r];
    }
    QVERIFY2(chiSquared(visibleCounts, visibleExpected, draws) < 37.70,
             qPrintable(QString::number(chiSquared(visibleCounts, visibleExpected, draws))));
  }

  void longContrastiveDivergenceApproachesTheExactGradient() {
    // With no momentum and no decay the first update is rate x the CD estimate; CD-k with a long
    // chain over a large batch approaches eq. 27.112, which CD-1 does not in general.
    const auto p = randomRbm(6, 3, 0.8, 16);
    const auto data = exactSamples(randomRbm(6, 3, 1.5, 17), 4000, 18);
    const auto exact = rbm::exactGradient(p, data);
    auto estimate = [&](int steps) {
      rbm::ContrastiveDivergence cd;
      cd.momentum = 0.0;
      cd.weightDecay = 0.0;
      cd.batchSize = data.rows();
      cd.gibbsSteps = steps;
      rbm::RbmTrainer trainer(cd, p, 19);
      std::vector<Eigen::Index> order(static_cast<std::size_t>(data.rows()));
      std::iota(order.begin(), order.end(), 0);
      const double rate = 1e-3;
      trainer.epoch(data, order, rate, {});
      return Eigen::MatrixXd((trainer.parameters().weights - p.weights) / rate);
    };
    const double errorLong = (estimate(200) - exact.weights).cwiseAbs().maxCoeff();
    QVERIFY2(errorLong < 0.04, qPrintable(QString::number(errorLong)));
  }

  void trainingIsTheSameOnAnyThreadCount() {
    const auto data = exactSamples(randomRbm(10, 4, 1.5, 26), 500, 27);
    std::vector<Eigen::Index> order(static_cast<std::size_t>(data.rows()));
    std::iota(order.begin(), order.end(), 0);
    auto train = [&](int threads) {
      tbb::task_arena arena(threads);
      return arena.execute([&] {
        rbm::ContrastiveDivergence cd;
        cd.persistent = true;
        cd.batchSize = 64;
        rbm::RbmTrainer trainer(cd, rbm::initialParameters(data, 4, 28), 29);
        for (int epoch = 0; epoch < 3; ++epoch) trainer.epoch(data, order, 0.05, {});
        return trainer.parameters().weights;
      });
    };
    QCOMPARE(train(1), train(2));
  }

  void stopBeforeAnEpochLeavesTheParameters() {
    const auto data = exactSamples(randomRbm(8, 3, 1.0, 30), 100, 31);
    std::vector<Eigen::Index> order(static_cast<std::size_t>(data.rows()));
    std::iota(order.begin(), order.end(), 0);
    const auto start = rbm::initialParameters(data, 3, 32);
    rbm::RbmTrainer trainer(rbm::ContrastiveDivergence{}, start, 33);
    std::stop_source stop;
    stop.request_stop();
    QVERIFY(!trainer.epoch(data, order, 0.1, stop.get_token()));
    QCOMPARE(trainer.parameters().weights, start.weights);
    QCOMPARE(trainer.updates(), std::int64_t{0});
  }
};

LATENT_TEST_CASE(BinaryRbmTest)
#include "tst_binary_rbm.moc"
