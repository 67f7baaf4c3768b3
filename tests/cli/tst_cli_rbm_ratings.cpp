// SPDX-License-Identifier: GPL-3.0-or-later
// rbm-ratings through latent-cli: fit with --json, the ratings split written by heldout-split,
// predict on its held-out pairs (their RMSE is the fit's heldout_rmse), recommend for a known user
// and for a new one folded in, and the users' hidden activations exported.
#include <QtTest>

#include <cmath>
#include <fstream>
#include <sstream>

#include "cli_runner.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;
using test::runCli;
using test::str;

namespace {

QStringList csvRows(const QString& out) { return out.split('\n', Qt::SkipEmptyParts); }

// 120 users in two groups with opposite tastes over 16 items: group (user % 2) gives 5 to the
// items of its parity and 1 to the others, every fourth of those a 4 or a 2; each user rates the
// items with (3 user + 5 item) % 7 not 0 (about six in seven).
std::string plantedRatingsCsv() {
  std::ostringstream out;
  out << "user,item,rating\n";
  for (int u = 0; u < 120; ++u)
    for (int i = 0; i < 16; ++i) {
      if ((3 * u + 5 * i) % 7 == 0) continue;
      const bool loves = u % 2 == i % 2;
      const bool soft = (u + i) % 4 == 0;
      out << "u" << u << ",i" << i << "," << (loves ? (soft ? 4 : 5) : (soft ? 2 : 1)) << "\n";
    }
  return out.str();
}

}  // namespace

class CliRbmRatingsTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void fitPredictAndRecommend() {
    test::Scratch scratch;
    const auto project = scratch.path("p.latent");
    const auto source = scratch.path("ratings.csv");
    std::ofstream(source) << plantedRatingsCsv();
    auto r = runCli({"import", "ratings", "--project", str(project), "--name", "planted", "--source", str(source),
                     "--format", "csv"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));

    r = runCli(
        {"fit",          "rbm-ratings", "--project",    str(project), "--dataset",       "planted", "--k",       "4",
         "--iterations", "30",          "--batch_size", "10",         "--learning_rate", "0.1",     "--heldout", "0.2",
         "--seed",       "3",           "--eval-every", "10",         "--json"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const auto lines = r.jsonLines();
    QCOMPARE(lines.size(), std::size_t{31});  // every epoch (held-out RMSE at 10, 20, 30) and the final line
    QVERIFY(!lines[0].contains("heldout_rmse") && lines[0].contains("train_objective"));
    QVERIFY(lines[9].contains("heldout_rmse"));
    const auto& final = lines.back();
    QCOMPARE(final["model"].get<std::string>(), std::string("rbm-ratings"));
    QCOMPARE(final["k"].get<int>(), 4);
    const double heldout = final["heldout_rmse"].get<double>();
    QVERIFY2(heldout < 0.5 * final["baseline_item_mean_rmse"].get<double>(), final.dump().c_str());
    const auto run = QString::number(final["run"].get<std::int64_t>());

    // The held-out ratings of the same split, predicted one by one: their RMSE is the fit's.
    const auto split = scratch.path("split");
    r = runCli({"heldout-split", "--project", str(project), "--dataset", "planted", "--heldout", "0.2", "--seed", "3",
                "--out", str(split)});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    std::ifstream heldoutFile(split / "heldout.csv");
    std::string line;
    std::getline(heldoutFile, line);
    QCOMPARE(line, std::string("user,item,rating"));
    std::ofstream pairs(scratch.path("pairs.csv"));
    pairs << "user,item\n";
    std::vector<double> actual;
    while (std::getline(heldoutFile, line)) {
      const auto fields = QString::fromStdString(line).split(',');
      pairs << fields[0].toStdString() << "," << fields[1].toStdString() << "\n";
      actual.push_back(fields[2].toDouble());
    }
    pairs.close();
    QCOMPARE(static_cast<std::int64_t>(actual.size()), final["heldout_ratings"].get<std::int64_t>());
    r = runCli(
        {"predict", "--project", str(project), "--run", run, "--pairs", str(scratch.path("pairs.csv")), "--out", "-"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const auto predicted = csvRows(r.out);
    QCOMPARE(predicted.size(), qsizetype(actual.size() + 1));
    QCOMPARE(predicted[0], QString("user,item,prediction"));
    double squares = 0.0;
    for (std::size_t k = 0; k < actual.size(); ++k)
      squares += std::pow(actual[k] - predicted[qsizetype(k + 1)].section(',', 2).toDouble(), 2);
    QVERIFY2(
        std::abs(std::sqrt(squares / double(actual.size())) - heldout) < 1e-12 * heldout,
        qPrintable(QString::number(std::sqrt(squares / double(actual.size()))) + " vs " + QString::number(heldout)));

    // u3 (odd items loved) is recommended odd items; a new user who loves i0 and i2 even ones.
    r = runCli({"recommend", "--project", str(project), "--run", run, "--user", "u3", "--top", "2"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    auto top = csvRows(r.out);
    QCOMPARE(top[0], QString("rank,item,name,prediction"));
    for (qsizetype k = 1; k < top.size(); ++k) {
      const int item = top[k].section(',', 1, 1).mid(1).toInt();
      QVERIFY2(item % 2 == 1, qPrintable(r.out));
    }
    std::ofstream(scratch.path("new.csv")) << "item,rating\ni0,5\ni2,5\ni1,1\n";
    r = runCli({"recommend", "--project", str(project), "--run", run, "--ratings", str(scratch.path("new.csv")),
                "--top", "3"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    top = csvRows(r.out);
    QCOMPARE(top.size(), qsizetype(4));
    for (qsizetype k = 1; k < top.size(); ++k) {
      const int item = top[k].section(',', 1, 1).mid(1).toInt();
      QVERIFY2(item % 2 == 0 && item != 0 && item != 2, qPrintable(r.out));
      QVERIFY2(top[k].section(',', 3).toDouble() > 4.0, qPrintable(r.out));
    }

    // Every user's hidden activations, by user id.
    r = runCli({"export", "--project", str(project), "--run", run, "--what", "hidden-activations", "--out", "-"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const auto activations = csvRows(r.out);
    QCOMPARE(activations.size(), qsizetype(1 + 120 * 4));
    QCOMPARE(activations[0], QString("user,unit,activation"));
    QVERIFY(activations[1].startsWith("u0,0,"));
  }
};

LATENT_TEST_CASE(CliRbmRatingsTest)
#include "tst_cli_rbm_ratings.moc"
