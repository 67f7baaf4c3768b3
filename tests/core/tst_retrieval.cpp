// SPDX-License-Identifier: GPL-3.0-or-later
// Retrieval precision-recall (eval/retrieval): a hand-worked example, a perfect representation, a
// random one at the labels' base rate, the same numbers for any thread count.
#include <QtTest>

#include <cmath>
#include <stdexcept>
#include <vector>

#include <tbb/task_arena.h>

#include "core/eval/retrieval.hpp"
#include "core/util/random.hpp"
#include "test_case.hpp"

using namespace latent;

namespace {

bool closeTo(double a, double b, double tolerance = 1e-12) { return std::abs(a - b) <= tolerance; }

// K-dimensional Gaussian rows, labels 0..labelCount-1 in turn.
struct RandomDocuments {
  Eigen::MatrixXd representation;
  std::vector<int> labels;
  std::vector<std::int64_t> queries, training;
};

RandomDocuments randomDocuments(int documents, int queries, int K, int labelCount, std::uint64_t seed) {
  RandomDocuments r;
  core::Rng rng(seed);
  r.representation.resize(documents, K);
  for (int d = 0; d < documents; ++d) {
    for (int k = 0; k < K; ++k) r.representation(d, k) = rng.normal();
    r.labels.push_back(d % labelCount);
    (d < queries ? r.queries : r.training).push_back(d);
  }
  return r;
}

}  // namespace

class RetrievalTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void handWorkedExample() {
    // Training documents 0-4 and 9, queries 5-8; labels A = 0, B = 1, C = 2 (only in a query).
    Eigen::MatrixXd x(10, 2);
    x << 1, 0,   // 0 A
        0, 1,    // 1 A
        1, 1,    // 2 B
        1, 0.2,  // 3 B
        -1, 0,   // 4 A
        1, 0,    // 5 query A
        0, 1,    // 6 query B
        1, 0,    // 7 query C: no training document is C
        1, 0,    // 8 query without a label
        1, 0;    // 9 training without a label: would rank first for query 5 if it counted
    const std::vector<int> labels = {0, 0, 1, 1, 0, 0, 1, 2, -1, -1};
    const std::vector<std::int64_t> queries = {5, 6, 7, 8}, training = {0, 1, 2, 3, 4, 9};
    const std::vector<double> levels = {0.1, 0.34, 0.5, 0.67, 1.0};
    const auto r = core::evaluateRetrieval(x, queries, training, labels, levels);
    // Query 5 (A, 3 relevant) ranks 0 (cos 1), 3, 2, 1 (cos 0), 4 (cos -1): the relevant at ranks
    // 1, 4, 5, precisions 1, 1/2, 3/5, AP 0.7; at the levels j = 1, 2, 2, 3, 3.
    // Query 6 (B, 2 relevant) ranks 1 (cos 1), 2, 3, then 0 and 4 (cos 0, in training order): the
    // relevant at ranks 2 and 3, precisions 1/2, 2/3, AP 7/12; at the levels j = 1, 1, 1, 2, 2.
    QCOMPARE(r.queries, std::int64_t{2});
    QCOMPARE(r.skippedQueries, std::int64_t{1});
    QCOMPARE(r.unlabelledQueries, std::int64_t{1});
    QCOMPARE(r.unlabelledTraining, std::int64_t{1});
    QCOMPARE(r.rankedDocuments, std::int64_t{5});
    const std::vector<double> expected = {(1 + 0.5) / 2, (0.5 + 0.5) / 2, (0.5 + 0.5) / 2, (0.6 + 2.0 / 3) / 2,
                                          (0.6 + 2.0 / 3) / 2};
    QCOMPARE(r.curve.size(), levels.size());
    for (std::size_t l = 0; l < levels.size(); ++l) {
      QCOMPARE(r.curve[l].recall, levels[l]);
      QVERIFY2(closeTo(r.curve[l].precision, expected[l]),
               qPrintable(QString("level %1: %2 vs %3").arg(levels[l]).arg(r.curve[l].precision).arg(expected[l])));
    }
    QVERIFY2(closeTo(r.meanAveragePrecision, (0.7 + 7.0 / 12) / 2),
             qPrintable(QString::number(r.meanAveragePrecision)));
  }

  void perfectRepresentationHasPrecisionOne() {
    // Each document is its label's indicator, blurred a little along the other axes.
    const int labelCount = 3;
    auto docs = randomDocuments(90, 20, labelCount, labelCount, 11);
    for (Eigen::Index d = 0; d < docs.representation.rows(); ++d) {
      docs.representation.row(d) *= 0.01;
      docs.representation(d, docs.labels[static_cast<std::size_t>(d)]) += 1.0;
    }
    const auto levels = core::defaultRecallLevels();
    const auto r = core::evaluateRetrieval(docs.representation, docs.queries, docs.training, docs.labels, levels);
    QCOMPARE(r.queries, std::int64_t{20});
    for (const auto& point : r.curve)
      QVERIFY2(closeTo(point.precision, 1.0), qPrintable(QString::number(point.recall)));
    QVERIFY(closeTo(r.meanAveragePrecision, 1.0));
  }

  void randomRepresentationIsAtTheBaseRate() {
    // Four labels in equal shares: a random ranking finds a relevant document a quarter of the time.
    const auto docs = randomDocuments(2200, 200, 20, 4, 3);
    const auto levels = core::defaultRecallLevels();
    const auto r = core::evaluateRetrieval(docs.representation, docs.queries, docs.training, docs.labels, levels);
    QCOMPARE(r.queries, std::int64_t{200});
    // From recall 0.1 on (50 relevant documents in), the mean precision is within a few points of 1/4.
    for (const auto& point : r.curve)
      if (point.recall >= 0.1)
        QVERIFY2(std::abs(point.precision - 0.25) < 0.03,
                 qPrintable(QString("recall %1: precision %2").arg(point.recall).arg(point.precision)));
    QVERIFY2(std::abs(r.meanAveragePrecision - 0.25) < 0.03, qPrintable(QString::number(r.meanAveragePrecision)));
  }

  void sameNumbersForAnyThreadCount() {
    const auto docs = randomDocuments(600, 150, 8, 5, 9);
    const auto levels = core::defaultRecallLevels();
    core::RetrievalResult one, four;
    tbb::task_arena(1).execute(
        [&] { one = core::evaluateRetrieval(docs.representation, docs.queries, docs.training, docs.labels, levels); });
    tbb::task_arena(4).execute(
        [&] { four = core::evaluateRetrieval(docs.representation, docs.queries, docs.training, docs.labels, levels); });
    QCOMPARE(one.meanAveragePrecision, four.meanAveragePrecision);
    for (std::size_t l = 0; l < levels.size(); ++l) QCOMPARE(one.curve[l].precision, four.curve[l].precision);
  }

  void badInputThrows() {
    const Eigen::MatrixXd x = Eigen::MatrixXd::Ones(3, 2);
    const std::vector<std::int64_t> queries = {0}, training = {1, 2}, outside = {1, 3};
    const std::vector<int> labels = {0, 0, 0}, short_ = {0, 0};
    const auto levels = core::defaultRecallLevels();
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, core::evaluateRetrieval(x, queries, training, short_, levels));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, core::evaluateRetrieval(x, queries, outside, labels, levels));
    // Nothing to answer: no queries, a curve of zeros.
    const auto none = core::evaluateRetrieval(x, {}, training, labels, levels);
    QCOMPARE(none.queries, std::int64_t{0});
    QCOMPARE(none.curve.size(), levels.size());
  }
};

LATENT_TEST_CASE(RetrievalTest)
#include "tst_retrieval.moc"
