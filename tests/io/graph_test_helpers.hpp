// SPDX-License-Identifier: GPL-3.0-or-later
// Helpers shared by the graph importer suites: independent CSV reading, edge sets, invariants, bad inputs.
#pragma once

#include <QtTest>
#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "core/data/graph.hpp"
#include "core/io/graph_import.hpp"
#include "test_support.hpp"

namespace latent::test {

// The samples hold no quotes, so a plain split is an independent way to know what they say.
inline std::vector<std::vector<std::string>> plainCsvRows(const std::filesystem::path& path, char separator = ',') {
  std::ifstream in(path, std::ios::binary);
  std::vector<std::vector<std::string>> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    std::vector<std::string> fields;
    std::stringstream ss(line);
    std::string field;
    while (std::getline(ss, field, separator)) fields.push_back(field);
    if (!line.empty() && line.back() == separator) fields.emplace_back();
    rows.push_back(fields);
  }
  return rows;
}

// Whether one of the reader's notes contains `phrase`.
inline bool hasNote(const core::GraphReadReport& report, const std::string& phrase) {
  return std::any_of(report.notes.begin(), report.notes.end(),
                     [&](const std::string& n) { return n.find(phrase) != std::string::npos; });
}

inline std::string fileBytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

using EdgeKey = std::pair<std::string, std::string>;
using EdgeSet = std::map<EdgeKey, double>;

// Edges keyed by node ids (or by whatever `key` maps a node index to); an undirected pair is
// keyed with the smaller key first so files that order endpoints differently compare equal.
template <typename Key>
EdgeSet edgeSet(const core::Graph& g, Key key) {
  EdgeSet out;
  for (const auto& e : g.edges) {
    std::string a = key(static_cast<std::size_t>(e.source)), b = key(static_cast<std::size_t>(e.target));
    if (!g.directed && b < a) std::swap(a, b);
    out[{a, b}] += e.weight;
  }
  return out;
}

inline EdgeSet edgeSet(const core::Graph& g) {
  return edgeSet(g, [&](std::size_t i) { return g.nodeIds[i]; });
}

// Edge rows of a CSV (header skipped), weights from column `weightColumn` or 1.
inline EdgeSet csvEdgeSet(const std::filesystem::path& path, bool directed, int weightColumn) {
  EdgeSet out;
  const auto rows = plainCsvRows(path);
  for (std::size_t r = 1; r < rows.size(); ++r) {
    std::string a = rows[r][0], b = rows[r][1];
    if (!directed && b < a) std::swap(a, b);
    out[{a, b}] += weightColumn >= 0 ? std::stod(rows[r][static_cast<std::size_t>(weightColumn)]) : 1.0;
  }
  return out;
}

// The Graph invariants of data/graph.hpp; "" when they hold.
inline std::string invariantProblem(const core::Graph& g) {
  const auto n = g.nodeCount();
  if (g.nodeNames.size() != n) return "nodeNames size";
  if (g.attributes.size() != g.attributeNames.size()) return "attributes size";
  for (const auto& column : g.attributes)
    if (column.size() != n) return "attribute column size";
  std::vector<std::string> ids = g.nodeIds;
  std::sort(ids.begin(), ids.end());
  if (std::adjacent_find(ids.begin(), ids.end()) != ids.end()) return "repeated node id";
  for (std::size_t i = 0; i < g.edges.size(); ++i) {
    const auto& e = g.edges[i];
    if (e.source < 0 || e.target < 0 || static_cast<std::size_t>(e.source) >= n ||
        static_cast<std::size_t>(e.target) >= n)
      return "edge endpoint out of range";
    if (e.source == e.target) return "self-loop";
    if (!g.directed && e.source > e.target) return "undirected edge with source > target";
    if (!(e.weight > 0)) return "weight not positive";
    if (i > 0) {
      const auto& p = g.edges[i - 1];
      if (std::make_pair(p.source, p.target) >= std::make_pair(e.source, e.target))
        return "edges not sorted or repeated";
    }
  }
  return {};
}

