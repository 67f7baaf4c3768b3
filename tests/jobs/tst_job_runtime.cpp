// SPDX-License-Identifier: GPL-3.0-or-later
// The job runtime: request validation, run records for every outcome, background jobs and stop.
#include <QtTest>

#include <atomic>
#include <chrono>
#include <thread>

#include "core/jobs/fit_job.hpp"
#include "core/jobs/job_runner.hpp"
#include "core/jobs/run_recorder.hpp"
#include "core/store/graph_store.hpp"
#include "core/util/errors.hpp"
#include "test_case.hpp"
#include "test_datasets.hpp"
#include "test_support.hpp"

using namespace latent;
using namespace std::chrono_literals;

namespace {

std::filesystem::path makeProject(const test::Scratch& scratch) {
  const auto file = scratch.path("jobs.latent");
  core::Project p(file);
  test::addCorpus(p, "toy", {"money bank loan", "river bank stream", "money money river"});
  core::Graph g;
  g.nodeIds = {"a", "b"};
  g.nodeNames = {"a", "b"};
  g.edges = {{0, 1, 1.0}};
  core::Transaction tx(p.db());
  const auto id = p.createDataset("net", core::DataKind::Graph, "memory", "edges", nlohmann::json::object());
  core::writeGraph(p, id, g);
  tx.commit();
  return file;
}

std::string usageMessage(const std::filesystem::path& file, const core::RunRequest& request) {
  try {
    core::runFit(file, request, nullptr, {});
  } catch (const core::UsageError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

class JobRuntimeTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void badRequestsLeaveNoRun() {
    test::Scratch scratch;
    const auto file = makeProject(scratch);
    core::RunRequest r;
    r.model = "unigram";
    r.dataset = "toy";

    auto bad = r;
    bad.model = "lda-magic";
    QVERIFY(usageMessage(file, bad).find("unknown model 'lda-magic'") != std::string::npos);
    bad = r;
    bad.dataset = "net";
    QVERIFY(usageMessage(file, bad).find("fits corpus data") != std::string::npos);
    bad = r;
    bad.dataset = "nothing";
    QVERIFY(usageMessage(file, bad).find("no dataset named 'nothing'") != std::string::npos);
    bad = r;
    bad.threads = 0;
    QVERIFY(usageMessage(file, bad).find("--threads") != std::string::npos);
    bad = r;
    bad.heldout = 1.0;
    QVERIFY(usageMessage(file, bad).find("--heldout") != std::string::npos);
    bad = r;
    bad.options = {{"k", 5}};
    QVERIFY(usageMessage(file, bad).find("has no option --k") != std::string::npos);
    bad = r;
    bad.options = {{"beta", -1.0}};
    QVERIFY(usageMessage(file, bad).find("greater than 0") != std::string::npos);
    bad = r;
    bad.options = {{"beta", "lots"}};
    QVERIFY(usageMessage(file, bad).find("must be a number") != std::string::npos);

    core::Project p(file, core::Project::Access::ReadOnly);
    QVERIFY(core::listRuns(p).empty());
  }

  void stoppedRunIsRecordedAsStopped() {
    test::Scratch scratch;
    const auto file = makeProject(scratch);
    core::RunRequest r;
    r.model = "unigram";
    r.dataset = "toy";
    std::stop_source stop;
    stop.request_stop();
    std::int64_t createdId = 0;
    const auto outcome =
        core::runFit(file, r, nullptr, stop.get_token(), [&](const core::RunRecord& run) { createdId = run.id; });
    QCOMPARE(outcome.run.id, createdId);
    QVERIFY(outcome.run.status == core::RunStatus::Stopped);
    core::Project p(file, core::Project::Access::ReadOnly);
    QVERIFY(core::loadRun(p, createdId).status == core::RunStatus::Stopped);
  }

  void optionsAndSettingsAreRecorded() {
    test::Scratch scratch;
    const auto file = makeProject(scratch);
    core::RunRequest r;
    r.model = "unigram";
    r.dataset = "toy";
    r.seed = 99;
    r.threads = 3;
    const auto outcome = core::runFit(file, r, nullptr, {});
    QCOMPARE(outcome.run.seed, std::uint64_t{99});
    QCOMPARE(outcome.run.threads, 3);
    QCOMPARE(outcome.run.options["beta"].get<double>(), 0.01);  // the default, written out
    QVERIFY(!outcome.run.appVersion.empty());
    QVERIFY(!outcome.run.finishedAt.empty());
    QVERIFY(outcome.run.seconds.has_value());
  }

  // A result the file refuses (SQLite's blob limit, a full disk; here a trigger) fails the run with
  // the reason; it used to stay 'running', its work lost.
  void aResultThatCannotBeStoredFailsTheRun() {
    test::Scratch scratch;
    const auto file = makeProject(scratch);
    core::Project(file).db().exec(
        "CREATE TRIGGER refuse_final BEFORE INSERT ON run_matrices WHEN NEW.iteration = -1 "
        "BEGIN SELECT RAISE(ABORT, 'string or blob too big'); END");
    core::RunRequest r;
    r.model = "unigram";
    r.dataset = "toy";
    std::int64_t createdId = 0;
    QVERIFY_THROWS_EXCEPTION(
        core::StoreError, core::runFit(file, r, nullptr, {}, [&](const core::RunRecord& run) { createdId = run.id; }));
    core::Project p(file, core::Project::Access::ReadOnly);
    const auto run = core::loadRun(p, createdId);
    QVERIFY(run.status == core::RunStatus::Failed);
    QVERIFY2(run.message.find("the result could not be stored") != std::string::npos &&
                 run.message.find("string or blob too big") != std::string::npos,
             run.message.c_str());
  }

  // Refused before any work and before a run is recorded: a need beyond the memory a fit may take
  // (lda-gibbs at k 100000 on a corpus of 5 words needs about 6 MB, so the limit is lowered).
  void fitsBeyondTheMachineAreRefusedUpFront() {
    test::Scratch scratch;
    const auto file = makeProject(scratch);
    core::RunRequest r;
    r.model = "lda-gibbs";
    r.dataset = "toy";
    r.options = {{"k", 100000}, {"iterations", 1}};
    qputenv("LATENT_MEMORY_LIMIT_MB", "1");
    try {
      core::runFit(file, r, nullptr, {});
      QFAIL("expected a UsageError");
    } catch (const core::UsageError& e) {
      QVERIFY2(std::string(e.what()).find("of memory on this dataset, more than the 1 MB") != std::string::npos,
               e.what());
    }
    qunsetenv("LATENT_MEMORY_LIMIT_MB");
    const auto outcome = core::runFit(file, r, nullptr, {});  // within 80% of this machine
    QVERIFY(outcome.run.status == core::RunStatus::Finished);
    core::Project p(file, core::Project::Access::ReadOnly);
    QCOMPARE(core::listRuns(p).size(), std::size_t{1});  // the refused one left no run
  }

  void recorderBatchesAndFlushes() {
    test::Scratch scratch;
    const auto file = makeProject(scratch);
    core::Project p(file);
    core::RunRecord record;
    record.datasetId = 1;
    record.model = "unigram";
    record.appVersion = "t";
    const auto id = core::createRun(p, record);
    {
      core::RunRecorder recorder(p, id);
      for (int i = 1; i <= 300; ++i) {
        core::IterationReport report;
        report.iteration = i;
        report.trainObjective = -i;
        if (i % 10 == 0) report.heldout = 100.0 / i;
        report.extras = {{"alpha", 0.5}};
        QVERIFY(recorder.onReport(report));
      }
      // 256 reports force a flush before the end.
      QVERIFY(core::loadMetrics(p, id).size() >= 256);
      auto snapshot = std::make_shared<core::ModelSnapshot>();
      snapshot->iteration = 300;
      snapshot->matrices.push_back({"topic_word", Eigen::MatrixXd::Constant(2, 3, 0.25)});
      recorder.onSnapshot(snapshot);
    }
    const auto metrics = core::loadMetrics(p, id);
    QCOMPARE(metrics.size(), std::size_t{300});
    QCOMPARE(metrics[9].heldout.value(), 10.0);
    QVERIFY(!metrics[8].heldout.has_value());
    QCOMPARE(core::loadMatrix(p, id, "topic_word", 300)->sum(), 1.5);
  }

  void matricesHeldAsFloatsAreStoredAsTheyAre() {
    // With the float32 threshold lowered, lda-gibbs forms doc_topic as floats and hands topic_word
    // over sparse with its values rounded to floats: the final ones and the snapshots go into the
    // project without passing through doubles (topic_word as float32 here, where the sparse form
    // would be no smaller), and read back as exactly what the fit returned; alpha stays double.
    test::Scratch scratch;
    const auto file = makeProject(scratch);
    core::RunRequest r;
    r.model = "lda-gibbs";
    r.dataset = "toy";
    r.options = {{"k", 2}, {"iterations", 20}, {"snapshot_every", 10}, {"restarts", 1}};
    r.heldout = 0.34;
    r.float32MatrixBytes = 0;
    const auto outcome = core::runFit(file, r, nullptr, {});
    QVERIFY(outcome.run.status == core::RunStatus::Finished);
    QVERIFY(core::findNamedMatrix(outcome.result.matrices, "topic_word") == nullptr);
    QCOMPARE(outcome.result.sparseMatrices.size(), std::size_t{1});
    QCOMPARE(outcome.result.sparseMatrices.front().name, std::string("topic_word"));
    const Eigen::MatrixXd topicWord = outcome.result.sparseMatrices.front().values.toDense();
    QVERIFY(topicWord.cast<float>().cast<double>() == topicWord);
    const auto* docTopic = core::findNamedMatrix(outcome.result.matrices, "doc_topic");
    QVERIFY(docTopic != nullptr && docTopic->isFloat());
    QCOMPARE(docTopic->rows(), Eigen::Index{3});  // training and held-out documents
    QVERIFY(!core::findNamedMatrix(outcome.result.matrices, "alpha")->isFloat());
    // A reader of doubles is told, not handed nothing.
    QVERIFY_THROWS_EXCEPTION(std::logic_error, core::findMatrix(outcome.result.matrices, "doc_topic"));

    core::Project p(file, core::Project::Access::ReadOnly);
    const auto element = [&](const char* name, std::int64_t iteration) {
      auto s = p.db().prepare("SELECT element FROM run_matrices WHERE run_id = ?1 AND name = ?2 AND iteration = ?3");
      s.bind(1, outcome.run.id).bind(2, std::string(name)).bind(3, iteration);
      return s.step() ? s.text(0) : std::string();
    };
    QCOMPARE(element("topic_word", -1), std::string("f32"));
    QCOMPARE(element("doc_topic", -1), std::string("f32"));
    // The snapshots (snapshot_every 10) are lda-gibbs's sparse ones (recorderStoresSparseSnapshotsSparse).
    QVERIFY(p.db().queryInteger("SELECT count(*) FROM run_matrices WHERE name = 'topic_word' AND iteration >= 0") > 0);
    QCOMPARE(element("alpha", -1), std::string("f64"));
    QVERIFY(*core::loadMatrix(p, outcome.run.id, "topic_word") == topicWord);
    QCOMPARE(*core::loadMatrix(p, outcome.run.id, "doc_topic"), docTopic->widened());
    for (Eigen::Index k = 0; k < topicWord.rows(); ++k) QVERIFY(std::abs(topicWord.row(k).sum() - 1.0) < 1e-6);

    // The same fit at the default threshold holds doubles, which round to those floats.
    r.float32MatrixBytes = core::kFloat32MatrixBytes;
    const auto doubles = core::runFit(file, r, nullptr, {});
    const auto* exact = core::findMatrix(doubles.result.matrices, "topic_word");
    QVERIFY(exact != nullptr);
    QVERIFY(exact->cast<float>().cast<double>() == topicWord);
    QCOMPARE(element("topic_word", -1), std::string("f32"));  // the first run's
  }

  void recorderStoresSparseSnapshotsSparse() {
    // A model's sparse snapshot (lda-gibbs's) is stored as it came, beside a dense one, and the
    // matrix read back is the dense one it stands for.
    test::Scratch scratch;
    const auto file = makeProject(scratch);
    core::Project p(file);
    core::RunRecord record;
    record.datasetId = 1;
    record.model = "lda-gibbs";
    record.appVersion = "t";
    const auto id = core::createRun(p, record);
    core::FilledSparseMatrix sparse;
    sparse.rows = 2;
    sparse.cols = 200;
    sparse.rowFill = {0.001, 0.002};
    sparse.columnStarts.assign(201, 2);
    sparse.columnStarts[0] = 0;
    sparse.rowIndices = {1, 0};
    sparse.values = {0.5, 0.25};  // both in column 0
    {
      core::RunRecorder recorder(p, id);
      auto snapshot = std::make_shared<core::ModelSnapshot>();
      snapshot->iteration = 50;
      snapshot->matrices.push_back({"doc_topic", Eigen::MatrixXd::Constant(2, 3, 0.25)});
      snapshot->sparseMatrices.push_back({"topic_word", sparse});
      recorder.onSnapshot(snapshot);
    }
    QCOMPARE(p.db().queryInteger("SELECT count(*) FROM run_matrices WHERE element = 'sparse' AND name = 'topic_word' "
                                 "AND iteration = 50"),
             std::int64_t{1});
    const auto topics = core::loadMatrix(p, id, "topic_word", 50);
    QVERIFY(topics.has_value());
    QCOMPARE(*topics, sparse.toDense());
    QCOMPARE((*topics)(1, 0), 0.5);
    QCOMPARE((*topics)(1, 1), 0.002);
    QCOMPARE(core::loadMatrix(p, id, "doc_topic", 50)->sum(), 1.5);
  }

  void jobRunnerStopsPromptly() {
    core::JobRunner runner;
    std::atomic<bool> started{false}, finished{false};
    const auto id = runner.start([&](std::stop_token stop) {
      started = true;
      while (!stop.stop_requested()) std::this_thread::sleep_for(5ms);
      finished = true;
    });
    QTRY_VERIFY_WITH_TIMEOUT(started.load(), 5000);
    QCOMPARE(runner.activeCount(), std::size_t{1});
    const auto t0 = std::chrono::steady_clock::now();
    runner.requestStop(id);
    QTRY_VERIFY_WITH_TIMEOUT(finished.load(), 1000);
    QVERIFY(std::chrono::steady_clock::now() - t0 < 1000ms);  // the worker polls every 5 ms
    QTRY_COMPARE_WITH_TIMEOUT(runner.activeCount(), std::size_t{0}, 1000);
  }

  void jobRunnerRunsSeveralAtOnceAndStopsAllOnDestruction() {
    std::atomic<int> running{0}, done{0};
    {
      core::JobRunner runner;
      for (int i = 0; i < 3; ++i)
        runner.start([&](std::stop_token stop) {
          ++running;
          while (!stop.stop_requested()) std::this_thread::sleep_for(5ms);
          ++done;
        });
      QTRY_COMPARE_WITH_TIMEOUT(running.load(), 3, 5000);
    }  // the destructor requests stop and joins
    QCOMPARE(done.load(), 3);
  }

  void fitInBackgroundThroughTheRunner() {
    test::Scratch scratch;
    const auto file = makeProject(scratch);
    core::JobRunner runner;
    std::atomic<bool> ok{false};
    runner.start([&](std::stop_token stop) {
      core::RunRequest r;
      r.model = "unigram";
      r.dataset = "toy";
      ok = core::runFit(file, r, nullptr, stop).run.status == core::RunStatus::Finished;
    });
    runner.waitAll();
    QVERIFY(ok.load());
  }
};

LATENT_TEST_CASE(JobRuntimeTest)
#include "tst_job_runtime.moc"
