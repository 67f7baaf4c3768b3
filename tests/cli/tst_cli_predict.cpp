// SPDX-License-Identifier: GPL-3.0-or-later
// export blocks / memberships / block-matrix / factors, predict and recommend on runs whose
// matrices are written by hand, so every number printed can be checked by hand.
#include <QtTest>

#include <fstream>

#include "cli_runner.hpp"
#include "core/models/network/block_model_results.hpp"
#include "core/models/ratings/factor_model_results.hpp"
#include "core/store/graph_store.hpp"
#include "core/store/project.hpp"
#include "core/store/ratings_store.hpp"
#include "core/store/run_store.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;
using test::runCli;
using test::str;

namespace {

void writeFile(const std::filesystem::path& path, const std::string& text) { std::ofstream(path) << text; }

std::int64_t finishedRun(core::Project& project, std::int64_t dataset, const std::string& model,
                         const std::vector<core::NamedMatrix>& matrices,
                         nlohmann::json options = nlohmann::json::object()) {
  core::RunRecord run;
  run.datasetId = dataset;
  run.model = model;
  run.options = std::move(options);
  const auto id = core::createRun(project, run);
  for (const auto& m : matrices) core::saveMatrix(project, id, m.name, -1, m.values);
  core::finishRun(project, id, core::RunStatus::Finished, "", 1.0, 1, nlohmann::json::object());
  return id;
}

// Three nodes with ids "a", "b", "c" (names Ann, Bob, Cy) and edges a-b, b-c.
std::int64_t addGraph(core::Project& project) {
  core::Transaction tx(project.db());
  const auto id = project.createDataset("g", core::DataKind::Graph, "memory", "edges", nlohmann::json::object());
  core::Graph g;
  g.nodeIds = {"a", "b", "c"};
  g.nodeNames = {"Ann", "Bob", "Cy"};
  g.edges = {{0, 1, 1.0}, {1, 2, 1.0}};
  core::writeGraph(project, id, g);
  tx.commit();
  return id;
}

// Users "u1", "u2"; items "i1", "i2", "i3" (i3 titled "Third"); u1 rated i1 only.
std::int64_t addRatings(core::Project& project) {
  core::Transaction tx(project.db());
  const auto id = project.createDataset("r", core::DataKind::Ratings, "memory", "csv", nlohmann::json::object());
  core::Ratings r;
  r.userIds = {"u1", "u2"};
  r.itemIds = {"i1", "i2", "i3"};
  r.itemNames = {"i1", "i2", "Third"};
  r.ratings = {{0, 0, 4.0, 0}, {1, 1, 2.0, 0}, {1, 2, 5.0, 0}};
  core::writeRatings(project, id, r);
  tx.commit();
  return id;
}

QStringList rows(const QString& out) { return out.split('\n', Qt::SkipEmptyParts); }

}  // namespace

class CliPredictTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void blockModelExportsAndLinkPredictions() {
    test::Scratch scratch;
    const auto file = scratch.path("p.latent");
    std::int64_t run = 0;
    {
      core::Project project(file);
      const auto dataset = addGraph(project);
      Eigen::MatrixXd m(3, 2), B(2, 2), blocks(3, 1);
      m << 1, 0, 0.5, 0.5, 0, 1;
      B << 0.8, 0.1, 0.1, 0.6;
      blocks << 0, 0, 1;
      run = finishedRun(project, dataset, "sbm",
                        {{core::kMemberships, m}, {core::kBlockMatrix, B}, {core::kBlocks, blocks}});
    }
    const auto r = QString::number(run);
    auto out = runCli({"export", "--project", str(file), "--run", r, "--what", "blocks", "--out", "-"});
    QCOMPARE(out.exitCode, 0);
    QCOMPARE(rows(out.out), (QStringList{"node,name,block", "a,Ann,0", "b,Bob,0", "c,Cy,1"}));
    out = runCli({"export", "--project", str(file), "--run", r, "--what", "memberships", "--out", "-"});
    QCOMPARE(rows(out.out).size(), 1 + 3 * 2);
    QCOMPARE(rows(out.out)[0], QString("node,name,block,weight"));
    QCOMPARE(rows(out.out)[3], QString("b,Bob,0,0.5"));
    out = runCli({"export", "--project", str(file), "--run", r, "--what", "block-matrix", "--out", "-"});
    QCOMPARE(rows(out.out),
             (QStringList{"from_block,to_block,probability", "0,0,0.8", "0,1,0.1", "1,0,0.1", "1,1,0.6"}));