// A file that a reader must refuse, and what the refusal must say.
struct BadGraphCase {
  std::string name;
  core::GraphFormat format;  // Auto lets detection run too
  std::string fileName;      // in a scratch folder
  std::string contents;
  std::string nodesContents;  // a nodes.csv next to it when not empty (or when nodesEmpty)
  bool nodesEmpty = false;    // write an empty nodes.csv
  std::optional<bool> directed;
  bool inNodesFile = false;  // the error names the nodes file
  std::int64_t line = 0;
  std::string phrase;
};

// The start of an ELF binary: a NUL byte on the first line.
inline std::string binaryBytes() {
  return std::string(
      "\x7F"
      "ELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x03\x00>\x00",
      18);
}
// Ten megabytes without a line break.
inline std::string hugeLine() { return std::string(std::size_t{10} << 20, 'x'); }

// One case per row: name, format, file, contents, nodes file, empty nodes file, --directed,
// error in the nodes file, line, phrase.
// clang-format off
inline const std::vector<BadGraphCase>& badGraphCases() {
  using F = core::GraphFormat;
  static const std::vector<BadGraphCase> cases = [] {
    const std::string goodEdges = "source,target\n1,2\n2,3\n";
    const std::string goodNodes = "id,name\n1,A\n2,B\n3,C\n";
    const std::string gmlHead = "graph [\n  directed 0\n  node [ id 1 label \"a\" ]\n  node [ id 2 label \"b\" ]\n";
    const std::string graphmlHead =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
        "<key id=\"w\" for=\"edge\" attr.name=\"weight\" attr.type=\"double\"/>\n"
        "<graph edgedefault=\"undirected\">\n"
        "<node id=\"a\"/>\n<node id=\"b\"/>\n";
    const std::string graphmlTail = "</graph>\n</graphml>\n";
    std::vector<BadGraphCase> c;
    auto add = [&](BadGraphCase k) { c.push_back(std::move(k)); };
    // Edge lists.
    add({"edges empty", F::EdgeList, "e.csv", "", "", false, {}, false, 0, "is empty"});
    add({"edges binary", F::Auto, "e.csv", binaryBytes(), "", false, {}, false, 1, "NUL byte"});
    add({"edges binary later", F::EdgeList, "e.csv", "1,2\n2,3\n" + binaryBytes(), "", false, {}, false, 3, "NUL byte"});
    add({"edges one field", F::EdgeList, "e.csv", "source,target\n1,2\n3\n", "", false, {}, false, 3,
         "expected at least 2 fields (source, target), found 1"});
    add({"edges not utf-8", F::EdgeList, "e.csv", "a,b\n\xE9t\xE9,b\n", "", false, {}, false, 2,
         "invalid UTF-8 (byte 0xE9 at column 1)"});
    add({"edges huge line", F::EdgeList, "e.csv", "1,2\n" + hugeLine() + "\n", "", false, {}, false, 2, "longer than 1 MB"});
    add({"edges negative weight", F::EdgeList, "e.txt", "a b 2\nb c -1\n", "", false, {}, false, 2,
         "weight -1 is not above 0"});
    add({"edges zero weight", F::EdgeList, "e.txt", "# konect\na b 0\n", "", false, {}, false, 2, "weight 0 is not above 0"});
    add({"edges text weight", F::EdgeList, "e.csv", "source,target,weight\na,b,2\nb,c,heavy\n", "", false, {}, false, 3,
         "weight 'heavy' is not a number"});
    add({"edges missing weight", F::EdgeList, "e.csv", "a,b,1\nb,c\n", "", false, {}, false, 2,
         "expected a weight in field 3"});
    add({"edges empty id", F::EdgeList, "e.csv", "a,b\n,c\n", "", false, {}, false, 2,
         "the source node id (field 1) is empty"});
    add({"edges unclosed quote", F::EdgeList, "e.csv", "a,b\n\"c,d\n", "", false, {}, false, 2,
         "a quoted field is not closed on this line"});
    add({"edges header only", F::EdgeList, "e.csv", "# comment\nsource,target\n", "", false, {}, false, 0, "holds no edges"});
    add({"edges only self-loops", F::EdgeList, "e.txt", "a a\nb b\n", "", false, {}, false, 0,
         "holds no edges other than 2 self-loops"});
    add({"edges id not in nodes", F::EdgeList, "e.csv", "source,target\n1,2\n2,9\n", goodNodes, false, {}, false, 3,
         "node '9' is not in the nodes file"});
    // Nodes files (with a good edge list).
    add({"nodes empty", F::EdgeList, "e.csv", goodEdges, "", true, {}, true, 0, "is empty"});
    add({"nodes header only", F::EdgeList, "e.csv", goodEdges, "id,name\n", false, {}, true, 0, "holds no nodes"});
    add({"nodes binary", F::EdgeList, "e.csv", goodEdges, binaryBytes(), false, {}, true, 1, "NUL byte"});
    add({"nodes extra field", F::EdgeList, "e.csv", goodEdges, "id,name\n1,A\n2,B,extra\n3,C\n", false, {}, true, 3,
         "expected 2 fields (id, name) but found 3"});
    add({"nodes duplicate id", F::EdgeList, "e.csv", goodEdges, "id,name\n1,A\n2,B\n1,C\n3,D\n", false, {}, true, 4,
         "node id '1' was already defined on line 2"});
    add({"nodes empty id", F::EdgeList, "e.csv", goodEdges, "id,name\n1,A\n,B\n", false, {}, true, 3,
         "the node id (column 'id') is empty"});
    add({"nodes not utf-8", F::EdgeList, "e.csv", goodEdges, "id,name\n1,Caf\xE9\n2,B\n3,C\n", false, {}, true, 2,
         "invalid UTF-8 (byte 0xE9"});
    add({"nodes huge line", F::EdgeList, "e.csv", goodEdges, "id,name\n1,A\n" + hugeLine() + "\n", false, {}, true, 3,
         "longer than 1 MB"});
    add({"nodes repeated column", F::EdgeList, "e.csv", goodEdges, "id,group,group\n1,a,b\n", false, {}, true, 1,
         "the column name 'group' appears twice"});
    // Adjacency matrices.
    add({"matrix empty", F::Matrix, "m.csv", "", "", false, {}, false, 0, "is empty"});
    add({"matrix binary", F::Matrix, "m.csv", binaryBytes(), "", false, {}, false, 1, "NUL byte"});
    add({"matrix ragged row", F::Matrix, "m.csv", "0,1,1\n1,0,1\n1,1\n", "", false, {}, false, 3,
         "row 3 has 2 values, expected 3"});
    add({"matrix long row", F::Matrix, "m.csv", ",a,b\na,0,1\nb,1,0,1\n", "", false, {}, false, 3,
         "row 2 has 3 values, expected 2"});
    add({"matrix more rows", F::Matrix, "m.csv", "0,1\n1,0\n1,1\n", "", false, {}, false, 3,
         "more rows than its 2 columns"});
    add({"matrix fewer rows", F::Matrix, "m.csv", "0,1,1\n1,0,1\n", "", false, {}, false, 0, "has 2 rows but 3 columns"});
    add({"matrix header count", F::Matrix, "m.csv", "a,b,c,d\n0,1,1\n1,0,1\n1,1,0\n", "", false, {}, false, 1,
         "the header names 4 nodes but the first row has 3 values"});
    add({"matrix repeated name", F::Matrix, "m.csv", "a,b,a\n0,1,1\n1,0,1\n1,1,0\n", "", false, {}, false, 1,
         "'a' appears twice in the header (columns 1 and 3)"});
    add({"matrix row name mismatch", F::Matrix, "m.csv", ",a,b,c\na,0,1,1\nc,1,0,1\nb,1,1,0\n", "", false, {}, false, 3,
         "row name 'c' does not match the header's name 'b'"});
    add({"matrix negative", F::Matrix, "m.csv", "0,1,1\n1,0,-2\n1,1,0\n", "", false, {}, false, 2,
         "value -2 in column 3 is negative"});
    add({"matrix text value", F::Matrix, "m.tsv", "0\t1\t1\n1\t0\tx\n1\t1\t0\n", "", false, {}, false, 2,
         "value 'x' in column 3 is not a number"});
    add({"matrix not utf-8", F::Matrix, "m.csv", ",a,\xE9\n", "", false, {}, false, 1,
         "invalid UTF-8 (byte 0xE9 at column 4)"});
    add({"matrix huge line", F::Matrix, "m.csv", "0,1\n" + hugeLine() + "\n", "", false, {}, false, 2, "longer than 4 MB"});
    add({"matrix all zero", F::Matrix, "m.csv", "0 0 0\n0 0 0\n0 0 0\n", "", false, {}, false, 0, "holds no edges"});
    add({"matrix name not in nodes", F::Matrix, "m.csv", ",1,2,7\n1,0,1,0\n2,1,0,1\n7,0,1,0\n", goodNodes, false, {},
         false, 1, "node '7' is not in the nodes file"});
    // GML.
    add({"gml empty", F::Gml, "g.gml", "", "", false, {}, false, 0, "is empty"});
    add({"gml blank", F::Gml, "g.gml", "\n  \n\n", "", false, {}, false, 0, "holds no graph"});
    add({"gml binary", F::Auto, "g.gml", binaryBytes(), "", false, {}, false, 1, "NUL byte"});
    add({"gml unclosed bracket", F::Gml, "g.gml", gmlHead + "  edge [ source 1 target 2\n", "", false, {}, false, 5,
         "cannot be read as GML: syntax error, unexpected end of file"});
    add({"gml not utf-8", F::Gml, "g.gml", "graph [\n  node [ id 1 label \"Caf\xE9\" ]\n]\n", "", false, {}, false, 2,
         "invalid UTF-8 (byte 0xE9 at column 25)"});
    add({"gml huge line", F::Gml, "g.gml", "graph [\n" + hugeLine() + "\n]\n", "", false, {}, false, 2, "longer than 4 MB"});
    add({"gml words", F::Gml, "g.gml", "hello world\n", "", false, {}, false, 1, "cannot be read as GML: syntax error"});
    add({"gml duplicate id", F::Gml, "g.gml", gmlHead + "  node [ id 1 ]\n]\n", "", false, {}, false, 5,
         "Duplicate node id"});
    add({"gml unknown target", F::Gml, "g.gml", gmlHead + "  edge [ source 1 target 3 ]\n]\n", "", false, {}, false, 5,
         "Unknown target node id"});
    add({"gml negative weight", F::Gml, "g.gml", gmlHead + "  edge [ source 1 target 2 weight -3 ]\n]\n", "", false, {},
         false, 5, "the weight -3 of edge 1 from '1' to '2' is not above 0"});
    add({"gml text weight", F::Gml, "g.gml", gmlHead + "  edge [ source 1 target 2 weight \"heavy\" ]\n]\n", "", false,
         {}, false, 5, "the weight 'heavy' of edge 1 from '1' to '2' is not a number"});
    add({"gml no edges", F::Gml, "g.gml", gmlHead + "]\n", "", false, {}, false, 0, "holds no edges"});
    add({"gml id not in nodes", F::Gml, "g.gml", "graph [\n node [ id 0 ]\n node [ id 1 ]\n edge [ source 0 target 1 ]\n]\n",
         goodNodes, false, {}, false, 2, "node '0' is not in the nodes file"});
    // GraphML.
    add({"graphml empty", F::GraphMl, "g.graphml", "", "", false, {}, false, 0, "is empty"});
    add({"graphml binary", F::GraphMl, "g.graphml", "<?xml version=\"1.0\"?>\n<graphml>\n" + binaryBytes(), "", false,
         {}, false, 3, "NUL byte"});
    add({"graphml cut", F::GraphMl, "g.graphml", graphmlHead + "<edge source=\"a\" tar", "", false, {}, false, 7,
         "cannot be read as GraphML: Couldn't find end of Start Tag edge"});
    add({"graphml not xml", F::GraphMl, "g.xml", "\n\nsource,target\n1,2\n", "", false, {}, false, 3,
         "does not look like GraphML"});
    add({"graphml huge line", F::GraphMl, "g.graphml", hugeLine(), "", false, {}, false, 1, "does not look like GraphML"});
    add({"graphml huge text", F::GraphMl, "g.graphml", "<?xml version=\"1.0\"?>\n<graphml>" + hugeLine(), "", false, {},
         false, 2, "holds a text longer than 4 MB in one element"});
    add({"graphml not utf-8", F::GraphMl, "g.graphml", graphmlHead + "<node id=\"Caf\xE9\"/>\n" + graphmlTail, "", false,
         {}, false, 7, "not valid UTF-8"});
    add({"graphml no graph", F::GraphMl, "g.graphml", "<?xml version=\"1.0\"?>\n<graphml><key id=\"k\"/></graphml>\n", "",
         false, {}, false, 0, "holds no <graph> element"});
    add({"graphml negative weight", F::GraphMl, "g.graphml",
         graphmlHead + "<edge source=\"a\" target=\"b\"><data key=\"w\">-1.5</data></edge>\n" + graphmlTail, "", false,
         {}, false, 7, "the weight -1.5 of edge 1 from 'a' to 'b' is not above 0"});
    add({"graphml nan weight", F::GraphMl, "g.graphml",
         graphmlHead + "<edge source=\"a\" target=\"b\">\n<data key=\"w\">NaN</data></edge>\n" + graphmlTail, "",
         false, {}, false, 8, "a weight that is not a finite number"});
    add({"gml nan weight", F::Gml, "g.gml", gmlHead + "  edge [ source 1 target 2 weight nan ]\n]\n", "", false, {},
         false, 5, "a weight that is not a finite number"});
    add({"edges weights summing beyond a double", F::EdgeList, "e.csv", "a,b,1e308\nb,a,1e308\n", "", false, {}, false,
         0, "sum to a weight beyond the range of a double"});
    add({"graphml no edges", F::GraphMl, "g.graphml", graphmlHead + graphmlTail, "", false, {}, false, 0, "holds no edges"});
    add({"graphml id not in nodes", F::GraphMl, "g.graphml", graphmlHead + "<edge source=\"a\" target=\"b\"/>\n" + graphmlTail,
         goodNodes, false, {}, false, 5, "node 'a' is not in the nodes file"});
    // A node igraph makes for an edge's undeclared end takes that edge's line; an id written with
    // XML's entities is found by its decoded text.
    const std::string abNodes = "id,name\na,A\nb,B\n";
    add({"graphml undeclared end not in nodes", F::GraphMl, "g.graphml",
         graphmlHead + "<edge source=\"a\" target=\"b\"/>\n<edge source=\"b\" target=\"zz\"/>\n" + graphmlTail, abNodes,
         false, {}, false, 8, "node 'zz' is not in the nodes file"});
    add({"graphml entity id not in nodes", F::GraphMl, "g.graphml",
         graphmlHead + "<node id=\"x&amp;&#121;\"/>\n<edge source=\"a\" target=\"b\"/>\n" + graphmlTail, abNodes, false,
         {}, false, 7, "node 'x&y' is not in the nodes file"});
    // Pajek.
    add({"pajek empty", F::Pajek, "g.net", "", "", false, {}, false, 0, "is empty"});
    add({"pajek binary", F::Auto, "g.net", binaryBytes(), "", false, {}, false, 1, "NUL byte"});
    add({"pajek arc beyond vertices", F::Pajek, "g.net", "*Vertices 5\n*Arcs\n1 2\n3 9\n", "", false, {}, false, 4,
         "vertex 9 is out of range: *Vertices declares 5 vertices"});
    add({"pajek not utf-8", F::Pajek, "g.net", "*Vertices 2\n1 \"Caf\xE9\"\n2 \"b\"\n*Edges\n1 2\n", "", false, {}, false,
         2, "invalid UTF-8 (byte 0xE9 at column 7)"});
    add({"pajek huge line", F::Pajek, "g.net", "*Vertices 2\n" + hugeLine() + "\n", "", false, {}, false, 2,
         "longer than 4 MB"});
    add({"pajek words", F::Pajek, "g.net", "hello world\n", "", false, {}, false, 1,
         "cannot be read as Pajek: syntax error, unexpected word"});
    add({"pajek networkx attributes", F::Pajek, "g.net", fileBytes(fixture("graph/karate_nx_attributes.net")), "", false,
         {}, false, 2, "cannot be read as Pajek: syntax error"});
    add({"pajek text weight", F::Pajek, "g.net", "*Vertices 3\n1 \"a\"\n*Arcs\n1 2 abc\n", "", false, {}, false, 4,
         "syntax error"});
    add({"pajek negative weight", F::Pajek, "g.net", "*Vertices 3\n*Arcs\n1 2 2\n1 3 -1\n", "", false, {}, false, 4,
         "the weight -1 of the edge from '1' to '3' is not above 0"});
    add({"pajek mixed sections", F::Pajek, "g.net", "*Vertices 3\n*Arcs\n1 2\n*Edges\n1 3\n", "", false, {}, false, 4,
         "mixes *Arcs and *Edges"});
    add({"pajek unclosed quote", F::Pajek, "g.net", "*Vertices 2\n1 \"Ann\n2 \"Bob\"\n*Edges\n1 2\n", "", false, {},
         false, 2, "opens a quote it does not close"});
    add({"pajek header beyond its content", F::Pajek, "g.net", "*Vertices 200000000\n*Edges\n1 2\n", "", false, {},
         false, 1, "*Vertices declares 200000000 vertices, but the file labels or links 2"});
    add({"pajek no edges", F::Pajek, "g.net", "*Vertices 3\n", "", false, {}, false, 0, "holds no edges"});
    add({"pajek only self-loop", F::Pajek, "g.net", "*Vertices 3\n*Edges\n2 2\n", "", false, {}, false, 0,
         "holds no edges other than 1 self-loop"});
    add({"pajek vertex not in nodes", F::Pajek, "g.net", "*Vertices 4\n*Edges\n1 4\n", goodNodes, false, {}, false, 3,
         "node '4' is not in the nodes file"});
    // Errors igraph gives without a line, and the reader's own about the n-th node or edge, name
    // the line of the element behind them (issue 21).
    add({"gml 1e999 weight", F::Gml, "g.gml", gmlHead + "  edge [ source 1 target 2 weight 1e999 ]\n]\n", "", false, {},
         false, 5, "cannot be read as GML: Failed to parse real number: '1e999' is beyond the range of a double"});
    add({"gml 1e999 attribute", F::Gml, "g.gml", gmlHead + "  node [ id 3 label \"1e999\" size\n 1e999 ]\n  edge [ source 1 target 2 ]\n]\n",
         "", false, {}, false, 6, "'1e999' is beyond the range of a double"});
    add({"gml second edge's weight", F::Gml, "g.gml", gmlHead + "  edge [ source 1 target 2 ]\n  edge [\n source 2 target 1 weight 0 ]\n]\n",
         "", false, {}, false, 6, "the weight 0 of edge 2 from"});
    add({"gml node without id", F::Gml, "g.gml", "graph [\n  node [ id 1 ]\n  node [ label \"x\" ]\n  edge [ source 1 target 1 ]\n]\n",
         "", false, {}, false, 3, "node id '1' is used by more than one node"});
    add({"graphml edge without target", F::GraphMl, "g.graphml", graphmlHead + "<edge source=\"a\" target=\"b\"/>\n<edge source=\"a\"/>\n" + graphmlTail,
         "", false, {}, false, 8, "Edge with missing source or target"});
    add({"graphml node without id", F::GraphMl, "g.graphml", graphmlHead + "<edge source=\"a\" target=\"b\"/>\n<node>\n</node>\n" + graphmlTail,
         "", false, {}, false, 8, "Node with missing ID"});
    add({"graphml key without id", F::GraphMl, "g.graphml", "<?xml version=\"1.0\"?>\n<graphml>\n<key for=\"edge\" attr.name=\"weight\" attr.type=\"double\"/>\n<graph>\n<node id=\"a\"/><node id=\"b\"/><edge source=\"a\" target=\"b\"/>\n" + graphmlTail,
         "", false, {}, false, 3, "no 'id' attribute"});
    add({"graphml unknown attribute type", F::GraphMl, "g.graphml", "<?xml version=\"1.0\"?>\n<graphml>\n<key id=\"w\" for=\"edge\"\n attr.name=\"weight\" attr.type=\"blob\"/>\n<graph>\n<node id=\"a\"/><node id=\"b\"/><edge source=\"a\" target=\"b\"/>\n" + graphmlTail,
         "", false, {}, false, 3, "Unknown attribute type 'blob'"});
    add({"graphml text weight", F::GraphMl, "g.graphml", graphmlHead + "<edge source=\"a\" target=\"b\"/>\n<edge source=\"a\" target=\"b\"><data key=\"w\">abc</data></edge>\n" + graphmlTail,
         "", false, {}, false, 8, "'abc' is not a number"});
    add({"graphml 1e999 weight", F::GraphMl, "g.graphml", graphmlHead + "<edge source=\"a\" target=\"b\"/>\n<edge source=\"a\" target=\"b\">\n<data key=\"w\">1e999</data></edge>\n" + graphmlTail,
         "", false, {}, false, 9, "'1e999' is beyond the range of a double"});
    add({"graphml second edge's weight", F::GraphMl, "g.graphml", graphmlHead + "<edge source=\"a\" target=\"b\"/>\n<!-- <edge> -->\n<edge source=\"b\" target=\"a\"><data key=\"w\">0</data></edge>\n" + graphmlTail,
         "", false, {}, false, 9, "the weight 0 of edge 2 from"});
    add({"graphml '>' in an attribute", F::GraphMl, "g.graphml", graphmlHead + "<node id=\"c>d\"/>\n<edge source=\"a\" target=\"b\"/>\n" + graphmlTail,
         "id,name\na,A\nb,B\n", false, {}, false, 7, "node 'c>d' is not in the nodes file"});
    add({"graphml huge attribute", F::GraphMl, "g.graphml", graphmlHead + "<node id=\"c\">\n<data key=\"w\">" + std::string(std::size_t{5} << 20, 'y') + "</data></node>\n" + graphmlTail,
         "", false, {}, false, 8, "holds a text longer than 4 MB in one element"});
    add({"graphml huge tag", F::GraphMl, "g.graphml", graphmlHead + "<node id=\"" + std::string(std::size_t{5} << 20, 'y') + "\"/>\n" + graphmlTail,
         "", false, {}, false, 7, "holds a tag (or comment) longer than 4 MB"});
    add({"pajek arcslist beyond vertices", F::Pajek, "g.net", "*Vertices 3\n*Arcslist\n1 2 3\n2 9\n", "", false, {}, false, 4,
         "vertex 9 is out of range: *Vertices declares 3 vertices"});
    add({"pajek edgeslist vertex 0", F::Pajek, "g.net", "*Vertices 3\n*Edgeslist\n1 2\n1 0\n", "", false, {}, false, 4,
         "vertex 0 is out of range"});
    add({"pajek matrix beyond vertices", F::Pajek, "g.net", "*Vertices 3\n*Matrix\n0 1 0\n1 0 1 1\n0 1 0\n", "", false, {}, false, 4,
         "*Matrix row 2 reaches beyond the 3 vertices"});
    add({"pajek two-mode beyond vertices", F::Pajek, "g.net", "*Vertices 3 5\n*Edges\n1 2\n", "", false, {}, false, 1,
         "the first kind's 5 vertices are not among the 3 declared"});
    add({"pajek vertex line beyond", F::Pajek, "g.net", "*Vertices 3\n1 \"a\"\n5 \"x\"\n*Edges\n1 2\n", "", false, {}, false, 3,
         "Invalid vertex id"});
    add({"pajek 1e999 weight", F::Pajek, "g.net", "*Vertices 3\n1 \"1e999\"\n*Edges\n1 2 2\n1 3 1e999\n", "", false, {}, false, 5,
         "'1e999' is beyond the range of a double"});
    return c;
  }();
  return cases;
}
// clang-format on

// Writes a case's files into `scratch` and returns the read options and the graph file's path.
inline std::filesystem::path writeBadCase(const Scratch& scratch, const BadGraphCase& k,
                                          core::GraphReadOptions& options, std::filesystem::path& nodesPath) {
  const auto path = scratch.write(k.fileName, k.contents);
  options = {};
  options.format = k.format;
  options.directed = k.directed;
  nodesPath.clear();
  if (!k.nodesContents.empty() || k.nodesEmpty) {
    nodesPath = scratch.write("nodes.csv", k.nodesContents);
    options.nodes = nodesPath;
  }
  return path;
}

}  // namespace latent::test
