// SPDX-License-Identifier: GPL-3.0-or-later
// latent-cli heldout-split writes the very split that fit scores on: recomputing the unigram
// model's held-out perplexity from the written files gives fit's number.
#include <QtTest>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include "cli_runner.hpp"
#include "core/eval/perplexity.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;
using test::runCli;
using test::str;

namespace {

// LDA-C documents as (word id -> count) maps.
std::vector<std::map<int, int>> readLdac(const std::filesystem::path& file) {
  std::vector<std::map<int, int>> docs;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    int n = 0;
    fields >> n;
    std::map<int, int> doc;
    for (std::string pair; fields >> pair;)
      doc[std::stoi(pair.substr(0, pair.find(':')))] += std::stoi(pair.substr(pair.find(':') + 1));
    docs.push_back(doc);
  }
  return docs;
}

}  // namespace

class CliHeldoutSplitTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void splitFilesReproduceTheFit() {
    test::Scratch scratch;
    const auto project = scratch.path("p.latent");
    QCOMPARE(runCli({"import", "sample", "--project", str(project), "--sample", "gibbs-toy"}).exitCode, 0);
    const auto folder = scratch.path("split");
    auto r = runCli({"heldout-split", "--project", str(project), "--dataset", "gibbs-toy", "--heldout", "0.25",
                     "--seed", "7", "--out", str(folder)});
    QCOMPARE(r.exitCode, 0);
    const auto train = readLdac(folder / "train.ldac");
    const auto observed = readLdac(folder / "observed.ldac");
    const auto scored = readLdac(folder / "scored.ldac");
    QCOMPARE(train.size(), std::size_t{12});
    QCOMPARE(scored.size(), std::size_t{4});
    QCOMPARE(observed.size(), std::size_t{4});
    // Each held-out document of 16 words is cut into 8 observed and 8 scored.
    for (std::size_t d = 0; d < 4; ++d) {
      int a = 0, b = 0;
      for (const auto& [w, c] : observed[d]) a += c;
      for (const auto& [w, c] : scored[d]) b += c;
      QCOMPARE(a, 8);
      QCOMPARE(b, 8);
    }
    // The unigram estimate from train.ldac, scored on scored.ldac, is fit's number.
    std::map<int, double> counts;
    double total = 0;
    for (const auto& doc : train)
      for (const auto& [w, c] : doc) {
        counts[w] += c;
        total += c;
      }
    const double V = 5, beta = 0.3;
    std::vector<double> ll;
    std::vector<std::int64_t> lengths;
    for (const auto& doc : scored) {
      double sum = 0;
      std::int64_t n = 0;
      for (const auto& [w, c] : doc) {
        sum += c * std::log((counts[w] + beta) / (total + V * beta));
        n += c;
      }
      ll.push_back(sum);
      lengths.push_back(n);
    }
    r = runCli({"fit", "unigram", "--project", str(project), "--dataset", "gibbs-toy", "--heldout", "0.25", "--seed",
                "7", "--beta", "0.3", "--json"});
    QCOMPARE(r.exitCode, 0);
    const double fitted = r.jsonLines().at(1)["heldout_perplexity"].get<double>();
    QVERIFY(std::abs(fitted - core::perplexityPerDocument(ll, lengths)) < 1e-9);

    std::ifstream documents(folder / "documents.csv");
    std::string header;
    std::getline(documents, header);
    QCOMPARE(header, std::string("part,row,document,corpus_index"));
  }

  void onlyCorpora() {
    test::Scratch scratch;
    const auto project = scratch.path("p.latent");
    QCOMPARE(runCli({"import", "sample", "--project", str(project), "--sample", "karate"}).exitCode, 0);
    const auto r =
        runCli({"heldout-split", "--project", str(project), "--dataset", "karate", "--out", str(scratch.path("x"))});
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.err.contains("not a corpus"));
  }
};

LATENT_TEST_CASE(CliHeldoutSplitTest)
#include "tst_cli_heldout_split.moc"
