// SPDX-License-Identifier: GPL-3.0-or-later
// The binary RBM's kernels against the truth on models small enough to enumerate: the partition
// function and the likelihood's gradient by brute force and by finite differences, the Gibbs
// conditionals by chi-squared, AIS against the exact log Z, contrastive divergence against the
// exact gradient, and a planted RBM fitted back from its own exact samples.
#include <QtTest>

#include <tbb/task_arena.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <span>
#include <stop_token>
#include <vector>

#include "core/models/harmonium/binary_rbm.hpp"
#include "core/models/harmonium/rbm_ais.hpp"
#include "core/models/harmonium/rbm_training.hpp"
#include "core/util/errors.hpp"
#include "core/util/random.hpp"
#include "test_case.hpp"

using namespace latent;
namespace rbm = latent::core::harmonium;

namespace {

rbm::RbmParameters randomRbm(Eigen::Index visible, Eigen::Index hidden, double scale, std::uint64_t seed) {
  core::Rng rng(seed);
  rbm::RbmParameters p(visible, hidden);
  for (Eigen::Index r = 0; r < visible; ++r)
    for (Eigen::Index k = 0; k < hidden; ++k) p.weights(r, k) = scale * rng.normal();
  for (Eigen::Index r = 0; r < visible; ++r) p.visibleBias[r] = 0.5 * rng.normal();
  for (Eigen::Index k = 0; k < hidden; ++k) p.hiddenBias[k] = 0.5 * rng.normal();
  return p;
}

Eigen::VectorXd bits(std::uint64_t state, Eigen::Index n) {
  Eigen::VectorXd v(n);
  for (Eigen::Index i = 0; i < n; ++i) v[i] = static_cast<double>(state >> i & 1U);
  return v;
}

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

rbm::BinaryData toData(const std::vector<Eigen::VectorXd>& rows, Eigen::Index visible) {
  std::vector<Eigen::Triplet<double>> entries;
  for (std::size_t i = 0; i < rows.size(); ++i)
    for (Eigen::Index r = 0; r < visible; ++r)
      if (rows[i][r] > 0.5) entries.emplace_back(static_cast<Eigen::Index>(i), r, 1.0);
  rbm::BinaryData data(static_cast<Eigen::Index>(rows.size()), visible);
  data.setFromTriplets(entries.begin(), entries.end());
  return data;
}

// Exact samples of v: h from its marginal p(h), proportional to exp(c^T h + sum_r softplus(b_r +
// W_r h)) (small K, enumerated), then v from p(v | h).
rbm::BinaryData exactSamples(const rbm::RbmParameters& p, int count, std::uint64_t seed) {
  const auto states = std::uint64_t{1} << p.hidden();
  std::vector<double> logWeight(states);
  for (std::uint64_t s = 0; s < states; ++s) {
    const Eigen::VectorXd h = bits(s, p.hidden());
    const Eigen::VectorXd a = p.visibleBias + p.weights * h;
    logWeight[s] = p.hiddenBias.dot(h);
    for (Eigen::Index r = 0; r < a.size(); ++r) logWeight[s] += rbm::softplus(a[r]);
  }
  const double top = *std::max_element(logWeight.begin(), logWeight.end());
  std::vector<double> cumulative(states);
  double total = 0.0;
  for (std::uint64_t s = 0; s < states; ++s) cumulative[s] = total += std::exp(logWeight[s] - top);
  core::Rng rng(seed);
  std::vector<Eigen::VectorXd> rows;
  for (int i = 0; i < count; ++i) {
    const double u = rng.uniform() * total;
    const auto s =
        static_cast<std::uint64_t>(std::lower_bound(cumulative.begin(), cumulative.end(), u) - cumulative.begin());
    const Eigen::VectorXd a = p.visibleBias + p.weights * bits(std::min(s, states - 1), p.hidden());
    Eigen::VectorXd v(p.visible());
    for (Eigen::Index r = 0; r < v.size(); ++r) v[r] = rng.uniform() < rbm::sigmoid(a[r]) ? 1.0 : 0.0;
    rows.push_back(v);
  }
  return toData(rows, p.visible());
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

  void aisBracketsTheExactPartitionFunction() {
    // A model with strong weights over 20 visible units, enumerable over its 10 hidden ones.
    const auto p = randomRbm(20, 10, 0.6, 13);
    const auto data = exactSamples(p, 500, 14);
    const double exact = rbm::exactLogPartition(p);
    rbm::AisSettings settings;
    settings.particles = 200;
    settings.temperatures = 3000;
    const auto estimate = rbm::estimateLogPartition(p, rbm::baseRateBiases(data), settings, 15);
    QVERIFY2(estimate.low <= exact && exact <= estimate.high, qPrintable(QStringLiteral("exact %1, AIS %2 [%3, %4]")
                                                                             .arg(exact)
                                                                             .arg(estimate.logPartition)
                                                                             .arg(estimate.low)
                                                                             .arg(estimate.high)));
    QVERIFY(estimate.high - estimate.low < 0.5);
    // The same seed gives the same estimate on any number of threads.
    tbb::task_arena one(1);
    const auto again =
        one.execute([&] { return rbm::estimateLogPartition(p, rbm::baseRateBiases(data), settings, 15); });
    QCOMPARE(again.logPartition, estimate.logPartition);
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

  void plantedRbmIsFittedBack() {
    // Exact samples of a planted RBM whose three hidden units each turn on a block of four visible
    // units; CD-1 and PCD fits reach the planted model's held-out log-likelihood (exact,
    // enumerated) and beat independent units by a wide margin.
    auto planted = randomRbm(12, 3, 0.3, 20);
    for (Eigen::Index r = 0; r < 12; ++r) {
      planted.weights(r, r / 4) += 4.0;
      planted.visibleBias[r] = -2.0;
    }
    // c_k = -4 (softplus(2) - softplus(-2)) = -8 makes each unit's marginal about one half.
    planted.hiddenBias.setConstant(-8.0);
    const auto train = exactSamples(planted, 3000, 21);
    const auto test = exactSamples(planted, 2000, 22);
    const double truth = rbm::meanLogLikelihood(planted, test, rbm::exactLogPartition(planted));
    rbm::RbmParameters independent(12, 0);
    independent.visibleBias = rbm::baseRateBiases(train);
    const double baseline = rbm::meanLogLikelihood(independent, test, rbm::exactLogPartition(independent));
    QVERIFY2(truth > baseline + 0.5, qPrintable(QStringLiteral("planted %1, independent %2").arg(truth).arg(baseline)));

    for (const bool persistent : {true, false}) {
      rbm::ContrastiveDivergence cd;
      cd.persistent = persistent;
      cd.batchSize = 50;
      cd.weightDecay = 0.0;
      rbm::RbmTrainer trainer(cd, rbm::initialParameters(train, 3, 23), 24);
      std::vector<Eigen::Index> order(static_cast<std::size_t>(train.rows()));
      std::iota(order.begin(), order.end(), 0);
      core::Rng shuffle(25);
      for (int epoch = 0; epoch < 100; ++epoch) {
        shuffle.shuffle(std::span<Eigen::Index>(order));
        trainer.epoch(train, order, epoch < 50 ? 0.1 : 0.03, {});
      }
      const auto& fitted = trainer.parameters();
      const double heldout = rbm::meanLogLikelihood(fitted, test, rbm::exactLogPartition(fitted));
      QVERIFY2(heldout > truth - 0.05 && heldout > baseline + 1.5,
               qPrintable(QStringLiteral("%1: held-out %2, planted %3, independent %4")
                              .arg(persistent ? "PCD" : "CD-1")
                              .arg(heldout)
                              .arg(truth)
                              .arg(baseline)));
    }
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
