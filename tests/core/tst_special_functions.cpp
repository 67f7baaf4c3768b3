// SPDX-License-Identifier: GPL-3.0-or-later
// Digamma, trigamma, inverse digamma and log-sum-exp against reference values (SciPy 1.10).
#include <QtTest>

#include <cmath>
#include <numbers>
#include <vector>

#include "core/util/special_functions.hpp"
#include "test_case.hpp"

using namespace latent;

class SpecialFunctionsTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void digammaValues() {
    constexpr double gamma = 0.57721566490153286;
    QVERIFY(std::abs(core::digamma(1.0) + gamma) < 1e-13);
    QVERIFY(std::abs(core::digamma(0.5) - (-gamma - 2 * std::numbers::ln2)) < 1e-13);
    QVERIFY(std::abs(core::digamma(10.0) - 2.251752589066721) < 1e-13);
    QVERIFY(std::abs(core::digamma(0.1) - -10.423754940411076) < 1e-12);
    QVERIFY(std::abs(core::digamma(2.5) - 0.7031566406452432) < 1e-13);
    QVERIFY(std::isnan(core::digamma(0.0)));
    // The recurrence psi(x + 1) = psi(x) + 1/x holds across the switch to the series at 6.
    for (const double x : {0.01, 0.7, 3.3, 5.99, 6.0, 40.0})
      QVERIFY(std::abs(core::digamma(x + 1) - core::digamma(x) - 1 / x) < 1e-12);
  }

  void trigammaValues() {
    QVERIFY(std::abs(core::trigamma(1.0) - std::numbers::pi * std::numbers::pi / 6) < 1e-12);
    QVERIFY(std::abs(core::trigamma(0.3) - 12.245364546107734) < 1e-11);
    QVERIFY(std::abs(core::trigamma(7.5) - 0.1426158966967038) < 1e-13);
  }

  void inverseDigammaRoundTrip() {
    for (const double y : {1e-3, 0.05, 0.5, 1.0, 3.7, 100.0, 5000.0}) {
      const double back = core::inverseDigamma(core::digamma(y));
      QVERIFY2(std::abs(back - y) < 1e-9 * std::max(1.0, y), qPrintable(QString("%1 -> %2").arg(y).arg(back)));
    }
  }

  void logSumExpIsStable() {
    const std::vector<double> big{1000.0, 1000.0};
    QVERIFY(std::abs(core::logSumExp(big) - (1000.0 + std::log(2.0))) < 1e-12);
    const std::vector<double> small{-1000.0, -1001.0};
    QVERIFY(std::abs(core::logSumExp(small) - (-1000.0 + std::log1p(std::exp(-1.0)))) < 1e-12);
    QVERIFY(std::isinf(core::logSumExp({})));
  }
};

LATENT_TEST_CASE(SpecialFunctionsTest)
#include "tst_special_functions.moc"
