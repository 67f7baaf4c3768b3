// SPDX-License-Identifier: GPL-3.0-or-later
// The binary harmoniums on 0/1 tables through the command line. gb-efh (004's Bayesian harmonium)
// on a table of two planted groups
// of columns: the Langevin fit improves the held-out pseudo-likelihood on its independent-units
// start by far, keeps its
// draws after burn-in, repeats itself for a seed whatever the thread count, exports its weights by
// column name and its activations by row name; maximum likelihood keeps no draws; a table that is
// not 0/1 is refused with one message. The binary RBM fits the same table, with its exact
// log-likelihood (two hidden units), and refuses a table that is not 0/1 alike; it fits a graph
// by its adjacency rows.
#include <QtTest>

#include <cmath>
#include <fstream>
#include <string>

#include "cli_runner.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;
using test::runCli;
using test::str;

namespace {

std::vector<std::string> efhCsvLines(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// `export --what WHAT` of run `run` into `file`, and the file's lines; none when the export failed.
std::vector<std::string> exportedLines(const std::filesystem::path& project, const QString& run, const QString& what,
                                       const std::filesystem::path& file) {
  if (runCli({"export", "--project", str(project), "--run", run, "--what", what, "--out", str(file)}).exitCode != 0)
    return {};
  return efhCsvLines(file);
}

// 120 rows of 12 columns: even rows have columns c0-c5 on and c6-c11 off, odd rows the reverse,
// each cell flipped with probability about 0.1 (a fixed hash, so the file never changes).
void writeTwoGroups(const std::filesystem::path& file) {
  std::ofstream out(file);
  out << "id";
  for (int c = 0; c < 12; ++c) out << ",c" << c;
  out << "\n";
  for (int r = 0; r < 120; ++r) {
    out << "r" << r;
    for (int c = 0; c < 12; ++c) {
      const bool kept = (r * 7919 + c * 104729 + r * c * 31) % 100 < 90;
      const bool inGroup = (c < 6) == (r % 2 == 0);
      out << ',' << (kept == inGroup ? 1 : 0);
    }
    out << "\n";
  }
}

// Imports the table above as dataset "groups"; the import's exit status.
int importTwoGroups(const test::Scratch& scratch, const std::filesystem::path& project) {
  const auto csv = scratch.path("groups.csv");
  writeTwoGroups(csv);
  return runCli({"import", "table", "--project", str(project), "--name", "groups", "--source", str(csv), "--id-column",
                 "id"})
      .exitCode;
}

// A step five times the default, which suits 004's nearly all-ones data (where 0.1 diverges).
QStringList efhFit(const std::filesystem::path& project, const QString& threads) {
  return {"fit",       "gb-efh", "--project",       str(project),   "--dataset", "groups",
          "--k",       "2",      "--iterations",    "150",          "--burn_in", "50",
          "--heldout", "0.2",    "--learning_rate", "0.1",          "--seed",    "2",
          "--threads", threads,  "--json",          "--eval-every", "1"};
}

}  // namespace

class CliBinaryTablesTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void langevinFitsPlantedGroupsAndExports() {
    test::Scratch scratch;
    const auto project = scratch.path("p.latent");
    QCOMPARE(importTwoGroups(scratch, project), 0);
    const auto r = runCli(efhFit(project, "1"));
    QCOMPARE(r.exitCode, 0);
    const auto lines = r.jsonLines();
    QCOMPARE(lines.size(), std::size_t{151});
    const auto& final = lines.back();
    QCOMPARE(final["model"].get<std::string>(), std::string("gb-efh"));
    QCOMPARE(final["inference"].get<std::string>(), std::string("langevin"));
    QCOMPARE(final["posterior_draws"].get<std::int64_t>(), std::int64_t{100});
    QCOMPARE(final["heldout_rows"].get<std::int64_t>(), std::int64_t{24});
    // The start (weights near zero) is the independent-units model, about 12 log 2 = 8.3 nats per
    // row; the coupled fit predicts each held-out unit from the others far better (a unit agrees
    // with its group 9 times in 10: about 12 x 0.33 = 3.9 nats at best).
    const double start = lines.front()["heldout_pseudo_nll"].get<double>();
    const double fitted = final["heldout_pseudo_nll"].get<double>();
    QVERIFY2(start > 8.0 && fitted < start - 2.0, qPrintable(QStringLiteral("%1 vs %2").arg(fitted).arg(start)));
    // Determinism for a seed, on one thread or two.
    QCOMPARE(runCli(efhFit(project, "2")).jsonLines().back()["heldout_pseudo_nll"].get<double>(), fitted);

    const auto run = QString::number(final["run"].get<std::int64_t>());
    const auto w = exportedLines(project, run, "hidden-weights", scratch.path("w.csv"));
    QVERIFY(!w.empty());
    QCOMPARE(w.front(), std::string("unit,feature,weight"));
    QCOMPARE(w.size(), std::size_t{1 + 2 + 12 + 24});
    QCOMPARE(w[3].substr(0, 8), std::string("bias,c0,"));
    const auto a = exportedLines(project, run, "hidden-activations", scratch.path("a.csv"));
    QVERIFY(!a.empty());
    QCOMPARE(a.front(), std::string("row,unit,activation"));
    QCOMPARE(a.size(), std::size_t{1 + 120 * 2});
    QCOMPARE(a[1].substr(0, 5), std::string("r0,0,"));
  }

