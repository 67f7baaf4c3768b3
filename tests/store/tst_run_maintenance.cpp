// SPDX-License-Identifier: GPL-3.0-or-later
// Run management in the project file (issue 20, missing item 5): deleting a run takes everything
// it stored; removing snapshots keeps the final results and any snapshot that stands in for a
// missing one, and says how much it freed; a run still going is refused; compacting gives the
// space back to the disk.
#include <QtTest>

#include "core/store/project.hpp"
#include "core/store/run_maintenance.hpp"
#include "core/store/run_store.hpp"
#include "core/util/errors.hpp"
#include "test_case.hpp"
#include "test_datasets.hpp"
#include "test_support.hpp"

using namespace latent;

namespace {

std::int64_t maintenanceRun(core::Project& project, std::int64_t dataset, core::RunStatus status) {
  core::RunRecord record;
  record.datasetId = dataset;
  record.model = "lda-gibbs";
  record.status = core::RunStatus::Running;
  const auto run = core::createRun(project, record);
  if (status != core::RunStatus::Running) core::finishRun(project, run, status, {}, 1.0, 10, nlohmann::json::object());
  return run;
}

std::int64_t rowsOf(core::Project& project, const char* table, std::int64_t run) {
  auto s = project.db().prepare(std::string("SELECT count(*) FROM ") + table + " WHERE run_id = ?1");
  s.bind(1, run);
  s.step();
  return s.integer(0);
}

}  // namespace

class RunMaintenanceTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void snapshotsGoFinalResultsStay() {
    test::Scratch scratch;
    core::Project project(scratch.path("p.latent"));
    const auto dataset = test::addCorpus(project, "toy", {"alpha beta"});
    const auto run = maintenanceRun(project, dataset, core::RunStatus::Finished);
    const Eigen::MatrixXd m = Eigen::MatrixXd::Ones(4, 4);  // 128 bytes of values
    core::saveMatrix(project, run, "topic_word", -1, m);
    for (std::int64_t it = 10; it <= 50; it += 10) core::saveMatrix(project, run, "topic_word", it, m);
    // A stopped chain's only word_trace is a snapshot: it stays.
    core::saveMatrix(project, run, "word_trace", 50, m);
    const auto before = core::runStorage(project, run);
    QCOMPARE(before.snapshots, std::int64_t{5});
    QCOMPARE(before.snapshotBytes, std::int64_t{5 * 128});
    QCOMPARE(before.matrixBytes, std::int64_t{7 * 128});
    QCOMPARE(core::removeSnapshots(project, run), std::int64_t{5 * 128});
    QCOMPARE(core::listMatrices(project, run).size(), std::size_t{2});
    QCOMPARE(*core::loadMatrix(project, run, "topic_word"), m);
    QVERIFY(core::loadMatrix(project, run, "word_trace", 50).has_value());
    QCOMPARE(core::runStorage(project, run).snapshots, std::int64_t{0});
    QCOMPARE(core::removeSnapshots(project, run), std::int64_t{0});
  }

  void aDeletedRunTakesWhatItStored() {
    test::Scratch scratch;
    core::Project project(scratch.path("p.latent"));
    const auto dataset = test::addCorpus(project, "toy", {"alpha beta"});
    const auto kept = maintenanceRun(project, dataset, core::RunStatus::Finished);
    const auto gone = maintenanceRun(project, dataset, core::RunStatus::Stopped);
    for (const auto run : {kept, gone}) {
      core::saveMatrix(project, run, "topic_word", -1, Eigen::MatrixXd::Ones(2, 2));
      core::saveTokenTopics(project, run, 0, std::vector<std::int32_t>{0, 1});
      core::appendMetrics(project, run, std::vector<core::MetricRow>{core::MetricRow{}});
    }
    core::deleteRun(project, gone);
    QCOMPARE(core::listRuns(project).size(), std::size_t{1});
    QCOMPARE(core::listRuns(project).front().id, kept);
    for (const char* table : {"run_matrices", "token_topics", "run_metrics"}) {
      QCOMPARE(rowsOf(project, table, gone), std::int64_t{0});
      QCOMPARE(rowsOf(project, table, kept), std::int64_t{1});
    }
    QVERIFY_THROWS_EXCEPTION(core::UsageError, core::deleteRun(project, gone));  // no such run now
  }

  void aRunStillGoingIsLeftAlone() {
    test::Scratch scratch;
    core::Project project(scratch.path("p.latent"));
    const auto dataset = test::addCorpus(project, "toy", {"alpha beta"});
    const auto going = maintenanceRun(project, dataset, core::RunStatus::Running);  // owned by this process
    core::saveMatrix(project, going, "topic_word", 10, Eigen::MatrixXd::Ones(2, 2));
    QVERIFY_THROWS_EXCEPTION(core::UsageError, core::deleteRun(project, going));
    QVERIFY_THROWS_EXCEPTION(core::UsageError, core::removeSnapshots(project, going));
    QCOMPARE(core::listRuns(project).size(), std::size_t{1});
  }

  void compactingGivesTheSpaceBack() {
    test::Scratch scratch;
    core::Project project(scratch.path("p.latent"));
    const auto dataset = test::addCorpus(project, "toy", {"alpha beta"});
    const auto run = maintenanceRun(project, dataset, core::RunStatus::Finished);
    const Eigen::MatrixXd big = Eigen::MatrixXd::Random(500, 500);  // 2 MB
    core::saveMatrix(project, run, "topic_word", -1, big);
    for (std::int64_t it = 10; it <= 30; it += 10) core::saveMatrix(project, run, "topic_word", it, big);
    core::removeSnapshots(project, run);
    const auto outcome = core::compactProject(project);
    QVERIFY2(outcome.bytesBefore > 7'000'000, qPrintable(QString::number(outcome.bytesBefore)));
    QVERIFY2(outcome.bytesAfter < 3'000'000, qPrintable(QString::number(outcome.bytesAfter)));
    QCOMPARE(*core::loadMatrix(project, run, "topic_word"), big);
  }
};

LATENT_TEST_CASE(RunMaintenanceTest)
#include "tst_run_maintenance.moc"
