// SPDX-License-Identifier: GPL-3.0-or-later
// A run keeps its latest snapshot and a thinned, evenly spread history within a number and a size.
#include <QtTest>

#include <iterator>
#include <set>

#include "core/store/run_store.hpp"
#include "core/store/snapshot_retention.hpp"
#include "test_case.hpp"
#include "test_datasets.hpp"
#include "test_support.hpp"

using namespace latent;

namespace {

std::set<std::int64_t> snapshotIterations(core::Project& project, std::int64_t run) {
  std::set<std::int64_t> out;
  for (const auto& [name, iteration] : core::listMatrices(project, run))
    if (iteration >= 0) out.insert(iteration);
  return out;
}

}  // namespace

class SnapshotRetentionTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void theHistoryIsThinnedEvenlyAndTheLatestKept() {
    test::Scratch scratch;
    core::Project project(scratch.path("p.latent"));
    core::RunRecord record;
    record.datasetId = test::addCorpus(project, "toy", {"alpha beta"});
    record.model = "lda-gibbs";
    const auto run = core::createRun(project, record);
    const Eigen::MatrixXd m = Eigen::MatrixXd::Ones(4, 4);  // 128 bytes
    core::saveMatrix(project, run, "topic_word", -1, m);
    // A snapshot every 10 iterations, thinned after each as the recorder does.
    for (std::int64_t it = 10; it <= 400; it += 10) {
      core::saveMatrix(project, run, "topic_word", it, m);
      core::saveMatrix(project, run, "doc_topic", it, m);
      core::thinSnapshots(project, run, {8, 1 << 20});
    }
    const auto kept = snapshotIterations(project, run);
    QVERIFY2(kept.size() <= 8 && kept.size() >= 4, qPrintable(QString::number(kept.size())));
    QVERIFY(kept.contains(400));  // the latest
    QVERIFY(kept.contains(10));   // the oldest, so what is left spans the run
    // Spread over the run, not merely the last few: no gap more than twice the even one.
    const double even = 390.0 / static_cast<double>(kept.size() - 1);
    for (auto it = kept.begin(); std::next(it) != kept.end(); ++it)
      QVERIFY2(static_cast<double>(*std::next(it) - *it) <= 2 * even,
               qPrintable(QString("gap %1 to %2").arg(*it).arg(*std::next(it))));
    QVERIFY(core::loadMatrix(project, run, "topic_word", -1).has_value());  // the final result stays
    for (const auto it : kept) QVERIFY(core::loadMatrix(project, run, "doc_topic", it).has_value());

    // A size bound: the history (two 128-byte matrices per snapshot) within 600 bytes.
    core::thinSnapshots(project, run, {100, 600});
    const auto small = snapshotIterations(project, run);
    QVERIFY(small.contains(400));
    QVERIFY((small.size() - 1) * 256 <= 600);
    QVERIFY(small.size() >= 2);
  }
};

LATENT_TEST_CASE(SnapshotRetentionTest)
#include "tst_snapshot_retention.moc"
