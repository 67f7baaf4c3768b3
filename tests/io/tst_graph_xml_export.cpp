// SPDX-License-Identifier: GPL-3.0-or-later
// writeGraphXml on its own: ids and names holding XML's special characters, a tab and a control
// character, dataset attributes named like the run's, an undirected weighted graph. GraphML is read
// back by the project's GraphML reader (igraph's), GEXF parsed by Qt's XML reader; results that do
// not cover the nodes are refused.
#include <QFile>
#include <QXmlStreamReader>
#include <QtTest>

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "core/io/graph_import.hpp"
#include "core/io/graph_xml_export.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;

namespace {

core::Graph xmlExportGraph() {
  core::Graph g;
  g.nodeIds = {"a&b", "<c>", "d\"e'", "f"};
  g.nodeNames = {"Ann & Bo", "tab\there", "ctrl\x01x", "Zoë"};
  g.attributeNames = {"block", "weight", "group"};
  g.attributes = {{"x", "y", "z", "w"}, {"1", "2", "3", "4"}, {"g1", "", "g2", "g1"}};
  g.edges = {{0, 1, 1.5}, {0, 3, 2.0}, {1, 2, 1.0}, {2, 3, 0.25}};
  return g;
}

core::GraphNodeResults xmlExportResults() {
  core::GraphNodeResults r;
  r.description = "run 1 (sbm) <test>";
  r.blocks = {0, 0, 1, 1};
  r.memberships.resize(4, 2);
  r.memberships << 0.9, 0.1, 0.75, 0.25, 0.2, 0.8, 1.0 / 3, 2.0 / 3;
  return r;
}

}  // namespace

class GraphXmlExportTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void graphMlReadsBack() {
    test::Scratch scratch;
    const auto file = scratch.path("g.graphml");
    {
      std::ofstream out(file, std::ios::binary);
      core::writeGraphXml(xmlExportGraph(), xmlExportResults(), core::GraphXmlFormat::GraphMl, out);
    }
    const auto read = core::readGraph(file, {}, {});
    const auto original = xmlExportGraph();
    QVERIFY(!read.directed);
    QCOMPARE(read.nodeIds, original.nodeIds);
    QCOMPARE(read.nodeNames[0], std::string("Ann & Bo"));
    QCOMPARE(read.nodeNames[1], std::string("tab\there"));
    QCOMPARE(read.nodeNames[2], std::string("ctrl\xEF\xBF\xBDx"));  // U+FFFD: XML 1.0 cannot hold U+0001
    QCOMPARE(read.nodeNames[3], std::string("Zoë"));
    QCOMPARE(read.edges, original.edges);
    // The dataset's "block" and "weight" keep their values under names that do not collide.
    const auto theirs = read.attributeIndex("block (dataset)");
    const auto weight = read.attributeIndex("weight (dataset)");
    const auto group = read.attributeIndex("group");
    const auto block = read.attributeIndex("block");
    const auto second = read.attributeIndex("block_1");
    QVERIFY(theirs && weight && group && block && second);
    QCOMPARE(read.attributes[*theirs], original.attributes[0]);
    QCOMPARE(read.attributes[*weight], original.attributes[1]);
    QCOMPARE(read.attributes[*group], original.attributes[2]);  // a missing value stays missing
    QCOMPARE(read.attributes[*block], (std::vector<std::string>{"0", "0", "1", "1"}));
    QCOMPARE(std::stod(read.attributes[*second][3]), 2.0 / 3);  // shortest text that reads back exactly
    QVERIFY(!read.attributeIndex("x"));                         // no drawing, no positions
  }

  void gexfIsWellFormed() {
    auto results = xmlExportResults();
    results.positions.resize(4, 2);
    results.positions << -1, -1, 1, 1, 0, 0.5, 0.25, -0.5;
    std::ostringstream out;
    core::writeGraphXml(xmlExportGraph(), results, core::GraphXmlFormat::Gexf, out);
    const QByteArray text = QByteArray::fromStdString(out.str());
    QXmlStreamReader xml(text);
    QStringList ids, labels, titles;
    QString description, edgeType;
    int positions = 0, edges = 0;
    while (!xml.atEnd()) {
      xml.readNext();
      if (!xml.isStartElement()) continue;
      const auto a = xml.attributes();
      if (xml.name() == QLatin1String("node")) ids << a.value("id").toString(), labels << a.value("label").toString();
      if (xml.name() == QLatin1String("attribute")) titles << a.value("title").toString();
      if (xml.name() == QLatin1String("graph")) edgeType = a.value("defaultedgetype").toString();
      if (xml.name() == QLatin1String("description")) description = xml.readElementText();
      if (xml.name() == QLatin1String("position")) {
        ++positions;
        if (ids.size() == 2) QCOMPARE(a.value("y").toDouble(), -500.0);  // GEXF's y points up
      }
      if (xml.name() == QLatin1String("edge")) ++edges;
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QCOMPARE(ids, (QStringList{"a&b", "<c>", "d\"e'", "f"}));
    QCOMPARE(labels[1], QStringLiteral("tab\there"));
    QCOMPARE(description, QStringLiteral("run 1 (sbm) <test>"));
    QCOMPARE(edgeType, QStringLiteral("undirected"));
    QCOMPARE(titles, (QStringList{"block (dataset)", "weight (dataset)", "group", "block", "block_0", "block_1"}));
    QCOMPARE(positions, 4);
    QCOMPARE(edges, 4);
  }

  void resultsMustCoverTheNodes() {
    auto results = xmlExportResults();
    results.blocks.pop_back();
    std::ostringstream out;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             core::writeGraphXml(xmlExportGraph(), results, core::GraphXmlFormat::GraphMl, out));
    results = xmlExportResults();
    results.memberships.conservativeResize(3, 2);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             core::writeGraphXml(xmlExportGraph(), results, core::GraphXmlFormat::Gexf, out));
  }
};

LATENT_TEST_CASE(GraphXmlExportTest)
#include "tst_graph_xml_export.moc"
