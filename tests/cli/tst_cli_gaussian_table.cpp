// SPDX-License-Identifier: GPL-3.0-or-later
// The Gaussian RBM (rbm-gaussian) on a numeric table through the command line: on two planted
// groups of rows, each shifting its own half of the columns, the fit's held-out log-density beats
// independent Gaussians fitted to the same training rows (computed here from heldout-split's files)
// by far, and the textbook's unit variances do not; a constant column does no harm; the fit repeats itself for a seed
// on one thread or two; the weights export by column name; a model of 0/1 tables refuses it, naming a cell.
#include <QtTest>

#include <cmath>
#include <fstream>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "core/util/random.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;
using test::runCli;
using test::str;

namespace {

// 200 rows of 7 columns: even rows are shifted by +3 in x0-x2, odd rows in x3-x5, on unit
// Gaussian noise around column means 10, 20, ..., 60; x6 is the constant 5.
void writePlantedGroups(const std::filesystem::path& file) {
  core::Rng rng(41);
  std::ofstream out(file);
  out << "id,x0,x1,x2,x3,x4,x5,x6\n";
  for (int r = 0; r < 200; ++r) {
    out << "r" << r;
    for (int c = 0; c < 6; ++c) out << ',' << 10.0 * (c + 1) + ((c < 3) == (r % 2 == 0) ? 3.0 : 0.0) + rng.normal();
    out << ",5\n";
  }
}

// Imports the table above as dataset "groups"; the import's exit status.
int importPlantedGroups(const test::Scratch& scratch, const std::filesystem::path& project) {
  const auto csv = scratch.path("groups.csv");
  writePlantedGroups(csv);
  return runCli({"import", "table", "--project", str(project), "--name", "groups", "--source", str(csv), "--id-column",
                 "id"})
      .exitCode;
}

// The rows of a CSV written by heldout-split (header skipped, first column the row name).
std::vector<std::vector<double>> readRows(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::vector<std::vector<double>> rows;
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    std::stringstream fields(line);
    std::string field;
    std::getline(fields, field, ',');
    std::vector<double> row;
    while (std::getline(fields, field, ',')) row.push_back(std::stod(field));
    rows.push_back(row);
  }
  return rows;
}

// The mean log-density of `cases` under independent Gaussians fitted to `train`, the constant
// column left out (a density has no finite value there; the RBM gives it its least variance).
double independentGaussians(const std::vector<std::vector<double>>& train,
                            const std::vector<std::vector<double>>& cases) {
  double total = 0.0;
  for (std::size_t c = 0; c < 6; ++c) {
    double mean = 0.0, var = 0.0;
    for (const auto& row : train) mean += row[c];
    mean /= static_cast<double>(train.size());
    for (const auto& row : train) var += (row[c] - mean) * (row[c] - mean);
    var /= static_cast<double>(train.size());
    for (const auto& row : cases)
      total += -0.5 * std::log(2 * std::numbers::pi * var) - 0.5 * (row[c] - mean) * (row[c] - mean) / var;
  }
  return total / static_cast<double>(cases.size());
}

QStringList gaussianFit(const std::filesystem::path& project, const QString& threads) {
  return {"fit", "rbm-gaussian", "--project", str(project), "--dataset", "groups", "--k",          "2",  "--heldout",
          "0.2", "--seed",       "3",         "--threads",  threads,     "--json", "--iterations", "100"};
}

}  // namespace

class CliGaussianTableTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void fitsPlantedGroupsBetterThanIndependentGaussians() {
    test::Scratch scratch;
    const auto project = scratch.path("p.latent");
    QCOMPARE(importPlantedGroups(scratch, project), 0);
    const auto r = runCli(gaussianFit(project, "1"));
    QCOMPARE(r.exitCode, 0);
    const auto final = r.jsonLines().back();
    QCOMPARE(final["model"].get<std::string>(), std::string("rbm-gaussian"));
    QCOMPARE(final["heldout_rows"].get<std::int64_t>(), std::int64_t{40});
    QVERIFY(final["heldout_rmse"].get<double>() < 1.0);
    const double loglik = final["heldout_loglik"].get<double>();
    QVERIFY2(std::isfinite(loglik), qPrintable(QString::fromStdString(final.dump())));

    const auto split = scratch.path("split");
    QCOMPARE(runCli({"heldout-split", "--project", str(project), "--dataset", "groups", "--heldout", "0.2", "--seed",
                     "3", "--out", str(split)})
                 .exitCode,
             0);
    const auto train = readRows(split / "train.csv"), heldout = readRows(split / "heldout.csv");
    QCOMPARE(heldout.size(), std::size_t{40});
    // The groups' shift of 3 sd makes each half of the columns bimodal: independent Gaussians
    // spread over both modes, the RBM's two units say which mode a row is in (about 2.5 nats a row
    // better on these columns).
    const double baseline = independentGaussians(train, heldout);
    QVERIFY2(loglik > baseline + 1.5,
             qPrintable(QStringLiteral("rbm-gaussian %1, independent %2").arg(loglik).arg(baseline)));

    // With the variances fixed to 1 the hidden units can only add spread to standardised columns.
    auto unitVariance = gaussianFit(project, "1");
    unitVariance << "--learn_variance"
                 << "false";
    const double fixed = runCli(unitVariance).jsonLines().back()["heldout_loglik"].get<double>();
    QVERIFY2(fixed < loglik - 1.0, qPrintable(QStringLiteral("unit variances %1, learnt %2").arg(fixed).arg(loglik)));

    // Determinism for a seed, on one thread or two.
    QCOMPARE(runCli(gaussianFit(project, "2")).jsonLines().back()["heldout_loglik"].get<double>(), loglik);

    const auto weights = scratch.path("w.csv");
    const auto run = QString::number(final["run"].get<std::int64_t>());
    QCOMPARE(
        runCli({"export", "--project", str(project), "--run", run, "--what", "hidden-weights", "--out", str(weights)})
            .exitCode,
        0);
    std::ifstream in(weights);
    std::string header, line;
    std::getline(in, header);
    QCOMPARE(header, std::string("unit,feature,weight"));
    int named = 0;
    while (std::getline(in, line))
      if (line.rfind("0,x", 0) == 0) ++named;
    QCOMPARE(named, 7);
  }

  void aBinaryModelRefusesRealValues() {
    test::Scratch scratch;
    const auto project = scratch.path("p.latent");
    QCOMPARE(importPlantedGroups(scratch, project), 0);
    const auto r = runCli({"fit", "rbm", "--project", str(project), "--dataset", "groups", "--k", "2"});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("rbm models 0/1 data, but column 'x0'"), qPrintable(r.err));
  }
};

LATENT_TEST_CASE(CliGaussianTableTest)

#include "tst_cli_gaussian_table.moc"
