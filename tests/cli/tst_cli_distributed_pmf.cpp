// SPDX-License-Identifier: GPL-3.0-or-later
// latent-cli fit pmf --distributed under mpirun (issue 22): the ALS fit of N processes is the
// one-process fit bit for bit (every final metric, the factors and biases, the snapshots), with
// and without implicit feedback; process 0 alone writes the run; a process that dies leaves a
// failed run with its last snapshot; the SGD solver is refused; without mpirun the flag changes
// nothing. Built only where CMake finds MPI.
#include <QProcess>
#include <QProcessEnvironment>
#include <QtTest>

#include "cli_runner.hpp"
#include "core/models/ratings/pmf_synthetic.hpp"
#include "core/results/factor_results.hpp"
#include "core/store/project.hpp"
#include "core/store/ratings_store.hpp"
#include "core/store/run_store.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;
using test::runCli;
using test::str;

namespace {
// 6,000 ratings from a planted rank-3 model of 300 users and 120 items.
std::filesystem::path pmfProject(test::Scratch& scratch) {
  core::pmf::SyntheticRatingsSpec spec;
  spec.users = 300;
  spec.items = 120;
  spec.ratings = 6000;
  spec.factors = 3;
  const auto file = scratch.path("distributed_pmf.latent");
  core::Project project(file, core::Project::Access::ReadWrite);
  core::Transaction tx(project.db());
  const auto id = project.createDataset("planted", core::DataKind::Ratings, "memory", "csv", nlohmann::json::object());
  core::writeRatings(project, id, core::pmf::generateLowRankRatings(spec, 7).ratings);
  tx.commit();
  return file;
}

QStringList pmfArguments(const std::filesystem::path& project, const QStringList& more) {
  return QStringList{"fit", "pmf",       "--project", str(project),   "--dataset", "planted",  "--k", "4",     "--seed",
                     "5",   "--heldout", "0.1",       "--iterations", "12",        "--lambda", "2",   "--json"} +
         more;
}

nlohmann::json lastLine(const test::CliResult& result) {
  const auto lines = result.jsonLines();
  return lines.empty() ? nlohmann::json() : lines.back();
}

}  // namespace

class CliDistributedPmfTest : public QObject {
  Q_OBJECT

  // N processes against one: every final metric but the run's id, its time and the distributed
  // ones to the last bit, every result matrix and the snapshot of sweep 5 equal; one run row.
  void compareWithOneProcess(int processes, bool implicit) {
    test::Scratch scratch;
    const auto project = pmfProject(scratch);
    const QStringList more{"--implicit", implicit ? "true" : "false", "--snapshot-every", "5", "--threads", "1"};
    const auto single = runCli(pmfArguments(project, more));
    QCOMPARE(single.exitCode, 0);
    const auto spread = test::runMpi(processes, pmfArguments(project, more + QStringList{"--distributed"}));
    QVERIFY2(spread.exitCode == 0, qPrintable(spread.err));
    auto a = lastLine(single), b = lastLine(spread);
    QCOMPARE(b["status"].get<std::string>(), std::string("finished"));
    QCOMPARE(b["processes"].get<std::int64_t>(), std::int64_t(processes));
    QCOMPARE(b["implicit"].get<bool>(), implicit);
    // Each process sends its share of (U + I) rows of K floats and a bias, plus the stop flags.
    const double bytes = b["communicated_bytes_per_sweep"].get<double>();
    QVERIFY2(bytes > 0.5 * (300 + 120) * 5 * 4 / processes && bytes < 2.0 * (300 + 120) * 5 * 4 / processes,
             qPrintable(QString::number(bytes)));
    QVERIFY(a["heldout_rmse"].get<double>() < 0.9 * a["baseline_bias_rmse"].get<double>());  // a real fit
    // Process 0 sent the ratings once (24 bytes each, and the ids), whatever the number of processes.
    const auto sent = b["dataset_sent_bytes"].get<std::int64_t>();
    QVERIFY2(sent > 5000 * 24 && sent < 6000 * 24 + 20000, qPrintable(QString::number(sent)));
    QVERIFY(!a.contains("dataset_sent_bytes"));
    for (const char* key :
         {"run", "seconds", "seconds_per_iteration", "solver_seconds", "solver_cpu_seconds", "processes",
          "communicated_bytes_per_sweep", "dataset_sent_bytes", "distributed_start_seconds"}) {
      a.erase(key);
      b.erase(key);
    }
    QVERIFY2(a == b, qPrintable(QString::fromStdString(a.dump() + "\n" + b.dump())));
    // One --json stream: process 0's (an evaluation line every 10 sweeps, then the final line).
    QCOMPARE(spread.jsonLines().size(), single.jsonLines().size());

    core::Project p(project, core::Project::Access::ReadOnly);
    QCOMPARE(core::listRuns(p).size(), std::size_t(2));
    const auto one = lastLine(single)["run"].get<std::int64_t>(), many = lastLine(spread)["run"].get<std::int64_t>();
    QCOMPARE(core::loadRun(p, many).status, core::RunStatus::Finished);
    for (const char* name : {core::kUserFactors, core::kItemFactors, core::kUserBias, core::kItemBias}) {
      const auto x = core::loadMatrix(p, one, name), y = core::loadMatrix(p, many, name);
      QVERIFY2(x && y, name);
      QVERIFY2(*x == *y, name);
      const auto sx = core::loadMatrix(p, one, name, 5), sy = core::loadMatrix(p, many, name, 5);
      QVERIFY2(sx && sy, name);  // the snapshots, too
      QVERIFY2(*sx == *sy, name);
    }
    const auto y = core::loadMatrix(p, many, core::kItemImplicit);
    QCOMPARE(y.has_value(), implicit);
    if (implicit) QVERIFY(*y == *core::loadMatrix(p, one, core::kItemImplicit));
  }