    // P(a -> b) = 0.5 * 0.8 + 0.5 * 0.1 = 0.45; P(a -> c) = 0.1.
    writeFile(scratch.path("pairs.csv"), "source,target\na,b\na,c\n");
    const auto predictions = scratch.path("out.csv");
    out = runCli({"predict", "--project", str(file), "--run", r, "--pairs", str(scratch.path("pairs.csv")), "--out",
                  str(predictions)});
    QCOMPARE(out.exitCode, 0);
    std::ifstream in(predictions);
    std::string header, first, second;
    std::getline(in, header);
    std::getline(in, first);
    std::getline(in, second);
    QCOMPARE(header, std::string("source,target,prediction"));
    QCOMPARE(first, std::string("a,b,0.45"));
    QCOMPARE(second, std::string("a,c,0.1"));

    // A node the run never saw gets the fitted nodes' average membership (0.5, 0.5), and the row
    // is marked: P(a -> zz) = 0.8 * 0.5 + 0.1 * 0.5; P(zz -> yy) = 0.25 * (0.8 + 0.1 + 0.1 + 0.6).
    writeFile(scratch.path("new.csv"), "source,target\na,b\na,zz\nzz,yy\n");
    out =
        runCli({"predict", "--project", str(file), "--run", r, "--pairs", str(scratch.path("new.csv")), "--out", "-"});
    QCOMPARE(out.exitCode, 0);
    QCOMPARE(rows(out.out), (QStringList{"source,target,prediction,unseen", "a,b,0.45,", "a,zz,0.45,target",
                                         "zz,yy,0.4,source+target"}));
    QVERIFY2(out.err.contains("2 pairs name an id the run's dataset does not have"), qPrintable(out.err));
    // A malformed row still fails the command, naming its file and line; a graph run has no factors.
    writeFile(scratch.path("bad.csv"), "source,target\na,b\na\n");
    out = runCli({"predict", "--project", str(file), "--run", r, "--pairs", str(scratch.path("bad.csv")), "--out",
                  str(scratch.path("bad-out.csv"))});
    QCOMPARE(out.exitCode, 2);
    QVERIFY2(out.err.contains("bad.csv:3:"), qPrintable(out.err));
    for (const auto& entry : std::filesystem::directory_iterator(scratch.path("")))
      QVERIFY2(!entry.path().filename().string().starts_with("bad-out.csv"), "a failed predict left a file behind");
    out = runCli({"export", "--project", str(file), "--run", r, "--what", "factors", "--out", "-"});
    QCOMPARE(out.exitCode, 2);
    QVERIFY2(out.err.contains("has no factors to export"), qPrintable(out.err));
  }

  void factorExportPredictionsAndRecommendations() {
    test::Scratch scratch;
    const auto file = scratch.path("p.latent");
    std::int64_t run = 0;
    {
      core::Project project(file);
      const auto dataset = addRatings(project);
      Eigen::MatrixXd users(2, 1), items(3, 1), userBias(2, 1), itemBias(3, 1), mean(1, 1), range(1, 2);
      users << 1.0, -1.0;
      items << 0.5, 1.0, -0.25;
      userBias << 0.2, -0.1;
      itemBias << 0.0, 0.3, 0.1;
      mean << 3.5;
      range << 1.0, 5.0;
      run = finishedRun(project, dataset, "pmf",
                        {{core::kUserFactors, users},
                         {core::kItemFactors, items},
                         {core::kUserBias, userBias},
                         {core::kItemBias, itemBias},
                         {core::kGlobalMean, mean},
                         {core::kRatingRange, range}},
                        {{"lambda", 0.1}});
    }
    const auto r = QString::number(run);
    auto out = runCli({"export", "--project", str(file), "--run", r, "--what", "factors", "--out", "-"});
    QCOMPARE(out.exitCode, 0);
    const auto lines = rows(out.out);
    QCOMPARE(lines[0], QString("side,id,name,factor,value"));
    QCOMPARE(lines[1], QString("global,,,mean,3.5"));
    QVERIFY(lines.contains("user,u1,u1,bias,0.2"));
    QVERIFY(lines.contains("item,i3,Third,0,-0.25"));
    QCOMPARE(lines.size(), 1 + 1 + 2 * 2 + 3 * 2);

    // u1,i2: 3.5 + 0.2 + 0.3 + 1 * 1 = 5 (at the top of the range); u2,i1: 3.5 - 0.1 + 0 - 0.5 = 2.9.
    writeFile(scratch.path("pairs.csv"), "user,item\nu1,i2\nu2,i1\n");
    out = runCli(
        {"predict", "--project", str(file), "--run", r, "--pairs", str(scratch.path("pairs.csv")), "--out", "-"});
    QCOMPARE(out.exitCode, 0);
    QCOMPARE(rows(out.out), (QStringList{"user,item,prediction", "u1,i2,5", "u2,i1,2.9"}));
    // Ids with no training ratings: the global mean plus the known side's bias, marked.
    writeFile(scratch.path("new.csv"), "user,item\nu1,i2\nu1,i9\nu9,i2\nu9,i9\n");
    out =
        runCli({"predict", "--project", str(file), "--run", r, "--pairs", str(scratch.path("new.csv")), "--out", "-"});
    QCOMPARE(out.exitCode, 0);
    QCOMPARE(rows(out.out), (QStringList{"user,item,prediction,unseen", "u1,i2,5,", "u1,i9,3.7,item", "u9,i2,3.8,user",
                                         "u9,i9,3.5,user+item"}));

    // u1 rated i1: i2 (5.0) then i3 (3.5 + 0.2 + 0.1 - 0.25 = 3.55).
    out = runCli({"recommend", "--project", str(file), "--run", r, "--user", "u1", "--top", "5"});
    QCOMPARE(out.exitCode, 0);
    const auto top = rows(out.out);
    QCOMPARE(top.size(), 3);
    QCOMPARE(top[0], QString("rank,item,name,prediction"));
    QCOMPARE(top[1], QString("1,i2,i2,5"));
    QVERIFY2(top[2].startsWith("2,i3,Third,") && std::abs(top[2].section(',', 3).toDouble() - 3.55) < 1e-12,
             qPrintable(top[2]));
    out = runCli({"recommend", "--project", str(file), "--run", r, "--user", "nobody"});
    QCOMPARE(out.exitCode, 2);
    QVERIFY2(out.err.contains("user 'nobody' is not in the dataset"), qPrintable(out.err));

    // A new user who loves i2 and dislikes i3 is folded in: the remaining item is i1.
    writeFile(scratch.path("new.csv"), "item,rating\ni2,5\ni3,1\n");
    out = runCli({"recommend", "--project", str(file), "--run", r, "--ratings", str(scratch.path("new.csv"))});
    QCOMPARE(out.exitCode, 0);
    const auto folded = rows(out.out);
    QCOMPARE(folded.size(), 2);
    QVERIFY2(folded[1].startsWith("1,i1,i1,"), qPrintable(out.out));
    writeFile(scratch.path("bad.csv"), "item,rating\ni2,five\n");
    out = runCli({"recommend", "--project", str(file), "--run", r, "--ratings", str(scratch.path("bad.csv"))});
    QCOMPARE(out.exitCode, 2);
    QVERIFY2(out.err.contains("bad.csv:2:") && out.err.contains("rating 'five' is not a number"), qPrintable(out.err));
  }
};

LATENT_TEST_CASE(CliPredictTest)
#include "tst_cli_predict.moc"
