// SPDX-License-Identifier: GPL-3.0-or-later
// Several relations through the command line (DESIGN §6): `import graph --relation-column relation
// --where wave=T4` stores Sampson's eight relations, `datasets` names them, `fit irm-multi` fits
// them all with a node feature and reports its blocks, NMI and ARI against group and its held-out
// scores, and the run exports every relation's block matrix and the feature clusters.
#include <QtTest>

#include <fstream>
#include <string>

#include "cli_runner.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;
using test::runCli;
using test::str;

namespace {

std::vector<std::string> mirmCliLines(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace

class CliIrmMultiTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void sampsonRelations() {
    test::Scratch scratch;
    const auto project = scratch.path("p.latent");
    const auto imported =
        runCli({"import", "graph", "--project", str(project), "--name", "sampson8", "--source",
                str(test::sample("sampson/edges.csv")), "--nodes", str(test::sample("sampson/nodes.csv")), "--directed",
                "--relation-column", "relation", "--where", "wave=T4"});
    QCOMPARE(imported.exitCode, 0);
    QVERIFY2(imported.out.contains("8 relations over the same nodes"), qPrintable(imported.out));
    QVERIFY2(!imported.out.contains("ignored"), qPrintable(imported.out));
    const auto listed = runCli({"datasets", "--project", str(project)});
    QVERIFY2(listed.out.contains("relations: like, dislike, esteem, disesteem, influence, negative_influence, "
                                 "praise, blame"),
             qPrintable(listed.out));

    const auto fit = runCli({"fit", "irm-multi", "--project", str(project), "--dataset", "sampson8", "--iterations",
                             "100", "--heldout", "0.1", "--features", "cloisterville", "--json"});
    QCOMPARE(fit.exitCode, 0);
    const auto final = fit.jsonLines().back();
    QCOMPARE(final["relations"].size(), std::size_t{8});
    QCOMPARE(final["label_attribute"].get<std::string>(), std::string("group"));
    QVERIFY(final["k"].get<int>() >= 2);
    QVERIFY(final["nmi"].get<double>() > 0.5);
    QVERIFY(final.contains("ari") && final.contains("heldout_auc") && final.contains("heldout_link_perplexity"));
    const auto run = QString::number(final["run"].get<int>());

    const std::pair<const char*, const char*> exports[] = {
        {"relation-block-matrices", "relation,from_block,to_block,probability"},
        {"feature-blocks", "feature,cluster"},
        {"feature-block-matrix", "block,feature_cluster,probability"},
        {"blocks", "node,name,block"},
        {"block-matrix", "from_block,to_block,probability"}};
    for (const auto& [what, header] : exports) {
      const auto file = scratch.path(std::string(what) + ".csv");
      QCOMPARE(runCli({"export", "--project", str(project), "--run", run, "--what", what, "--out", str(file)}).exitCode,
               0);
      const auto lines = mirmCliLines(file);
      QVERIFY(!lines.empty());
      QCOMPARE(lines.front(), std::string(header));
      if (std::string(what) == "relation-block-matrices") {
        const auto k = static_cast<std::size_t>(final["k"].get<int>());
        QCOMPARE(lines.size(), 1 + 8 * k * k);
        QCOMPARE(lines[1].substr(0, 5), std::string("like,"));
        QCOMPARE(lines.back().substr(0, 6), std::string("blame,"));
      }
      if (std::string(what) == "feature-blocks") QCOMPARE(lines[1], std::string("cloisterville,0"));
    }
    // group is what the blocks are scored against: not a feature.
    const auto refused = runCli(
        {"fit", "irm-multi", "--project", str(project), "--dataset", "sampson8", "--features", "group", "--json"});
    QVERIFY(refused.exitCode != 0);
    QVERIFY2(refused.err.contains("scored against"), qPrintable(refused.err));
  }
};

LATENT_TEST_CASE(CliIrmMultiTest)
#include "tst_cli_irm_multi.moc"