 private Q_SLOTS:
  void twoProcessesAreTheOneProcessFit() { compareWithOneProcess(2, false); }
  void fourProcessesAreTheOneProcessFit() { compareWithOneProcess(4, false); }
  void twoProcessesWithImplicitFeedback() { compareWithOneProcess(2, true); }
  void fourProcessesWithImplicitFeedback() { compareWithOneProcess(4, true); }

  // Process 1 aborts after 7 sweeps (the test hook): the run is failed (not left running) with
  // the snapshot of sweep 5 kept, and the project takes the next fit.
  void aLostProcessFailsTheRunAndKeepsItsLastSnapshot() {
    test::Scratch scratch;
    const auto project = pmfProject(scratch);
    const auto spread =
        test::runMpi(2, pmfArguments(project, {"--distributed", "--snapshot-every", "5"}), QStringLiteral("1:7"));
    QVERIFY(spread.exitCode != 0);
    {
      core::Project p(project, core::Project::Access::ReadOnly);
      const auto runs = core::listRuns(p);
      QCOMPARE(runs.size(), std::size_t(1));
      QVERIFY2(runs[0].status == core::RunStatus::Failed, core::statusName(runs[0].status));
      QVERIFY(core::loadMatrix(p, runs[0].id, core::kItemFactors, 5).has_value());
      QVERIFY(!core::loadMatrix(p, runs[0].id, core::kItemFactors, 10).has_value());
    }
    const auto next = runCli(pmfArguments(project, {}));
    QCOMPARE(next.exitCode, 0);
  }

  // The other processes never open the project: with it only in process 0's directory, the fit
  // is still the one-process fit (process 0 sends the others its ratings).
  void onlyProcessZeroNeedsTheProject() {
    test::Scratch scratch;
    const auto project = pmfProject(scratch);
    const auto elsewhere = scratch.path("elsewhere");
    std::filesystem::create_directories(elsewhere);
    const QStringList more{"--implicit", "false", "--threads", "1"};
    const auto single = runCli(pmfArguments(project, more));
    QCOMPARE(single.exitCode, 0);
    const auto relative = pmfArguments(project.filename(), more + QStringList{"--distributed"});
    const auto apart =
        test::runMpiContexts({{1, str(project.parent_path()), {}, relative}, {1, str(elsewhere), {}, relative}});
    QVERIFY2(apart.exitCode == 0, qPrintable(apart.err));
    QCOMPARE(lastLine(apart)["processes"].get<std::int64_t>(), std::int64_t(2));
    for (const char* key : {"heldout_rmse", "train_objective"})
      QVERIFY2(lastLine(single)[key] == lastLine(apart)[key], key);
  }

  // Without mpirun, --distributed is a group of one: the very run without it.
  void oneProcessIsANormalRun() {
    test::Scratch scratch;
    const auto project = pmfProject(scratch);
    const auto plain = runCli(pmfArguments(project, {}));
    const auto alone = runCli(pmfArguments(project, {"--distributed"}));
    QCOMPARE(plain.exitCode, 0);
    QCOMPARE(alone.exitCode, 0);
    QVERIFY(lastLine(plain)["heldout_rmse"] == lastLine(alone)["heldout_rmse"]);
    QVERIFY(lastLine(plain)["train_objective"] == lastLine(alone)["train_objective"]);
    QVERIFY(!lastLine(alone).contains("processes"));
  }

  // SGD does not run distributed: a usage error (exit 2) before a run is written.
  void refusesTheSgdSolver() {
    test::Scratch scratch;
    const auto project = pmfProject(scratch);
    const auto sgd = test::runMpi(2, pmfArguments(project, {"--distributed", "--solver", "sgd"}));
    QCOMPARE(sgd.exitCode, 2);
    QVERIFY2(sgd.err.contains("ALS"), qPrintable(sgd.err));
    core::Project p(project, core::Project::Access::ReadOnly);
    QVERIFY(core::listRuns(p).empty());
  }
};

LATENT_TEST_CASE(CliDistributedPmfTest)
#include "tst_cli_distributed_pmf.moc"
