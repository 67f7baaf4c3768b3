// SPDX-License-Identifier: GPL-3.0-or-later
// Choosing K for a block model from the command line: `sweep sbm` on Zachary's karate club prints
// the held-out link perplexity and ICL of each K, and ICL picks the club's two factions.
#include <QtTest>

#include "cli_runner.hpp"
#include "core/store/project.hpp"
#include "core/store/run_store.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;
using test::runCli;
using test::str;

class CliSweepBlocksTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void iclChoosesTheTwoFactions() {
    test::Scratch scratch;
    const auto file = scratch.path("karate.latent");
    QCOMPARE(runCli({"import", "sample", "--sample", "karate", "--project", str(file)}).exitCode, 0);
    const QStringList sweep = {"sweep", "sbm",     "--project", str(file), "--dataset",          "karate",
                               "--k",   "1,2,3,4", "--heldout", "0.1",     "--degree-corrected", "true"};

    auto out = runCli(sweep + QStringList{"--json"});
    QCOMPARE(out.exitCode, 0);
    const auto lines = out.jsonLines();
    QCOMPARE(lines.size(), std::size_t{5});
    std::vector<double> icl;
    {
      core::Project project(file, core::Project::Access::ReadOnly);
      for (std::size_t i = 0; i < 4; ++i) {
        QCOMPARE(lines[i]["k"].get<int>(), int(i) + 1);
        // The number printed is the run's stored final metric.
        const auto run = core::loadRun(project, lines[i]["run"].get<std::int64_t>());
        QCOMPARE(lines[i]["icl"].get<double>(), run.finalMetrics["icl"].get<double>());
        QVERIFY(lines[i].contains("heldout_link_perplexity"));
        icl.push_back(run.finalMetrics["icl"].get<double>());
      }
    }
    QCOMPARE(lines[4]["best_icl_k"].get<int>(), 2);
    QCOMPARE(static_cast<double>(std::max_element(icl.begin(), icl.end()) - icl.begin()), 1.0);

    // The table has an ICL column and names the winner.
    out = runCli(sweep);
    QCOMPARE(out.exitCode, 0);
    const auto table = out.out.split('\n', Qt::SkipEmptyParts);
    QVERIFY2(table[0].split(' ', Qt::SkipEmptyParts) ==
                 (QStringList{"k", "run", "status", "heldout_link_perplexity", "icl", "seconds"}),
             qPrintable(table[0]));
    QVERIFY2(table.last().startsWith("highest ICL: ") && table.last().endsWith(" at k = 2"), qPrintable(table.last()));
  }
};

LATENT_TEST_CASE(CliSweepBlocksTest)
#include "tst_cli_sweep_blocks.moc"