  void maximumLikelihoodKeepsNoDraws() {
    test::Scratch scratch;
    const auto project = scratch.path("p.latent");
    QCOMPARE(runCli({"import", "sample", "--project", str(project), "--sample", "efh-synthetic"}).exitCode, 0);
    const auto r = runCli({"fit", "gb-efh", "--project", str(project), "--dataset", "efh-synthetic", "--k", "2",
                           "--iterations", "20", "--inference", "ml", "--json"});
    QCOMPARE(r.exitCode, 0);
    const auto lines = r.jsonLines();
    const auto& final = lines.back();
    QCOMPARE(final["inference"].get<std::string>(), std::string("maximum likelihood"));
    QVERIFY(!final.contains("posterior_draws"));
  }

  void binaryRbmFitsATable() {
    test::Scratch scratch;
    const auto project = scratch.path("p.latent");
    QCOMPARE(importTwoGroups(scratch, project), 0);
    const auto r = runCli({"fit", "rbm", "--project", str(project), "--dataset", "groups", "--k", "2", "--iterations",
                           "300", "--batch_size", "10", "--heldout", "0.2", "--seed", "2", "--json"});
    QCOMPARE(r.exitCode, 0);
    const auto lines = r.jsonLines();
    const auto& final = lines.back();
    QCOMPARE(final["heldout_rows"].get<std::int64_t>(), std::int64_t{24});
    // Independent fair units would give 12 log 2 = 8.3 nats per row.
    QVERIFY2(final["heldout_pseudo_nll"].get<double>() < 6.0, qPrintable(QString::fromStdString(final.dump())));
    QVERIFY(final["heldout_loglik"].get<double>() < 0.0);
  }

  // A graph is fitted by its adjacency rows, each node a case, held out by nodes; the exports name
  // nodes, and `runs` shows the held-out pseudo-likelihood.
  void binaryRbmFitsAGraphsAdjacencyRows() {
    test::Scratch scratch;
    const auto project = scratch.path("p.latent");
    QCOMPARE(runCli({"import", "sample", "--project", str(project), "--sample", "sampson"}).exitCode, 0);
    const auto r = runCli({"fit", "rbm", "--project", str(project), "--dataset", "sampson", "--k", "2", "--iterations",
                           "20", "--heldout", "0.2", "--json"});
    QCOMPARE(r.exitCode, 0);
    const auto final = r.jsonLines().back();
    QCOMPARE(final["heldout_rows"].get<std::int64_t>() + final["train_rows"].get<std::int64_t>(), std::int64_t{18});
    QVERIFY(final["heldout_rows"].get<std::int64_t>() > 0);
    QVERIFY(final["heldout_pseudo_nll"].get<double>() > 0.0);
    const auto run = QString::number(final["run"].get<std::int64_t>());
    const auto w = exportedLines(project, run, "hidden-weights", scratch.path("w.csv"));
    QVERIFY(!w.empty());
    QCOMPARE(w.front(), std::string("unit,node,weight"));
    QCOMPARE(w.size(), std::size_t{1 + 2 + 18 + 2 * 18});
    const auto a = exportedLines(project, run, "hidden-activations", scratch.path("a.csv"));
    QVERIFY(!a.empty());
    QCOMPARE(a.front(), std::string("node,unit,activation"));
    QCOMPARE(a.size(), std::size_t{1 + 18 * 2});
    QCOMPARE(a[1].substr(0, 13), std::string("John Bosco,0,"));
    const auto runs = runCli({"runs", "--project", str(project)});
    QVERIFY2(runs.out.contains("heldout_pseudo_nll"), qPrintable(runs.out));
  }

  void aTableThatIsNotBinaryIsRefused() {
    test::Scratch scratch;
    const auto project = scratch.path("p.latent");
    const auto csv = scratch.path("t.csv");
    std::ofstream(csv) << "id,a,b\nx,1,0\ny,0.5,1\n";
    QCOMPARE(
        runCli({"import", "table", "--project", str(project), "--name", "t", "--source", str(csv), "--id-column", "id"})
            .exitCode,
        0);
    const auto r = runCli({"fit", "gb-efh", "--project", str(project), "--dataset", "t", "--k", "1"});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("gb-efh models 0/1 data, but column 'a' has 0.5 in row 'y'"), qPrintable(r.err));
    const auto rbm = runCli({"fit", "rbm", "--project", str(project), "--dataset", "t", "--k", "1"});
    QCOMPARE(rbm.exitCode, 2);
    QVERIFY2(rbm.err.contains("rbm models 0/1 data"), qPrintable(rbm.err));
  }
};

LATENT_TEST_CASE(CliBinaryTablesTest)

#include "tst_cli_binary_tables.moc"
