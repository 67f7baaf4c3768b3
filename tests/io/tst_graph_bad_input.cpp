// SPDX-License-Identifier: GPL-3.0-or-later
// Graph import from bad files in every format and the nodes file; self-loops and repeated edges kept out.
#include <QtTest>
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <stop_token>

#include "core/io/graph_import.hpp"
#include "core/io/graph_reading.hpp"
#include "core/util/errors.hpp"
#include "core/util/input_file.hpp"
#include "graph_test_helpers.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;
using core::GraphFormat;
using test::hasNote;

class GraphBadInputTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void refused_data() {
    QTest::addColumn<int>("index");
    const auto& cases = test::badGraphCases();
    for (std::size_t i = 0; i < cases.size(); ++i) QTest::newRow(cases[i].name.c_str()) << int(i);
  }
  // Each bad file is an InputError naming the right file and line, with the reason's key phrase.
  void refused() {
    QFETCH(int, index);
    const auto& k = test::badGraphCases()[static_cast<std::size_t>(index)];
    test::Scratch scratch;
    core::GraphReadOptions options;
    std::filesystem::path nodes;
    const auto path = test::writeBadCase(scratch, k, options, nodes);
    try {
      const auto g = core::readGraph(path, options, core::ImportControl{});
      QFAIL(("expected an InputError, got a graph of " + std::to_string(g.edgeCount()) + " edges").c_str());
    } catch (const core::InputError& e) {
      const std::string expectedFile = (k.inNodesFile ? nodes : path).string();
      QCOMPARE(e.file(), expectedFile);
      QVERIFY2(e.line() == k.line, (std::string(e.what()) + " (expected line " + std::to_string(k.line) + ")").c_str());
      QVERIFY2(e.reason().find(k.phrase) != std::string::npos, e.what());
      const std::string prefix = expectedFile + (k.line > 0 ? ":" + std::to_string(k.line) : std::string()) + ": ";
      QVERIFY2(std::string(e.what()).rfind(prefix, 0) == 0, e.what());
      // Messages stay short even when the file held a 10 MB field.
      QVERIFY2(e.reason().size() < 400, e.what());
    }
  }

  void igraphReadEndsAtAStop() {
    // igraph's parsers cannot be interrupted; they read through openUntilStopped, whose file ends
    // at the first read after a stop request, so a parse returns within what stdio had buffered
    // instead of at the end of a large file (issue 21). Counted in bytes, not timed.
    test::Scratch scratch;
    const auto path = scratch.path("big.graphml");
    {
      std::ofstream out(path, std::ios::binary);
      out << std::string(std::size_t{4} << 20, 'x');
    }
    const auto file = core::openInputFile(path);
    std::stop_source stop;
    core::graph_detail::StopAwareRead reading;
    reading.file = file.get();
    reading.stop = stop.get_token();
    const auto cut = core::graph_detail::openUntilStopped(reading);
    std::vector<char> buffer(1000);
    QCOMPARE(std::fread(buffer.data(), 1, buffer.size(), cut.get()), buffer.size());
    QVERIFY(!reading.stopped);
    stop.request_stop();
    std::size_t rest = 0;
    while (const auto got = std::fread(buffer.data(), 1, buffer.size(), cut.get())) rest += got;
    QVERIFY(reading.stopped);
    QVERIFY2(rest < std::size_t{1} << 16, qPrintable(QString::number(rest)));
  }

  void missingFiles() {
    test::Scratch scratch;
    const auto missing = scratch.path("nothing.net");
    for (const auto format : {GraphFormat::Auto, GraphFormat::EdgeList, GraphFormat::Matrix, GraphFormat::Gml,
                              GraphFormat::GraphMl, GraphFormat::Pajek}) {
      core::GraphReadOptions options;
      options.format = format;
      try {
        core::readGraph(missing, options, core::ImportControl{});
        QFAIL("expected an InputError");
      } catch (const core::InputError& e) {
        QCOMPARE(e.file(), missing.string());
        QCOMPARE(e.line(), std::int64_t{0});
        QCOMPARE(e.reason(), std::string("does not exist"));
      }
    }
    core::GraphReadOptions options;
    options.nodes = scratch.path("nodes.csv");
    try {
      core::readGraph(scratch.write("e.csv", "1,2\n"), options, core::ImportControl{});
      QFAIL("expected an InputError");
    } catch (const core::InputError& e) {
      QCOMPARE(e.file(), options.nodes.string());
      QCOMPARE(e.reason(), std::string("does not exist"));
    }
  }

  // The same ties in every format: a-b three times (weights 1, 2, 1, the 2 written b->a), b-c
  // twice (1, 3), and self-loops c-c and a-a. Undirected: a-b 4 and b-c 4, 3 merged, 2 loops.
  // Directed: a->b 2, b->a 2, b->c 4, 2 merged, 2 loops.
  void selfLoopsAndDuplicates_data() {
    QTest::addColumn<QString>("fileName");
    QTest::addColumn<QByteArray>("contents");
    QTest::addColumn<int>("forced");  // -1 none, 0 undirected, 1 directed
    QTest::addColumn<bool>("directed");
    const QByteArray edges = "a b 1\nb a 2\na b 1\nb c 1\nc c 1\na a 5\nb c 3\n";
    const QByteArray gml =
        "graph [\n directed 1\n node [ id 1 label \"a\" ]\n node [ id 2 label \"b\" ]\n"
        " node [ id 3 label \"c\" ]\n edge [ source 1 target 2 weight 1 ]\n"
        " edge [ source 2 target 1 weight 2 ]\n edge [ source 1 target 2 weight 1 ]\n"
        " edge [ source 2 target 3 weight 1 ]\n edge [ source 3 target 3 weight 1 ]\n"
        " edge [ source 1 target 1 weight 5 ]\n edge [ source 2 target 3 weight 3 ]\n]\n";
    const QByteArray graphml =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
        "<key id=\"w\" for=\"edge\" attr.name=\"weight\" attr.type=\"double\"/>\n<graph edgedefault=\"directed\">\n"
        "<node id=\"a\"/><node id=\"b\"/><node id=\"c\"/>\n"
        "<edge source=\"a\" target=\"b\"><data key=\"w\">1</data></edge>\n"
        "<edge source=\"b\" target=\"a\"><data key=\"w\">2</data></edge>\n"
        "<edge source=\"a\" target=\"b\"><data key=\"w\">1</data></edge>\n"
        "<edge source=\"b\" target=\"c\"><data key=\"w\">1</data></edge>\n"
        "<edge source=\"c\" target=\"c\"><data key=\"w\">1</data></edge>\n"
        "<edge source=\"a\" target=\"a\"><data key=\"w\">5</data></edge>\n"
        "<edge source=\"b\" target=\"c\"><data key=\"w\">3</data></edge>\n</graph>\n</graphml>\n";
    const QByteArray pajek =
        "*Vertices 3\n1 \"a\"\n2 \"b\"\n3 \"c\"\n*Arcs\n1 2 1\n2 1 2\n1 2 1\n2 3 1\n3 3 1\n1 1 5\n2 3 3\n";
    QTest::newRow("edges undirected") << "e.txt" << edges << -1 << false;
    QTest::newRow("edges directed") << "e.txt" << edges << 1 << true;
    QTest::newRow("gml directed") << "g.gml" << gml << -1 << true;
    QTest::newRow("gml forced undirected") << "g.gml" << gml << 0 << false;
    QTest::newRow("graphml directed") << "g.graphml" << graphml << -1 << true;
    QTest::newRow("graphml forced undirected") << "g.graphml" << graphml << 0 << false;
    QTest::newRow("pajek directed") << "g.net" << pajek << -1 << true;
    QTest::newRow("pajek forced undirected") << "g.net" << pajek << 0 << false;
  }
  void selfLoopsAndDuplicates() {
    QFETCH(QString, fileName);
    QFETCH(QByteArray, contents);
    QFETCH(int, forced);
    QFETCH(bool, directed);
    test::Scratch scratch;
    core::GraphReadOptions options;
    if (forced >= 0) options.directed = forced == 1;
    core::GraphReadReport report;
    const auto g = core::readGraph(scratch.write(fileName.toStdString(), contents.toStdString()), options,
                                   core::ImportControl{}, &report);
    QCOMPARE(test::invariantProblem(g), std::string());
    QCOMPARE(g.directed, directed);
    QCOMPARE(report.selfLoopsDropped, std::int64_t{2});
    QVERIFY(hasNote(report, "2 self-loops were dropped: block models have no self-dyads"));
    // Names for GML and Pajek come from labels; key the edges by them.
    const auto byName = test::edgeSet(g, [&](std::size_t i) { return g.nodeNames[i]; });
    if (directed) {
      QCOMPARE(report.duplicatesMerged, std::int64_t{2});
      QVERIFY(hasNote(report, "2 repeated arcs were merged into the first, weights summed"));
      QCOMPARE(byName, (test::EdgeSet{{{"a", "b"}, 2.0}, {{"b", "a"}, 2.0}, {{"b", "c"}, 4.0}}));
    } else {
      QCOMPARE(report.duplicatesMerged, std::int64_t{3});
      QVERIFY(hasNote(report, "3 repeated edges were merged into the first, weights summed (in an undirected graph"));
      QCOMPARE(byName, (test::EdgeSet{{{"a", "b"}, 4.0}, {{"b", "c"}, 4.0}}));
    }
  }

  void matrixDiagonal() {
    test::Scratch scratch;
    core::GraphReadReport report;
    const auto g = core::readGraph(scratch.write("m.csv", "1,1,0\n1,0,2\n0,2,3\n"), {}, core::ImportControl{}, &report);
    QVERIFY(!g.directed);
    QCOMPARE(report.selfLoopsDropped, std::int64_t{2});
    QCOMPARE(report.duplicatesMerged, std::int64_t{0});
    QCOMPARE(g.edges, (std::vector<core::Edge>{{0, 1, 1.0}, {1, 2, 2.0}}));
  }

  // A single quoted field the size of the line limit does not slip past it in pieces.
  void hugeQuotedField() {
    test::Scratch scratch;
    const auto path = scratch.write("q.csv", "a,b\n\"" + std::string(std::size_t{2} << 20, 'y') + "\",c\n");
    try {
      core::readGraph(path, {}, core::ImportControl{});
      QFAIL("expected an InputError");
    } catch (const core::InputError& e) {
      QCOMPARE(e.line(), std::int64_t{2});
      QVERIFY2(e.reason().find("longer than 1 MB") != std::string::npos, e.what());
    }
  }
};

LATENT_TEST_CASE(GraphBadInputTest)
#include "tst_graph_bad_input.moc"
