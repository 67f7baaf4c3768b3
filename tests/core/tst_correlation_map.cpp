// SPDX-License-Identifier: GPL-3.0-or-later
// The map of items from their correlations (core/eval/correlation_map.hpp): correlated items sit
// closer than opposed ones, with uncorrelated ones between them; the map fills the unit square,
// is the same on every call and keeps items apart; and the first threshold of the graph.
#include <QtTest>

#include "core/eval/correlation_map.hpp"
#include "test_case.hpp"

using namespace latent;

class CorrelationMapTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void distancesFollowCorrelations() {
    // Two groups of three (0-2, 3-5) correlated within, opposed between, and item 6 apart.
    Eigen::MatrixXd r = Eigen::MatrixXd::Identity(7, 7);
    for (int a = 0; a < 6; ++a)
      for (int b = 0; b < 6; ++b)
        if (a != b) r(a, b) = (a < 3) == (b < 3) ? 0.8 : -0.4;
    const auto map = core::correlationMap(r, 0.05);
    QCOMPARE(map.rows(), Eigen::Index{7});
    QVERIFY(map.minCoeff() >= 0.0 && map.maxCoeff() <= 1.0);
    QVERIFY(std::abs(map.maxCoeff() - 1.0) < 1e-9);
    const auto distance = [&](int a, int b) { return (map.row(a) - map.row(b)).norm(); };
    QVERIFY(distance(0, 1) < distance(0, 4));
    QVERIFY(distance(3, 5) < distance(3, 1));
    // The first axis runs from one group to the other, the uncorrelated item between them.
    QVERIFY((map(6, 0) - map(0, 0)) * (map(6, 0) - map(4, 0)) < 0.0);
    QVERIFY(std::abs(map(0, 0) - map(4, 0)) > 0.8);
    QVERIFY(core::correlationMap(r, 0.05) == map);
    for (int a = 0; a < 7; ++a)
      for (int b = a + 1; b < 7; ++b) QVERIFY2(distance(a, b) > 0.049, qPrintable(QString("%1-%2").arg(a).arg(b)));
  }

  void uncorrelatedItemsAreSpreadApart() {
    const auto map = core::correlationMap(Eigen::MatrixXd::Identity(12, 12), 0.1);
    for (int a = 0; a < 12; ++a)
      for (int b = a + 1; b < 12; ++b) QVERIFY((map.row(a) - map.row(b)).norm() > 0.099);
  }

  void firstThresholdKeepsTheStrongestPairs() {
    Eigen::MatrixXd r = Eigen::MatrixXd::Identity(4, 4);
    const auto set = [&](int a, int b, double v) { r(a, b) = r(b, a) = v; };
    set(0, 1, 0.6);
    set(0, 2, 0.3);
    set(1, 2, 0.3);
    set(2, 3, -0.5);
    set(1, 3, 0.1);
    QCOMPARE(core::strongestCorrelationsThreshold(r, 1), std::nextafter(0.3, 2.0));  // the tie is left out
    QCOMPARE(core::strongestCorrelationsThreshold(r, 3), std::nextafter(0.1, 2.0));
    QCOMPARE(core::strongestCorrelationsThreshold(r, 10), 0.1);
    QCOMPARE(core::strongestCorrelationsThreshold(Eigen::MatrixXd::Identity(3, 3), 3), 1.0);
  }
};

LATENT_TEST_CASE(CorrelationMapTest)
#include "tst_correlation_map.moc"
