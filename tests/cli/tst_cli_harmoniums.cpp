// SPDX-License-Identifier: GPL-3.0-or-later
// The harmoniums through the command line: rsm reports the topic models' held-out perplexity and
// rbm its held-out pseudo-log-likelihood (with the exact log-likelihood of a small hidden layer),
// both store the hidden-units family's matrices, export them, and repeat themselves for a seed.
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

std::vector<std::string> csvLines(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace

class CliHarmoniumsTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void replicatedSoftmaxReportsPerplexityAndExports() {
    test::Scratch scratch;
    const auto project = scratch.path("p.latent");
    QCOMPARE(runCli({"import", "sample", "--project", str(project), "--sample", "gibbs-toy"}).exitCode, 0);
    const QStringList fit = {"fit",          "rsm", "--project",    str(project), "--dataset", "gibbs-toy",
                             "--k",          "3",   "--iterations", "6",          "--heldout", "0.25",
                             "--eval-every", "3",   "--seed",       "5",          "--json"};
    const auto r = runCli(fit);
    QCOMPARE(r.exitCode, 0);
    const auto lines = r.jsonLines();
    QCOMPARE(lines.size(), std::size_t{7});  // every epoch, then the final line
    // Held out at every third epoch only.
    for (std::size_t i = 0; i < 6; ++i) QCOMPARE(lines[i].contains("heldout_perplexity"), i == 2 || i == 5);
    const auto& final = lines.back();
    QCOMPARE(final["model"].get<std::string>(), std::string("rsm"));
    QCOMPARE(final["heldout_protocol"].get<std::string>(), std::string("document-completion"));
    // Five words: a perplexity above one, and below what a far-off model would give.
    const double perplexity = final["heldout_perplexity"].get<double>();
    QVERIFY2(perplexity > 1.0 && perplexity < 10.0, qPrintable(QString::number(perplexity)));
    // The same seed gives the same run.
    QCOMPARE(runCli(fit).jsonLines().back()["heldout_perplexity"].get<double>(), perplexity);

    const auto run = std::to_string(final["run"].get<std::int64_t>());
    const auto weights = scratch.path("w.csv"), activations = scratch.path("a.csv");
    QCOMPARE(runCli({"export", "--project", str(project), "--run", QString::fromStdString(run), "--what",
                     "hidden-weights", "--out", str(weights)})
                 .exitCode,
             0);
    // Header, 3 hidden biases, 5 word biases, 3 x 5 weights.
    const auto w = csvLines(weights);
    QCOMPARE(w.front(), std::string("unit,word,weight"));
    QCOMPARE(w.size(), std::size_t{1 + 3 + 5 + 15});
    QCOMPARE(runCli({"export", "--project", str(project), "--run", QString::fromStdString(run), "--what",
                     "hidden-activations", "--out", str(activations)})
                 .exitCode,
             0);
    const auto a = csvLines(activations);
    QCOMPARE(a.front(), std::string("document,unit,activation"));
    QCOMPARE(a.size(), std::size_t{1 + 16 * 3});  // every document, held-out ones included
    for (std::size_t i = 1; i < a.size(); ++i) {
      const double value = std::stod(a[i].substr(a[i].rfind(',') + 1));
      QVERIFY(value > 0.0 && value < 1.0);
    }
  }

  void binaryRbmReportsPseudoLikelihoodAndExactLikelihood() {
    test::Scratch scratch;
    const auto project = scratch.path("p.latent");
    QCOMPARE(runCli({"import", "sample", "--project", str(project), "--sample", "gibbs-toy"}).exitCode, 0);
    const auto r = runCli({"fit", "rbm", "--project", str(project), "--dataset", "gibbs-toy", "--k", "2",
                           "--iterations", "5", "--heldout", "0.25", "--seed", "3", "--json"});
    QCOMPARE(r.exitCode, 0);
    const auto final = r.jsonLines().back();
    QCOMPARE(final["status"].get<std::string>(), std::string("finished"));
    // Five occurrence units: each held-out document's pseudo-log-likelihood sums five
    // conditionals, each below log 1; the exact log-likelihood of a 5-bit vector lies between
    // log 2^-5 spread thin and 0.
    const double pseudo = final["heldout_pseudo_nll"].get<double>();
    QVERIFY2(pseudo > 0.0 && pseudo < 5.0 * std::log(2.0) + 1.0, qPrintable(QString::number(pseudo)));
    const double exact = final["heldout_loglik"].get<double>();
    QVERIFY2(exact < 0.0 && exact > -20.0, qPrintable(QString::number(exact)));
    QVERIFY(final.contains("log_partition"));
  }

  void unknownOptionNamesTheModelsOptions() {
    test::Scratch scratch;
    const auto project = scratch.path("p.latent");
    QCOMPARE(runCli({"import", "sample", "--project", str(project), "--sample", "gibbs-toy"}).exitCode, 0);
    const auto r = runCli({"fit", "rsm", "--project", str(project), "--dataset", "gibbs-toy", "--persistent", "true"});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("persistent"), qPrintable(r.err));
  }
};

LATENT_TEST_CASE(CliHarmoniumsTest)
#include "tst_cli_harmoniums.moc"
