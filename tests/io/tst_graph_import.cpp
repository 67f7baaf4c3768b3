// SPDX-License-Identifier: GPL-3.0-or-later
// Graph import from real files: karate in five formats, Sampson, Davis, detection, names of formats.
#include <QtTest>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>

#include "core/io/graph_import.hpp"
#include "core/util/errors.hpp"
#include "graph_test_helpers.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;
using core::GraphFormat;
using test::EdgeSet;
using test::hasNote;

namespace {

core::Graph readGraph(const std::filesystem::path& source, core::GraphReadOptions options = {},
                      core::GraphReadReport* report = nullptr) {
  return core::readGraph(source, options, core::ImportControl{}, report);
}

core::GraphReadOptions withNodes(const std::filesystem::path& nodes, std::optional<bool> directed = {}) {
  core::GraphReadOptions options;
  options.nodes = nodes;
  options.directed = directed;
  return options;
}

std::size_t nodeIndex(const core::Graph& g, const std::string& id) {
  const auto it = std::find(g.nodeIds.begin(), g.nodeIds.end(), id);
  return static_cast<std::size_t>(it - g.nodeIds.begin());
}

std::string notesText(const core::GraphReadReport& report) {
  std::string all;
  for (const auto& n : report.notes) all += n + " | ";
  return all;
}

// id -> value of `column` in a sample nodes.csv.
std::map<std::string, std::string> nodesColumn(const std::filesystem::path& nodes, const std::string& column) {
  const auto rows = test::plainCsvRows(nodes);
  const auto c = static_cast<std::size_t>(std::find(rows[0].begin(), rows[0].end(), column) - rows[0].begin());
  std::map<std::string, std::string> out;
  for (std::size_t r = 1; r < rows.size(); ++r) out[rows[r][0]] = rows[r][c];
  return out;
}

std::vector<std::string> nodesIds(const std::filesystem::path& nodes) {
  const auto rows = test::plainCsvRows(nodes);
  std::vector<std::string> ids;
  for (std::size_t r = 1; r < rows.size(); ++r) ids.push_back(rows[r][0]);
  return ids;
}

}  // namespace

class GraphImportTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void formatNames() {
    for (const auto format : {GraphFormat::Auto, GraphFormat::EdgeList, GraphFormat::Matrix, GraphFormat::Gml,
                              GraphFormat::GraphMl, GraphFormat::Pajek})
      QCOMPARE(int(core::graphFormatFromString(core::toString(format)).value_or(GraphFormat(-1))), int(format));
    QCOMPARE(core::toString(GraphFormat::EdgeList), std::string_view("edges"));
    QCOMPARE(core::toString(GraphFormat::GraphMl), std::string_view("graphml"));
    QVERIFY(!core::graphFormatFromString("net").has_value());
    QVERIFY(!core::graphFormatFromString("").has_value());
  }

  void karateCsv() {
    const auto nodes = test::sample("karate/nodes.csv");
    const auto edges = test::sample("karate/edges.csv");
    core::GraphReadReport report;
    const auto g = readGraph(edges, withNodes(nodes), &report);
    QCOMPARE(test::invariantProblem(g), std::string());
    QCOMPARE(int(report.format), int(GraphFormat::EdgeList));
    QCOMPARE(g.nodeCount(), std::size_t{34});
    QCOMPARE(g.edgeCount(), std::size_t{78});
    QVERIFY(!g.directed);
    QCOMPARE(g.nodeIds, nodesIds(nodes));
    QCOMPARE(g.attributeNames, (std::vector<std::string>{"faction", "club_after_split"}));
    QCOMPARE(g.nodeNames[0], std::string("Mr Hi"));
    QCOMPARE(g.nodeNames[33], std::string("John A"));
    // Node 9 is the one whose faction and club differ (karate README).
    const auto nine = nodeIndex(g, "9");
    QCOMPARE(g.attributes[0][nine], std::string("John A"));
    QCOMPARE(g.attributes[1][nine], std::string("Mr. Hi"));
    // Every edge and weight, as the file says; (1, 2) has weight 4 in edges.csv.
    const auto expected = test::csvEdgeSet(edges, false, 2);
    QCOMPARE(expected.at({"1", "2"}), 4.0);
    QCOMPARE(test::edgeSet(g), expected);
    QCOMPARE(g.edges[0].source, 0);
    QCOMPARE(g.edges[0].target, 1);
    QCOMPARE(g.edges[0].weight, 4.0);
    QCOMPARE(report.selfLoopsDropped, std::int64_t{0});
    QCOMPARE(report.duplicatesMerged, std::int64_t{0});
    QVERIFY2(hasNote(report, "edge list read as undirected; use --directed"), notesText(report).c_str());
  }

  // The networkx-written files give the same graph as the CSV: same ids (GML: through networkx's
  // label, see tests/fixtures/graph/README.md; the matrix: through the names), same edges, same weights.
  void karateFormats_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("format");
    QTest::addColumn<QString>("idVia");  // "id", "label" (an attribute) or "name"
    QTest::newRow("gml") << "graph/karate.gml" << int(GraphFormat::Gml) << "label";
    QTest::newRow("graphml") << "graph/karate.graphml" << int(GraphFormat::GraphMl) << "id";
    QTest::newRow("pajek") << "graph/karate.net" << int(GraphFormat::Pajek) << "id";
    QTest::newRow("matrix") << "graph/karate_matrix.csv" << int(GraphFormat::Matrix) << "name";
  }
  void karateFormats() {
    QFETCH(QString, file);
    QFETCH(int, format);
    QFETCH(QString, idVia);
    const auto nodes = test::sample("karate/nodes.csv");
    const auto names = nodesColumn(nodes, "name");
    std::map<std::string, std::string> idOfName;
    for (const auto& [id, name] : names) idOfName[name] = id;

    core::GraphReadReport report;
    const auto g = readGraph(test::fixture(file.toStdString()), {}, &report);
    QCOMPARE(test::invariantProblem(g), std::string());
    QCOMPARE(int(report.format), format);
    QCOMPARE(g.nodeCount(), std::size_t{34});
    QCOMPARE(g.edgeCount(), std::size_t{78});
    QVERIFY(!g.directed);
    QVERIFY2(hasNote(report, "undirected"), notesText(report).c_str());

    std::function<std::string(std::size_t)> key = [&](std::size_t i) { return g.nodeIds[i]; };
    if (idVia == "label") {
      const auto label = g.attributeIndex("label");
      QVERIFY(label.has_value());
      key = [&, label](std::size_t i) { return g.attributes[*label][i]; };
    } else if (idVia == "name") {
      key = [&](std::size_t i) { return idOfName.at(g.nodeIds[i]); };
    }
    std::set<std::string> keys, expectedKeys;
    for (std::size_t i = 0; i < g.nodeCount(); ++i) keys.insert(key(i));
    for (const auto& [id, name] : names) expectedKeys.insert(id);
    QCOMPARE(keys, expectedKeys);
    QCOMPARE(test::edgeSet(g, key), test::csvEdgeSet(test::sample("karate/edges.csv"), false, 2));
    // Names as the file gives them: "name" (GML, GraphML), the Pajek label, the matrix header.
    for (std::size_t i = 0; i < g.nodeCount(); ++i) QCOMPARE(g.nodeNames[i], names.at(key(i)));
  }

  void karateAttributes() {
    // GML keeps networkx's label and the two attributes; its ids are networkx's 0..33.
    const auto gml = readGraph(test::fixture("graph/karate.gml"));
    QCOMPARE(gml.attributeNames, (std::vector<std::string>{"label", "faction", "club"}));
    QCOMPARE(gml.nodeIds[0], std::string("0"));
    QCOMPARE(gml.nodeIds[33], std::string("33"));
    QCOMPARE(gml.attributes[0][0], std::string("1"));
    QCOMPARE(gml.attributes[2][8], std::string("Mr. Hi"));  // node 9 joined Mr Hi's club
    QCOMPARE(gml.attributes[1][8], std::string("John A"));
    // GraphML: attributes in the file's key order (networkx writes club before faction).
    const auto graphml = readGraph(test::fixture("graph/karate.graphml"));
    QCOMPARE(graphml.attributeNames, (std::vector<std::string>{"club", "faction"}));
    QCOMPARE(graphml.attributes[0][nodeIndex(graphml, "34")], std::string("Officer"));
    // Pajek lines hold drawing parameters only: nothing is kept.
    QVERIFY(readGraph(test::fixture("graph/karate.net")).attributeNames.empty());
    // With the nodes file, Pajek and GraphML nodes get its names and columns, in its order.
    const auto nodes = test::sample("karate/nodes.csv");
    const auto pajek = readGraph(test::fixture("graph/karate.net"), withNodes(nodes));
    QCOMPARE(pajek.nodeIds, nodesIds(nodes));
    QCOMPARE(pajek.attributeNames, (std::vector<std::string>{"faction", "club_after_split"}));
    QCOMPARE(pajek.nodeNames[0], std::string("Mr Hi"));
    const auto merged = readGraph(test::fixture("graph/karate.graphml"), withNodes(nodes));
    QCOMPARE(merged.attributeNames, (std::vector<std::string>{"club", "faction", "club_after_split"}));
    // The GML's ids are 0..33: the nodes file does not know id 0, and the error says how GML matches,
    // at the line where that node starts.
    try {
      readGraph(test::fixture("graph/karate.gml"), withNodes(nodes));
      QFAIL("expected an InputError");
    } catch (const core::InputError& e) {
      QCOMPARE(e.line(), std::int64_t{2});
      QVERIFY2(std::string(e.reason()).find("node '0' is not in the nodes file") != std::string::npos, e.what());
      QVERIFY2(std::string(e.reason()).find("matched by their numeric id") != std::string::npos, e.what());
    }
  }

  // A UTF-8 byte order mark (what Windows editors write) changes nothing; igraph's GML and Pajek
  // parsers refused it as part of the first keyword.
  void byteOrderMarksAreAccepted() {
    test::Scratch scratch;
    for (const char* name : {"karate.gml", "karate.net", "karate.graphml"}) {
      const auto original = test::fixture(std::string("graph/") + name);
      std::ifstream in(original, std::ios::binary);
      const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
      const auto marked = scratch.write(name, "\xEF\xBB\xBF" + bytes);
      const auto g = readGraph(marked, {});
      QCOMPARE(g.nodeCount(), std::size_t{34});
      QCOMPARE(g.edgeCount(), std::size_t{78});
    }
  }

  void sampsonLikeT4() {
    const auto nodes = test::sample("sampson/nodes.csv");
    const auto arcs = test::sample("sampson/like_t4.csv");
    core::GraphReadReport report;
    const auto g = readGraph(arcs, withNodes(nodes, true), &report);
    QCOMPARE(test::invariantProblem(g), std::string());
    QVERIFY(g.directed);
    QCOMPARE(g.nodeCount(), std::size_t{18});
    QCOMPARE(g.nodeIds, nodesIds(nodes));
    QCOMPARE(g.edgeCount(), std::size_t{56});
    QCOMPARE(g.nodeNames[0], std::string("John Bosco"));
    const auto group = g.attributeIndex("group");
    QVERIFY(group.has_value());
    const auto names = nodesColumn(nodes, "name");
    const auto groups = nodesColumn(nodes, "group");
    std::string romauld;
    for (const auto& [id, name] : names)
      if (name == "Romauld") romauld = id;
    QVERIFY(!romauld.empty());
    QCOMPARE(g.nodeNames[nodeIndex(g, romauld)], std::string("Romauld"));
    QCOMPARE(g.attributes[*group][nodeIndex(g, romauld)], groups.at(romauld));
    QCOMPARE(g.attributeNames, (std::vector<std::string>{"ucinet_label", "group", "group3", "cloisterville", "fate"}));
    // Arcs keep their direction; "rank" is read as the weight, and a note says so.
    QCOMPARE(test::edgeSet(g), test::csvEdgeSet(arcs, true, 2));
    QVERIFY2(hasNote(report, "column 3 ('rank') holds numbers and was read as the edge weight"),
             notesText(report).c_str());
    QVERIFY2(!hasNote(report, "read as undirected"), notesText(report).c_str());

    // Read undirected (the default), reciprocated likings merge into one edge with summed ranks.
    core::GraphReadReport undirectedReport;
    const auto u = readGraph(arcs, withNodes(nodes), &undirectedReport);
    const auto expected = test::csvEdgeSet(arcs, false, 2);
    QCOMPARE(test::edgeSet(u), expected);
    QCOMPARE(undirectedReport.duplicatesMerged, std::int64_t(56 - expected.size()));
    QVERIFY(undirectedReport.duplicatesMerged > 0);
    QVERIFY2(hasNote(undirectedReport, "merged into the first, weights summed"), notesText(undirectedReport).c_str());
  }

  // Sampson's eight relations at T4 from the long edge list: one relation per value of "relation",
  // the rows of other waves skipped, `edges` the first relation (like).
  void sampsonRelations() {
    const auto nodes = test::sample("sampson/nodes.csv");
    const auto arcs = test::sample("sampson/edges.csv");
    auto options = withNodes(nodes, true);
    options.relationColumn = "relation";
    options.where = "wave=T4";
    core::GraphReadReport report;
    const auto g = readGraph(arcs, options, &report);
    QCOMPARE(test::invariantProblem(g), std::string());
    QCOMPARE(g.relationNames, (std::vector<std::string>{"like", "dislike", "esteem", "disesteem", "influence",
                                                        "negative_influence", "praise", "blame"}));
    // Arc counts as the dataset's README gives them.
    const std::vector<std::size_t> counts{56, 47, 54, 58, 53, 50, 39, 41};
    for (std::size_t r = 0; r < g.relationCount(); ++r) QCOMPARE(g.relationEdges(r).size(), counts[r]);
    // The first relation is the T4 liking, arc for arc (unweighted here: column 3 names the relation).
    const auto likeT4 = readGraph(test::sample("sampson/like_t4.csv"), withNodes(nodes, true));
    QCOMPARE(g.edges.size(), likeT4.edges.size());
    for (std::size_t e = 0; e < g.edges.size(); ++e) {
      QCOMPARE(g.edges[e].source, likeT4.edges[e].source);
      QCOMPARE(g.edges[e].target, likeT4.edges[e].target);
    }
    QCOMPARE(g.relationIndex("praise"), std::optional<std::size_t>(6));
    QVERIFY2(hasNote(report, "8 relations over the same nodes"), notesText(report).c_str());
    // Without --where the waves of like merge (T2-T4): more like arcs than at T4 alone.
    options.where.clear();
    const auto pooled = readGraph(arcs, options);
    QCOMPARE(pooled.relationCount(), std::size_t{8});
    QVERIFY(pooled.edges.size() > 56);
    // Without --relation-column every row is one relation's edge, as before.
    const auto flat = readGraph(arcs, withNodes(nodes, true));
    QVERIFY(flat.relationNames.empty() && flat.furtherRelations.empty());
  }

  void relationOptionsNeedAHeaderColumn() {
    test::Scratch scratch;
    const auto bare = scratch.write("bare.csv", "1,2,like\n2,3,esteem\n");
    core::GraphReadOptions options;
    options.relationColumn = "relation";
    QVERIFY_THROWS_EXCEPTION(core::InputError, readGraph(bare, options));
    const auto headed = scratch.write("headed.csv", "source,target,kind\n1,2,like\n2,3,esteem\n");
    QVERIFY_THROWS_EXCEPTION(core::InputError, readGraph(headed, options));
    options.relationColumn = "kind";
    QCOMPARE(readGraph(headed, options).relationCount(), std::size_t{2});
    options.where = "wave";
    QVERIFY_THROWS_EXCEPTION(core::UsageError, readGraph(headed, options));
    options.where = "kind=like";
    const auto liked = readGraph(headed, options);
    QCOMPARE(liked.relationNames, (std::vector<std::string>{"like"}));
    QCOMPARE(liked.edgeCount(), std::size_t{1});
    core::GraphReadOptions gml;
    gml.relationColumn = "kind";
    QVERIFY_THROWS_EXCEPTION(core::UsageError, readGraph(test::fixture("graph/karate.gml"), gml));
  }

  void sampsonPajek() {
    const auto nodes = test::sample("sampson/nodes.csv");
    core::GraphReadReport report;
    const auto g = readGraph(test::fixture("graph/sampson_like_t4.net"), {}, &report);
    QCOMPARE(test::invariantProblem(g), std::string());
    QVERIFY(g.directed);
    QVERIFY2(hasNote(report, "read as directed, as the Pajek file declares"), notesText(report).c_str());
    QCOMPARE(g.nodeCount(), std::size_t{18});
    QCOMPARE(test::edgeSet(g), test::csvEdgeSet(test::sample("sampson/like_t4.csv"), true, 2));
    const auto names = nodesColumn(nodes, "name");
    for (std::size_t i = 0; i < g.nodeCount(); ++i) QCOMPARE(g.nodeNames[i], names.at(g.nodeIds[i]));
    // Forcing undirected merges the mutual pairs.
    core::GraphReadOptions undirected;
    undirected.directed = false;
    core::GraphReadReport merged;
    const auto u = readGraph(test::fixture("graph/sampson_like_t4.net"), undirected, &merged);
    QVERIFY(!u.directed);
    QCOMPARE(test::edgeSet(u), test::csvEdgeSet(test::sample("sampson/like_t4.csv"), false, 2));
    QVERIFY(merged.duplicatesMerged > 0);
    QVERIFY2(hasNote(merged, "--undirected merged arcs"), notesText(merged).c_str());
  }

  void davis() {
    const auto nodes = test::sample("davis_southern_women/nodes.csv");
    const auto edges = test::sample("davis_southern_women/edges.csv");
    const auto g = readGraph(edges, withNodes(nodes));
    QCOMPARE(test::invariantProblem(g), std::string());
    QCOMPARE(g.nodeCount(), std::size_t{32});
    QCOMPARE(g.edgeCount(), std::size_t{89});
    QCOMPARE(g.nodeIds, nodesIds(nodes));
    QCOMPARE(g.attributeNames, std::vector<std::string>{"type"});
    QCOMPARE(g.nodeNames[0], std::string("Evelyn Jefferson"));
    QCOMPARE(g.attributes[0][nodeIndex(g, "19")], std::string("event"));
    // "woman,event" is a header: its fields are not numbers while the next row's are.
    QCOMPARE(test::edgeSet(g), test::csvEdgeSet(edges, false, -1));
    // Without the nodes file: the same 32 nodes by first appearance, named by their ids.
    const auto bare = readGraph(edges);
    QCOMPARE(bare.nodeCount(), std::size_t{32});
    QCOMPARE(bare.edgeCount(), std::size_t{89});
    QVERIFY(bare.attributeNames.empty());
    QCOMPARE(bare.nodeIds[0], std::string("1"));
    QCOMPARE(bare.nodeIds[1], std::string("19"));
    QCOMPARE(bare.nodeNames[1], std::string("19"));
  }

  // networkx's write_edgelist with tabs: names as ids, no header; same ties as the sample.
  void davisTsv() {
    const auto g = readGraph(test::fixture("graph/davis.tsv"));
    QCOMPARE(test::invariantProblem(g), std::string());
    QCOMPARE(g.nodeCount(), std::size_t{32});
    QCOMPARE(g.nodeIds[0], std::string("Evelyn Jefferson"));
    const auto names = nodesColumn(test::sample("davis_southern_women/nodes.csv"), "name");
    std::map<std::string, std::string> idOfName;
    for (const auto& [id, name] : names) idOfName[name] = id;
    QCOMPARE(test::edgeSet(g, [&](std::size_t i) { return idOfName.at(g.nodeIds[i]); }),
             test::csvEdgeSet(test::sample("davis_southern_women/edges.csv"), false, -1));
  }

  void isolatesFromNodesFile() {
    test::Scratch scratch;
    const auto nodes = scratch.write("nodes.csv", "id,label,group\n1,One,x\n2,Two,y\n3,Three,x\n4,Four,z\n");
    const auto edges = scratch.write("edges.csv", "source,target\n3,1\n1,2\n");
    const auto g = readGraph(edges, withNodes(nodes));
    QCOMPARE(g.nodeIds, (std::vector<std::string>{"1", "2", "3", "4"}));
    QCOMPARE(g.nodeNames, (std::vector<std::string>{"One", "Two", "Three", "Four"}));  // "label" when no "name"
    QCOMPARE(g.attributeNames, std::vector<std::string>{"group"});
    QCOMPARE(g.attributes[0][3], std::string("z"));
    QCOMPARE(g.edges, (std::vector<core::Edge>{{0, 1, 1.0}, {0, 2, 1.0}}));  // 3-1 stored as 1-3
  }

  void edgeListVariants() {
    test::Scratch scratch;
    // SNAP: '#' comments, tabs, no header, numeric ids kept as text.
    auto g =
        readGraph(scratch.write("snap.txt", "# Directed graph: x.txt\n# FromNodeId\tToNodeId\n0\t1\n1\t2\n2\t0\n"));
    QCOMPARE(g.nodeIds, (std::vector<std::string>{"0", "1", "2"}));
    QCOMPARE(g.edgeCount(), std::size_t{3});
    // KONECT: '%' comments, runs of spaces, weight and a timestamp column (ignored).
    core::GraphReadReport report;
    g = readGraph(scratch.write("out.konect", "% sym positive\n%  3 2 2\n 1   2  3   1000\n2 3 1.5 1001\n"), {},
                  &report);
    QCOMPARE(g.edges, (std::vector<core::Edge>{{0, 1, 3.0}, {1, 2, 1.5}}));
    QVERIFY2(hasNote(report, "the third column holds numbers and was read as the edge weight"),
             notesText(report).c_str());
    // Semicolons, quoted ids with separators inside, a header named from/to/weight.
    g = readGraph(scratch.write("semi.csv", "From;To;Weight\n\"Smith; J.\";\"Doe, A.\";2\n\"Doe, A.\";B;1\n"));
    QCOMPARE(g.nodeIds, (std::vector<std::string>{"Smith; J.", "Doe, A.", "B"}));
    QCOMPARE(test::edgeSet(g), (EdgeSet{{{"Doe, A.", "Smith; J."}, 2.0}, {{"B", "Doe, A."}, 1.0}}));
    // A non-numeric third column is ignored, with a note.
    report = {};
    g = readGraph(test::sample("sampson/edges.csv"), withNodes(test::sample("sampson/nodes.csv"), true), &report);
    QVERIFY2(hasNote(report, "column 3 ('relation') is not a number, so it was ignored"), notesText(report).c_str());
    std::set<std::pair<std::string, std::string>> pairs;
    for (const auto& row : test::plainCsvRows(test::sample("sampson/edges.csv"))) pairs.insert({row[0], row[1]});
    pairs.erase({"source", "target"});
    QCOMPARE(g.edgeCount(), pairs.size());
    // Text ids with a text header: a header row is recognised by the third column.
    g = readGraph(scratch.write("people.csv", "person1,person2,weight\nann,bob,2\nbob,cy,1\n"));
    QCOMPARE(g.nodeIds, (std::vector<std::string>{"ann", "bob", "cy"}));
    // Preview: maxRecords stops early.
    core::ImportControl preview;
    preview.maxRecords = 2;
    g = core::readGraph(test::sample("karate/edges.csv"), {}, preview);
    QCOMPARE(g.edgeCount(), std::size_t{2});
  }

  void matrixVariants() {
    test::Scratch scratch;
    core::GraphReadReport report;
    // Asymmetric: directed, row -> column; ids 1..n without a header.
    auto g = readGraph(scratch.write("d.txt", "0 1 0\n0 0 2\n1 0 0\n"), {}, &report);
    QCOMPARE(int(report.format), int(GraphFormat::Matrix));
    QVERIFY(g.directed);
    QCOMPARE(g.nodeIds, (std::vector<std::string>{"1", "2", "3"}));
    QCOMPARE(g.edges, (std::vector<core::Edge>{{0, 1, 1.0}, {1, 2, 2.0}, {2, 0, 1.0}}));
    QVERIFY2(hasNote(report, "not symmetric, so the graph was read as directed"), notesText(report).c_str());
    // Forced undirected: 1->2 (1) and 2->1 (2) merge into one edge of weight 3.
    core::GraphReadOptions undirected;
    undirected.format = GraphFormat::Matrix;
    undirected.directed = false;
    report = {};
    g = readGraph(scratch.write("a.csv", "0,1,0\n2,0,1\n0,0,0\n"), undirected, &report);
    QCOMPARE(g.edges, (std::vector<core::Edge>{{0, 1, 3.0}, {1, 2, 1.0}}));
    QCOMPARE(report.duplicatesMerged, std::int64_t{1});
    // Forced directed on a symmetric matrix: both arcs.
    core::GraphReadOptions directed;
    directed.directed = true;
    g = readGraph(scratch.write("s.csv", ",a,b,c\na,0,2,0\nb,2,0,1\nc,0,1,0\n"), directed);
    QCOMPARE(g.edgeCount(), std::size_t{4});
    // Row names only, and a corner label above them.
    g = readGraph(scratch.write("r.csv", "x,0,1,1\ny,1,0,0\nz,1,0,0\n"));
    QCOMPARE(g.nodeIds, (std::vector<std::string>{"x", "y", "z"}));
    QVERIFY(!g.directed);
    g = readGraph(scratch.write("c.csv", "node,x,y,z\nx,0,1,1\ny,1,0,0\nz,1,0,0\n"));
    QCOMPARE(g.nodeIds, (std::vector<std::string>{"x", "y", "z"}));
    QCOMPARE(g.edgeCount(), std::size_t{2});
    // A nodes file fixes the order and adds isolates.
    const auto nodes = scratch.write("nodes.csv", "id,name\nz,Zed\ny,Why\nx,Ex\nw,Double\n");
    g = readGraph(scratch.write("h.csv", ",x,y,z\nx,0,1,1\ny,1,0,0\nz,1,0,0\n"), withNodes(nodes));
    QCOMPARE(g.nodeIds, (std::vector<std::string>{"z", "y", "x", "w"}));
    QCOMPARE(g.nodeNames[2], std::string("Ex"));
    QCOMPARE(g.edges, (std::vector<core::Edge>{{0, 2, 1.0}, {1, 2, 1.0}}));
  }

  void pajekFewerVertexLines() {
    test::Scratch scratch;
    const auto g = readGraph(scratch.write("f.net", "*Vertices 5\n1 \"a\"\n2 \"b\"\n*Edges\n1 2\n4 5 2.5\n"));
    QCOMPARE(g.nodeIds, (std::vector<std::string>{"1", "2", "3", "4", "5"}));
    QCOMPARE(g.nodeNames, (std::vector<std::string>{"a", "b", "3", "4", "5"}));
    QCOMPARE(g.edges, (std::vector<core::Edge>{{0, 1, 1.0}, {3, 4, 2.5}}));
    // igraph 0.10.2 pads the weight of an earlier arc without a value with 0; it weighs 1 here.
    const auto w = readGraph(scratch.write("w.net", "*Vertices 3\n*Arcs\n1 2\n2 3 5\n"));
    QCOMPARE(w.edges, (std::vector<core::Edge>{{0, 1, 1.0}, {1, 2, 5.0}}));
  }

  void forcedDirectionOnFiles() {
    core::GraphReadOptions directed;
    directed.directed = true;
    core::GraphReadReport report;
    const auto g = readGraph(test::fixture("graph/karate.gml"), directed, &report);
    QVERIFY(g.directed);
    QCOMPARE(g.edgeCount(), std::size_t{156});
    QVERIFY2(hasNote(report, "--directed made each edge two arcs"), notesText(report).c_str());
  }

  void detection_data() {
    QTest::addColumn<QString>("path");
    QTest::addColumn<int>("format");
    const auto f = [](const char* p) { return QString::fromStdString(test::fixture(p).string()); };
    const auto s = [](const char* p) { return QString::fromStdString(test::sample(p).string()); };
    QTest::newRow("karate.gml") << f("graph/karate.gml") << int(GraphFormat::Gml);
    QTest::newRow("karate.graphml") << f("graph/karate.graphml") << int(GraphFormat::GraphMl);
    QTest::newRow("karate.net") << f("graph/karate.net") << int(GraphFormat::Pajek);
    QTest::newRow("karate_nx_attributes.net") << f("graph/karate_nx_attributes.net") << int(GraphFormat::Pajek);
    QTest::newRow("karate_matrix.csv") << f("graph/karate_matrix.csv") << int(GraphFormat::Matrix);
    QTest::newRow("sampson_like_t4.net") << f("graph/sampson_like_t4.net") << int(GraphFormat::Pajek);
    QTest::newRow("davis.tsv") << f("graph/davis.tsv") << int(GraphFormat::EdgeList);
    QTest::newRow("karate edges") << s("karate/edges.csv") << int(GraphFormat::EdgeList);
    QTest::newRow("sampson like_t4") << s("sampson/like_t4.csv") << int(GraphFormat::EdgeList);
    QTest::newRow("sampson edges") << s("sampson/edges.csv") << int(GraphFormat::EdgeList);
    QTest::newRow("davis edges") << s("davis_southern_women/edges.csv") << int(GraphFormat::EdgeList);
    QTest::newRow("cora links") << s("cora/links.csv") << int(GraphFormat::EdgeList);
  }
  void detection() {
    QFETCH(QString, path);
    QFETCH(int, format);
    QCOMPARE(int(core::detectGraphFormat(path.toStdString())), format);
  }

  // UTF-16 GraphML with its byte order mark and declaration (what some Windows tools write), in
  // either byte order: read as the UTF-8 file is, names intact; a bad weight still names its line.
  void graphMlInUtf16() {
    const QString xml = QStringLiteral(
        "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n"
        "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
        "<key id=\"w\" for=\"edge\" attr.name=\"weight\" attr.type=\"double\"/>\n"
        "<graph id=\"G\" edgedefault=\"undirected\">\n"
        "<node id=\"Zoë\"/><node id=\"Ana\"/><node id=\"Bo\"/>\n"
        "<edge source=\"Zoë\" target=\"Ana\"><data key=\"w\">2</data></edge>\n"
        "<edge source=\"Ana\" target=\"Bo\"><data key=\"w\">%1</data></edge>\n"
        "</graph>\n</graphml>\n");
    const auto utf16 = [](const QString& text, bool bigEndian) {
      std::string bytes = bigEndian ? std::string("\xFE\xFF") : std::string("\xFF\xFE");
      for (const QChar c : text) {
        const auto unit = c.unicode();
        const char high = static_cast<char>(unit >> 8), low = static_cast<char>(unit & 0xFF);
        bytes += bigEndian ? std::string{high, low} : std::string{low, high};
      }
      return bytes;
    };
    test::Scratch scratch;
    for (const bool bigEndian : {false, true}) {
      const auto good = scratch.write(bigEndian ? "be.graphml" : "le.graphml", utf16(xml.arg(3), bigEndian));
      const auto g = readGraph(good);
      QCOMPARE(g.nodeCount(), std::size_t{3});
      QCOMPARE(g.edgeCount(), std::size_t{2});
      QVERIFY(std::find(g.nodeIds.begin(), g.nodeIds.end(), std::string("Zo\xC3\xAB")) != g.nodeIds.end());
      const auto bad = scratch.write("nan.graphml", utf16(xml.arg(QStringLiteral("NaN")), bigEndian));
      try {
        readGraph(bad);
        QFAIL("a NaN weight was accepted");
      } catch (const core::InputError& e) {
        QVERIFY2(QString(e.what()).contains(QStringLiteral("nan.graphml:7")), e.what());
      }
    }
  }

  void detectionByContent() {
    test::Scratch scratch;
    const auto gml = scratch.write("a.txt", "# made by hand\ngraph [\n node [ id 1 ]\n]\n");
    QCOMPARE(int(core::detectGraphFormat(gml)), int(GraphFormat::Gml));
    QCOMPARE(int(core::detectGraphFormat(scratch.write("b.txt", "<?xml version=\"1.0\"?>\n<graphml/>\n"))),
             int(GraphFormat::GraphMl));
    QCOMPARE(int(core::detectGraphFormat(scratch.write("c.dat", "*Vertices 3\n*Arcs\n1 2\n"))),
             int(GraphFormat::Pajek));
    // Three numeric columns but no zero and no header: an edge list, not a 3x3 matrix.
    QCOMPARE(int(core::detectGraphFormat(scratch.write("d.txt", "1 2 1\n2 3 1\n3 1 1\n"))), int(GraphFormat::EdgeList));
    QCOMPARE(int(core::detectGraphFormat(scratch.write("e.txt", "0 1 1\n1 0 1\n1 1 0\n"))), int(GraphFormat::Matrix));
    // A 4-column edge list (KONECT with timestamps) with 4 rows is no 4x4 matrix: no zero.
    QCOMPARE(int(core::detectGraphFormat(scratch.write("f.txt", "1 2 1 10\n2 3 1 11\n3 4 1 12\n4 1 1 13\n"))),
             int(GraphFormat::EdgeList));
    // Square but one more row than columns: an edge list.
    QCOMPARE(int(core::detectGraphFormat(scratch.write("g.txt", "0 1 1\n1 0 1\n1 1 0\n0 0 1\n"))),
             int(GraphFormat::EdgeList));
    QCOMPARE(int(core::detectGraphFormat(scratch.write("h.bin", test::binaryBytes()))), int(GraphFormat::EdgeList));
    const auto missing = scratch.path("missing.csv");
    try {
      core::detectGraphFormat(missing);
      QFAIL("expected an InputError");
    } catch (const core::InputError& e) {
      QCOMPARE(e.file(), missing.string());
      QCOMPARE(e.line(), std::int64_t{0});
      QCOMPARE(e.reason(), std::string("does not exist"));
    }
    try {
      core::readGraph(scratch.path(""), {}, {});
      QFAIL("expected an InputError");
    } catch (const core::InputError& e) {
      QCOMPARE(e.reason(), std::string("is a folder, not a file"));
    }
  }
};

LATENT_TEST_CASE(GraphImportTest)
#include "tst_graph_import.moc"
