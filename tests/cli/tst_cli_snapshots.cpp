// SPDX-License-Identifier: GPL-3.0-or-later
// A fit killed outright (SIGKILL, no chance to clean up) keeps what it reached: its topic-word
// snapshots are in the project file and `export` writes the latest one, saying so.
#include <QtTest>

#include <signal.h>

#include <chrono>
#include <thread>

#include "cli_runner.hpp"
#include "core/store/project.hpp"
#include "core/store/run_store.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;
using test::runCli;
using test::str;

namespace {

// The highest topic_word snapshot iteration of run 1, -1 when none yet. Read-only opens see the
// writer's committed transactions (WAL).
std::int64_t latestSnapshot(const std::filesystem::path& project) {
  try {
    core::Project p(project, core::Project::Access::ReadOnly);
    std::int64_t latest = -1;
    for (const auto& [name, iteration] : core::listMatrices(p, 1))
      if (name == "topic_word") latest = std::max(latest, iteration);
    return latest;
  } catch (const std::exception&) {
    return -1;  // the run's first transaction is not committed yet
  }
}

}  // namespace

class CliSnapshotsTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void killedRunExportsItsLatestSnapshot() {
    test::Scratch scratch;
    const auto project = scratch.path("p.latent");
    QCOMPARE(runCli({"import", "sample", "--project", str(project), "--sample", "sotu"}).exitCode, 0);
    QProcess fit;
    // Far more iterations than the test waits for; tolerance 0 so it never stops by itself.
    fit.start(QStringLiteral(LATENT_CLI_PATH),
              {"fit", "plsa", "--project", str(project), "--dataset", "sotu", "--k", "5", "--iterations", "100000",
               "--tolerance", "0", "--restarts", "1", "--snapshot-every", "1", "--eval-every", "100000"});
    QVERIFY(fit.waitForStarted());
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (latestSnapshot(project) < 2 && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    QVERIFY2(fit.state() == QProcess::Running, "the fit ended before it could be killed");
    ::kill(static_cast<pid_t>(fit.processId()), SIGKILL);
    QVERIFY(fit.waitForFinished(10000));
    const auto reached = latestSnapshot(project);
    QVERIFY(reached >= 2);

    const auto runs = runCli({"runs", "--project", str(project)});
    QCOMPARE(runs.exitCode, 0);
    // The status column is as wide as its longest word: "interrupted" keeps a space before the seed.
    QVERIFY2(runs.out.contains("interrupted "), qPrintable(runs.out));

    // No final result: the latest snapshot, named on stderr, every topic and word.
    auto r = runCli({"export", "--project", str(project), "--run", "1", "--what", "topic-word", "--out", "-"});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.err.contains(QString("latest snapshot, iteration %1").arg(reached)), qPrintable(r.err));
    const auto rows = r.out.split('\n', Qt::SkipEmptyParts);
    QCOMPARE(rows.size(), 1 + 5 * 13739);
    double topicZero = 0.0;
    for (int i = 1; i <= 13739; ++i) topicZero += rows[i].section(',', -1).toDouble();
    QVERIFY(std::abs(topicZero - 1.0) < 1e-9);

    // An earlier snapshot by its iteration; one that was never taken is a clear error.
    r = runCli(
        {"export", "--project", str(project), "--run", "1", "--what", "topic-word", "--iteration", "1", "--out", "-"});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.err.isEmpty());
    QCOMPARE(r.out.split('\n', Qt::SkipEmptyParts).size(), 1 + 5 * 13739);
    r = runCli({"export", "--project", str(project), "--run", "1", "--what", "topic-word", "--iteration", "99999",
                "--out", "-"});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("no topic_word snapshot at iteration 99999 (it has: 1, 2"), qPrintable(r.err));
    r = runCli(
        {"export", "--project", str(project), "--run", "1", "--what", "metrics", "--iteration", "1", "--out", "-"});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("--iteration applies to the exports of matrices"), qPrintable(r.err));
  }

  void killedLdaGibbsRunKeepsItsSparseSnapshots() {
    // lda-gibbs stores its snapshots sparse (schema 16), one every sweep here, so the kill comes
    // at any point of their writes: the project stays whole and the latest reads as topics.
    test::Scratch scratch;
    const auto project = scratch.path("p.latent");
    QCOMPARE(runCli({"import", "sample", "--project", str(project), "--sample", "sotu"}).exitCode, 0);
    QProcess fit;
    fit.start(QStringLiteral(LATENT_CLI_PATH),
              {"fit", "lda-gibbs", "--project", str(project), "--dataset", "sotu", "--k", "10", "--iterations",
               "100000", "--sampler", "sparse", "--restarts", "1", "--snapshot-every", "1", "--eval-every", "100000"});
    QVERIFY(fit.waitForStarted());
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (latestSnapshot(project) < 3 && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    QVERIFY2(fit.state() == QProcess::Running, "the fit ended before it could be killed");
    ::kill(static_cast<pid_t>(fit.processId()), SIGKILL);
    QVERIFY(fit.waitForFinished(10000));
    const auto reached = latestSnapshot(project);
    QVERIFY(reached >= 3);
    {
      core::Project p(project, core::Project::Access::ReadOnly);
      QCOMPARE(p.db().queryInteger("SELECT count(*) FROM run_matrices WHERE element <> 'sparse'"), std::int64_t{0});
      QVERIFY(p.db().queryInteger("SELECT count(*) FROM run_matrices") >= 1);
    }
    QVERIFY(runCli({"runs", "--project", str(project)}).out.contains("interrupted "));
    const auto r = runCli({"export", "--project", str(project), "--run", "1", "--what", "topic-word", "--out", "-"});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.err.contains(QString("latest snapshot, iteration %1").arg(reached)), qPrintable(r.err));
    const auto rows = r.out.split('\n', Qt::SkipEmptyParts);
    QCOMPARE(rows.size(), 1 + 10 * 13739);
    double topicZero = 0.0;
    for (int i = 1; i <= 13739; ++i) topicZero += rows[i].section(',', -1).toDouble();
    QVERIFY(std::abs(topicZero - 1.0) < 1e-9);
  }
};

LATENT_TEST_CASE(CliSnapshotsTest)
#include "tst_cli_snapshots.moc"
