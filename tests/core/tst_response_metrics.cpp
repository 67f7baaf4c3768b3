// SPDX-License-Identifier: GPL-3.0-or-later
// Scores of held-out responses, classes and label sets (core/eval/response_metrics.hpp) against
// values computed by hand, and the --json keys that report them.
#include <QtTest>

#include <cmath>
#include <limits>

#include "core/eval/response_metrics.hpp"
#include "test_case.hpp"

using namespace latent;

namespace {

bool metricsClose(double a, double b) { return std::abs(a - b) <= 1e-12 * std::max(1.0, std::abs(b)); }

}  // namespace

class ResponseMetricsTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void numericSkipsMissingTruth() {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const std::vector<double> predicted{1, 2, 9, 3}, truth{1, 3, nan, 5};
    const auto s = core::scoreNumeric(predicted, truth);
    QCOMPARE(s.count, std::int64_t{3});
    // Errors 0, -1, -2; the truth's mean 3, its sum of squares 8.
    QVERIFY(metricsClose(s.rmse, std::sqrt(5.0 / 3.0)));
    QVERIFY(metricsClose(s.mae, 1.0));
    QVERIFY(metricsClose(s.r2, 1.0 - 5.0 / 8.0));
  }

  void numericConstantTruth() {
    const std::vector<double> truth{2, 2};
    QCOMPARE(core::scoreNumeric(std::vector<double>{2, 2}, truth).r2, 1.0);
    QCOMPARE(core::scoreNumeric(std::vector<double>{2, 3}, truth).r2, 0.0);
    QCOMPARE(core::scoreNumeric(std::vector<double>{}, std::vector<double>{}).count, std::int64_t{0});
  }

  void classesByHand() {
    Eigen::MatrixXd p(6, 3);
    p << 0.7, 0.2, 0.1,  // truth 0, predicted 0
        0.5, 0.4, 0.1,   // truth 1, predicted 0
        0.1, 0.8, 0.1,   // truth 1, predicted 1
        0.0, 0.0, 1.0,   // missing truth
        0.2, 0.2, 0.6,   // truth 2, predicted 2
        0.3, 0.3, 0.4;   // truth 0, predicted 2
    const std::vector<std::int32_t> truth{0, 1, 1, -1, 2, 0};
    const auto s = core::scoreClasses(p, truth);
    QCOMPARE(s.count, std::int64_t{5});
    QVERIFY(metricsClose(s.accuracy, 0.6));
    // F1 per class: 2/4, 2/3, 2/3.
    QVERIFY(metricsClose(s.macroF1, (0.5 + 2.0 / 3.0 + 2.0 / 3.0) / 3.0));
    QVERIFY(metricsClose(s.logLoss,
                         -(std::log(0.7) + std::log(0.4) + std::log(0.8) + std::log(0.6) + std::log(0.3)) / 5.0));
    // One-vs-rest AUCs: class 0 wins 5 of its 6 pairs, classes 1 and 2 all of theirs.
    QVERIFY(metricsClose(s.auc, (5.0 / 6.0 + 1.0 + 1.0) / 3.0));
  }

  void classesLogLossClipped() {
    Eigen::MatrixXd p(1, 2);
    p << 1.0, 0.0;
    const auto s = core::scoreClasses(p, std::vector<std::int32_t>{1});
    QVERIFY(metricsClose(s.logLoss, -std::log(1e-15)));
    QVERIFY(std::isnan(s.auc));  // one document: no pair to order
    nlohmann::json metrics;
    core::addScores(metrics, s);
    QVERIFY(!metrics.contains("heldout_auc"));
    QVERIFY(metrics.contains("heldout_accuracy"));
  }

  void aucCountsTiesHalf() {
    const std::vector<double> scores{0.5, 0.5, 0.5, 0.9};
    // Each positive ties one negative (1/2) and loses to the other (0).
    QVERIFY(metricsClose(core::rocAuc(scores, std::vector<bool>{true, false, true, false}), 0.25));
    QVERIFY(metricsClose(core::rocAuc(std::vector<double>{1, 1, 1}, std::vector<bool>{true, false, false}), 0.5));
    QVERIFY(metricsClose(
        core::rocAuc(std::vector<double>{0.1, 0.4, 0.35, 0.8}, std::vector<bool>{false, false, true, true}), 0.75));
    QVERIFY(std::isnan(core::rocAuc(std::vector<double>{0.1, 0.2}, std::vector<bool>{true, true})));
  }

  void labelSetsByHand() {
    Eigen::MatrixXd s(4, 4);
    s << 0.9, 0.2, 0.6, 0.1,  // truth {0, 2}: predicted {0, 2}
        0.3, 0.4, 0.1, 0.1,   // truth {1}: none reaches 0.5, the top one {1}
        0.9, 0.9, 0.9, 0.9,   // no labels: skipped
        0.2, 0.7, 0.3, 0.1;   // truth {0}: predicted {1}
    const std::vector<std::vector<std::int32_t>> truth{{0, 2}, {1}, {}, {0}};
    const auto scores = core::scoreLabelSets(s, truth);
    QCOMPARE(scores.count, std::int64_t{3});
    // Label 3 is neither given nor predicted: left out of the macro averages.
    QVERIFY(metricsClose(scores.macroF1, (2.0 / 3.0 + 2.0 / 3.0 + 1.0) / 3.0));
    QVERIFY(metricsClose(scores.microF1, 6.0 / 8.0));  // 3 true positives, 1 false positive, 1 false negative
    QVERIFY(metricsClose(scores.auc, (0.5 + 0.5 + 1.0) / 3.0));
    QVERIFY(metricsClose(scores.precisionAt1, 2.0 / 3.0));
  }

  void keys() {
    nlohmann::json metrics;
    core::addScores(metrics, core::NumericScores{1, 2, 0.5, 7});
    core::addScores(metrics, core::NumericScores{3, 4, 0.1, 7}, "ridge");
    QCOMPARE(metrics["heldout_response_rmse"].get<double>(), 1.0);
    QCOMPARE(metrics["heldout_responses"].get<std::int64_t>(), std::int64_t{7});
    QCOMPARE(metrics["baseline_response_rmse_ridge"].get<double>(), 3.0);
    QCOMPARE(metrics["baseline_response_r2_ridge"].get<double>(), 0.1);
    QVERIFY(!metrics.contains("baseline_responses_ridge"));

    nlohmann::json labels;
    core::addScores(labels, core::LabelSetScores{0.1, 0.2, 0.3, 0.4, 5}, "logistic");
    QCOMPARE(labels["baseline_macro_f1_logistic"].get<double>(), 0.1);
    QCOMPARE(labels["baseline_micro_f1_logistic"].get<double>(), 0.2);
    QCOMPARE(labels["baseline_auc_logistic"].get<double>(), 0.3);
    QCOMPARE(labels["baseline_precision_at_1_logistic"].get<double>(), 0.4);

    nlohmann::json classes;
    core::addScores(classes, core::ClassScores{0.5, 0.4, 1.2, 0.7, 9}, "majority");
    QCOMPARE(classes["baseline_accuracy_majority"].get<double>(), 0.5);
    QCOMPARE(classes["baseline_macro_f1_majority"].get<double>(), 0.4);
    QCOMPARE(classes["baseline_log_loss_majority"].get<double>(), 1.2);
    QCOMPARE(classes["baseline_auc_majority"].get<double>(), 0.7);
  }
};

LATENT_TEST_CASE(ResponseMetricsTest)
#include "tst_response_metrics.moc"
