// SPDX-License-Identifier: GPL-3.0-or-later
// A block model's graph as GraphML and GEXF from the command line (DESIGN §6 `export --what
// gexf|graphml`): the GraphML file is imported back by the project's own GraphML importer (igraph's
// reader) and must give the same nodes, names, edges, weights, direction and dataset attribute, with
// each node's block and memberships as the run stored them; the GEXF file is parsed and its
// declarations, nodes, attribute values, positions and edges checked. Node names hold XML's special
// characters and non-ASCII letters.
#include <QFile>
#include <QXmlStreamReader>
#include <QtTest>

#include <cmath>
#include <map>
#include <string>

#include "cli_runner.hpp"
#include "core/results/block_results.hpp"
#include "core/store/graph_store.hpp"
#include "core/store/project.hpp"
#include "core/store/run_results.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;
using test::runCli;
using test::str;

namespace {

constexpr int kNetworkExportNodes = 12;

// Two groups of six, every ordered pair inside a group linked (weight 1 + (i + j) % 3), and one
// arc across; node 1 and node 2 have names an XML writer must escape.
void writeNetworkExportInput(const test::Scratch& scratch) {
  std::string nodes = "id,name,group\n";
  for (int i = 1; i <= kNetworkExportNodes; ++i) {
    std::string name = "n" + std::to_string(i);
    if (i == 1) name = "\"Ann <\"\"&\"\"> O'Neil\"";
    if (i == 2) name = "Zoë & Åsa";
    nodes += std::to_string(i) + "," + name + "," + (i <= 6 ? "left" : "right") + "\n";
  }
  scratch.write("nodes.csv", nodes);
  std::string edges = "source,target,weight\n";
  for (int i = 1; i <= kNetworkExportNodes; ++i)
    for (int j = 1; j <= kNetworkExportNodes; ++j)
      if (i != j && (i <= 6) == (j <= 6))
        edges += std::to_string(i) + "," + std::to_string(j) + "," + std::to_string(1 + (i + j) % 3) + "\n";
  edges += "1,7,2\n";
  scratch.write("edges.csv", edges);
}

}  // namespace

class CliNetworkExportTest : public QObject {
  Q_OBJECT

  std::unique_ptr<test::Scratch> m_scratch;
  std::filesystem::path m_project;
  QString m_run;

 private Q_SLOTS:
  void initTestCase() {
    m_scratch = std::make_unique<test::Scratch>();
    writeNetworkExportInput(*m_scratch);
    m_project = m_scratch->path("p.latent");
    const auto imported =
        runCli({"import", "graph", "--project", str(m_project), "--name", "two", "--source",
                str(m_scratch->path("edges.csv")), "--nodes", str(m_scratch->path("nodes.csv")), "--directed"});
    QVERIFY2(imported.exitCode == 0, qPrintable(imported.err));
    const auto fit = runCli({"fit", "mmsb", "--project", str(m_project), "--dataset", "two", "--k", "2", "--iterations",
                             "40", "--seed", "3", "--json"});
    QVERIFY2(fit.exitCode == 0, qPrintable(fit.err));
    m_run = QString::number(fit.jsonLines().back()["run"].get<int>());
  }

  void graphMlImportsBackWithTheBlocks() {
    const auto file = m_scratch->path("two.graphml");
    const auto exported =
        runCli({"export", "--project", str(m_project), "--run", m_run, "--what", "graphml", "--out", str(file)});
    QVERIFY2(exported.exitCode == 0, qPrintable(exported.err));
    const auto back = runCli({"import", "graph", "--project", str(m_project), "--name", "back", "--source", str(file)});
    QVERIFY2(back.exitCode == 0, qPrintable(back.err + back.out));

    core::Project project(m_project, core::Project::Access::ReadOnly);
    const auto original = core::loadGraph(project, project.resolveDataset("two").id);
    const auto read = core::loadGraph(project, project.resolveDataset("back").id);
    QVERIFY(read.directed);
    QCOMPARE(read.nodeIds, original.nodeIds);
    QCOMPARE(read.nodeNames, original.nodeNames);
    QCOMPARE(read.nodeNames[0], std::string("Ann <\"&\"> O'Neil"));
    QCOMPARE(read.edges, original.edges);  // sources, targets and weights
    QCOMPARE(read.edgeCount(), std::size_t{61});

    const auto result = core::loadResult(project, m_run.toLongLong(), {core::kMemberships}, {core::kBlocks});
    QVERIFY(result);
    const Eigen::MatrixXd& theta = *result->find(core::kMemberships);
    const Eigen::MatrixXd* blocks = result->find(core::kBlocks);
    QVERIFY(blocks);
    const auto group = read.attributeIndex("group");
    const auto block = read.attributeIndex("block");
    const auto weight0 = read.attributeIndex("block_0");
    const auto weight1 = read.attributeIndex("block_1");
    QVERIFY(group && block && weight0 && weight1);
    QVERIFY(read.attributeIndex("x") && read.attributeIndex("y"));
    for (std::size_t v = 0; v < read.nodeCount(); ++v) {
      const auto row = static_cast<Eigen::Index>(v);
      QCOMPARE(read.attributes[*group][v], original.attributes[0][v]);
      QCOMPARE(read.attributes[*block][v], std::to_string(static_cast<int>((*blocks)(row, 0))));
      QVERIFY(std::abs(std::stod(read.attributes[*weight0][v]) - theta(row, 0)) < 1e-9);
      QVERIFY(std::abs(std::stod(read.attributes[*weight1][v]) - theta(row, 1)) < 1e-9);
    }
    // The planted groups are the blocks found.
    for (std::size_t v = 1; v < read.nodeCount(); ++v)
      QCOMPARE(read.attributes[*block][v] == read.attributes[*block][0], (v < 6));
  }

