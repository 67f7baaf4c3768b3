// SPDX-License-Identifier: GPL-3.0-or-later
// Models with restarts report their starts in a phase of their own (FitPhase): a person
// sees them in the readable output, while `fit --json` keeps DESIGN §6's one line per evaluated
// iteration and the project stores only the kept chain's series.
#include <QtTest>

#include "cli_runner.hpp"
#include "core/store/project.hpp"
#include "core/store/run_store.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;
using test::runCli;
using test::str;

class CliRestartReportsTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void restartsShowInTheReadableOutputOnly() {
    test::Scratch scratch;
    const auto project = scratch.path("p.latent");
    QCOMPARE(runCli({"import", "sample", "--project", str(project), "--sample", "gibbs-toy"}).exitCode, 0);
    const QStringList fit = {
        "fit",          "lda-gibbs", "--project",  str(project), "--dataset",        "gibbs-toy", "--k",          "2",
        "--iterations", "20",        "--restarts", "3",          "--restart-sweeps", "10",        "--eval-every", "5"};

    const auto json = runCli(fit + QStringList{"--json"});
    QCOMPARE(json.exitCode, 0);
    const auto lines = json.jsonLines();
    QCOMPARE(lines.size(), std::size_t(5));  // iterations 5, 10, 15, 20, then the final line
    for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
      QCOMPARE(lines[i]["iteration"].get<std::int64_t>(), std::int64_t(5 * (i + 1)));
      QVERIFY(lines[i]["train_objective"].is_number());
      QVERIFY(!lines[i].contains("restart_sweep"));
    }
    const auto& last = lines.back();
    QCOMPARE(last["iterations"].get<std::int64_t>(), std::int64_t(20));
    QCOMPARE(last["restart_log_joints_per_token"].size(), std::size_t(3));
    QVERIFY(last["restart_chosen"].get<std::int64_t>() >= 1);

    // The stored series is the kept chain's: iterations 5..20, nothing at 0.
    {
      core::Project p(project, core::Project::Access::ReadOnly);
      const auto rows = core::loadMetrics(p, last["run"].get<std::int64_t>());
      QCOMPARE(rows.size(), std::size_t(4));
      QCOMPARE(rows.front().iteration, std::int64_t(5));
    }

    // Readable: each start's progress (every 5th sweep of the 10, in two rounds), then the chain.
    const auto readable = runCli(fit);
    QCOMPARE(readable.exitCode, 0);
    QVERIFY2(readable.out.contains("restarts restart 1 restart_sweep 5 "), qPrintable(readable.out));
    QVERIFY2(readable.out.contains("restarts restart 3 restart_sweep 10 "), qPrintable(readable.out));
    QVERIFY2(readable.out.contains("restart_sweep 20 "), qPrintable(readable.out));  // a finalist's round 2
    QVERIFY(readable.out.contains("iteration 20"));
  }

  // lda-gibbs's warp_start: its sweeps are start-phase reports too.
  void warpStartShowsInTheReadableOutputOnly() {
    test::Scratch scratch;
    const auto project = scratch.path("p.latent");
    QCOMPARE(runCli({"import", "sample", "--project", str(project), "--sample", "gibbs-toy"}).exitCode, 0);
    const QStringList fit = {"fit",          "lda-gibbs", "--project",    str(project), "--dataset",  "gibbs-toy",
                             "--k",          "2",         "--iterations", "10",         "--restarts", "1",
                             "--warp-start", "10",        "--eval-every", "5"};
    const auto json = runCli(fit + QStringList{"--json"});
    QCOMPARE(json.exitCode, 0);
    const auto lines = json.jsonLines();
    QCOMPARE(lines.size(), std::size_t(3));  // iterations 5 and 10, then the final line
    for (std::size_t i = 0; i + 1 < lines.size(); ++i) QVERIFY(!lines[i].contains("warp_start_sweep"));
    QCOMPARE(lines.back()["warp_start_sweeps"].get<std::int64_t>(), std::int64_t(10));
    const auto readable = runCli(fit);
    QCOMPARE(readable.exitCode, 0);
    QVERIFY2(readable.out.contains("warp start restart 1 warp_start_sweep 5 "), qPrintable(readable.out));
    QVERIFY2(readable.out.contains("warp start restart 1 warp_start_sweep 10 "), qPrintable(readable.out));
    QVERIFY(readable.out.contains("iteration 10"));
  }
};

LATENT_TEST_CASE(CliRestartReportsTest)
#include "tst_cli_restart_reports.moc"