  void gexfDeclaresAndFillsTheBlockAttributes() {
    const auto file = m_scratch->path("two.gexf");
    const auto exported =
        runCli({"export", "--project", str(m_project), "--run", m_run, "--what", "gexf", "--out", str(file)});
    QVERIFY2(exported.exitCode == 0, qPrintable(exported.err));
    QFile in(str(file));
    QVERIFY(in.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&in);
    std::map<QString, QString> titles;  // attribute id -> title
    std::vector<std::map<QString, QString>> values;
    QStringList ids, labels;
    int positions = 0, edges = 0;
    double weightSum = 0.0;
    QString edgeType, rootVersion;
    while (!xml.atEnd()) {
      xml.readNext();
      if (!xml.isStartElement()) continue;
      const auto name = xml.name().toString();
      const auto a = xml.attributes();
      if (name == QLatin1String("gexf")) {
        rootVersion = a.value("version").toString();
        QCOMPARE(xml.namespaceUri().toString(), QStringLiteral("http://www.gexf.net/1.2draft"));
      } else if (name == QLatin1String("graph")) {
        edgeType = a.value("defaultedgetype").toString();
      } else if (name == QLatin1String("attribute")) {
        titles[a.value("id").toString()] = a.value("title").toString();
      } else if (name == QLatin1String("node")) {
        ids << a.value("id").toString();
        labels << a.value("label").toString();
        values.emplace_back();
      } else if (name == QLatin1String("attvalue")) {
        values.back()[titles.at(a.value("for").toString())] = a.value("value").toString();
      } else if (name == QLatin1String("position")) {
        QCOMPARE(xml.namespaceUri().toString(), QStringLiteral("http://www.gexf.net/1.2draft/viz"));
        ++positions;
      } else if (name == QLatin1String("edge")) {
        ++edges;
        weightSum += a.value("weight").toDouble();
        QVERIFY(ids.contains(a.value("source").toString()) && ids.contains(a.value("target").toString()));
      }
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QCOMPARE(rootVersion, QStringLiteral("1.2"));
    QCOMPARE(edgeType, QStringLiteral("directed"));
    QCOMPARE(ids.size(), kNetworkExportNodes);
    QCOMPARE(labels[0], QStringLiteral("Ann <\"&\"> O'Neil"));
    QCOMPARE(labels[1], QString::fromUtf8("Zoë & Åsa"));
    QCOMPARE(positions, kNetworkExportNodes);
    QCOMPARE(edges, 61);
    double expectedWeight = 2.0;  // the arc across
    for (int i = 1; i <= kNetworkExportNodes; ++i)
      for (int j = 1; j <= kNetworkExportNodes; ++j)
        if (i != j && (i <= 6) == (j <= 6)) expectedWeight += 1 + (i + j) % 3;
    QCOMPARE(weightSum, expectedWeight);

    core::Project project(m_project, core::Project::Access::ReadOnly);
    const auto result = core::loadResult(project, m_run.toLongLong(), {core::kMemberships}, {core::kBlocks});
    const Eigen::MatrixXd& theta = *result->find(core::kMemberships);
    const Eigen::MatrixXd& blocks = *result->find(core::kBlocks);
    for (int v = 0; v < kNetworkExportNodes; ++v) {
      QCOMPARE(values[v].at("group"), QString(v < 6 ? "left" : "right"));
      QCOMPARE(values[v].at("block").toInt(), static_cast<int>(blocks(v, 0)));
      QVERIFY(std::abs(values[v].at("block_1").toDouble() - theta(v, 1)) < 1e-9);
    }
  }

  void onlyRunsWithBlocksExportANetwork() {
    const auto fit = runCli(
        {"fit", "rbm", "--project", str(m_project), "--dataset", "two", "--k", "2", "--iterations", "2", "--json"});
    QVERIFY2(fit.exitCode == 0, qPrintable(fit.err));
    const auto run = QString::number(fit.jsonLines().back()["run"].get<int>());
    const auto refused = runCli({"export", "--project", str(m_project), "--run", run, "--what", "gexf", "--out",
                                 str(m_scratch->path("none.gexf"))});
    QVERIFY(refused.exitCode != 0);
    QVERIFY2(refused.err.contains("has no gexf to export"), qPrintable(refused.err));
  }
};

LATENT_TEST_CASE(CliNetworkExportTest)
#include "tst_cli_network_export.moc"
