// SPDX-License-Identifier: GPL-3.0-or-later
// GEXF 1.2 and GraphML writers. Both formats declare their attributes first (GEXF: <attributes>,
// GraphML: <key>), then list the nodes with their values and the edges with their weights.
#include "core/io/graph_xml_export.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>

namespace latent::core {
namespace {

// Drawings are in [-1, 1]; Gephi and yEd work in screen units, where a few hundred across is a
// drawing of ordinary size.
constexpr double kXmlPositionScale = 500.0;

std::string xmlNumber(double value) {
  if (!std::isfinite(value)) return "0";
  char buffer[32];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, end);
}

// One node attribute as both formats declare it.
struct XmlAttribute {
  std::string name;
  std::string type;  // GEXF's: "string", "integer", "double"
};

std::string graphMlType(const std::string& gexfType) { return gexfType == "integer" ? "int" : gexfType; }

// The attributes in file order: the dataset's own, then the run's block and memberships.
struct NodeTable {
  std::vector<XmlAttribute> attributes;
  std::size_t datasetCount = 0;
  bool hasBlock = false;
  std::size_t memberships = 0;
  bool hasPositions = false;

  // The value of attribute `a` for node `v`, as text; "" when the node has none.
  std::string value(const Graph& graph, const GraphNodeResults& results, std::size_t a, std::size_t v) const {
    if (a < datasetCount) return v < graph.attributes[a].size() ? graph.attributes[a][v] : std::string();
    a -= datasetCount;
    if (hasBlock) {
      if (a == 0) return std::to_string(results.blocks[v]);
      --a;
    }
    return xmlNumber(results.memberships(static_cast<Eigen::Index>(v), static_cast<Eigen::Index>(a)));
  }
};

NodeTable nodeTable(const Graph& graph, const GraphNodeResults& results) {
  const auto n = graph.nodeCount();
  if (!results.blocks.empty() && results.blocks.size() != n)
    throw std::invalid_argument("the blocks do not cover the graph's nodes");
  if (results.memberships.size() > 0 && static_cast<std::size_t>(results.memberships.rows()) != n)
    throw std::invalid_argument("the memberships do not cover the graph's nodes");
  if (results.positions.rows() > 0 && static_cast<std::size_t>(results.positions.rows()) != n)
    throw std::invalid_argument("the drawing does not cover the graph's nodes");
  NodeTable table;
  table.hasBlock = !results.blocks.empty();
  table.memberships = results.memberships.size() > 0 ? static_cast<std::size_t>(results.memberships.cols()) : 0;
  table.hasPositions = results.positions.rows() > 0;
  std::vector<std::string> ours;
  if (table.hasBlock) ours.emplace_back(kBlockAttribute);
  for (std::size_t k = 0; k < table.memberships; ++k) ours.push_back(membershipAttribute(k));
  // Names the formats or the readers give a meaning of their own.
  const std::vector<std::string> reserved = {"id", "name", "label", "x", "y", "weight"};
  for (const auto& name : graph.attributeNames) {
    const bool taken = std::find(ours.begin(), ours.end(), name) != ours.end() ||
                       std::find(reserved.begin(), reserved.end(), name) != reserved.end();
    table.attributes.push_back({taken ? name + " (dataset)" : name, "string"});
  }
  table.datasetCount = graph.attributeNames.size();
  if (table.hasBlock) table.attributes.push_back({ours.front(), "integer"});
  for (std::size_t k = 0; k < table.memberships; ++k) table.attributes.push_back({membershipAttribute(k), "double"});
  return table;
}

// GEXF 1.2draft: what Gephi 0.9 and 0.10 and networkx read by default.
void writeGexf(const Graph& graph, const GraphNodeResults& results, const NodeTable& table, std::ostream& out) {
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
         "<gexf xmlns=\"http://www.gexf.net/1.2draft\" xmlns:viz=\"http://www.gexf.net/1.2draft/viz\" "
         "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:schemaLocation=\"http://www.gexf.net/1.2draft "
         "http://www.gexf.net/1.2draft/gexf.xsd\" version=\"1.2\">\n";
  out << "  <meta>\n    <creator>Latent Studio</creator>\n";
  if (!results.description.empty()) out << "    <description>" << xmlEscape(results.description) << "</description>\n";
  out << "  </meta>\n";
  out << "  <graph mode=\"static\" defaultedgetype=\"" << (graph.directed ? "directed" : "undirected") << "\">\n";
  if (!table.attributes.empty()) {
    out << "    <attributes class=\"node\">\n";
    for (std::size_t a = 0; a < table.attributes.size(); ++a)
      out << "      <attribute id=\"" << a << "\" title=\"" << xmlEscape(table.attributes[a].name) << "\" type=\""
          << table.attributes[a].type << "\"/>\n";
    out << "    </attributes>\n";
  }
  out << "    <nodes>\n";
  for (std::size_t v = 0; v < graph.nodeCount(); ++v) {
    out << "      <node id=\"" << xmlEscape(graph.nodeIds[v]) << "\" label=\"" << xmlEscape(graph.nodeNames[v])
        << "\">\n";
    bool opened = false;
    for (std::size_t a = 0; a < table.attributes.size(); ++a) {
      const std::string value = table.value(graph, results, a, v);
      if (value.empty()) continue;  // a missing value is no <attvalue>
      if (!opened) out << "        <attvalues>\n";
      opened = true;
      out << "          <attvalue for=\"" << a << "\" value=\"" << xmlEscape(value) << "\"/>\n";
    }
    if (opened) out << "        </attvalues>\n";
    if (table.hasPositions) {
      const auto row = static_cast<Eigen::Index>(v);
      // GEXF's y axis points up, the screen's down.
      out << "        <viz:position x=\"" << xmlNumber(kXmlPositionScale * results.positions(row, 0)) << "\" y=\""
          << xmlNumber(-kXmlPositionScale * results.positions(row, 1)) << "\" z=\"0\"/>\n";
    }
    out << "      </node>\n";
  }
  out << "    </nodes>\n    <edges>\n";
  for (std::size_t e = 0; e < graph.edges.size(); ++e) {
    const auto& edge = graph.edges[e];
    out << "      <edge id=\"" << e << "\" source=\"" << xmlEscape(graph.nodeIds[static_cast<std::size_t>(edge.source)])
        << "\" target=\"" << xmlEscape(graph.nodeIds[static_cast<std::size_t>(edge.target)]) << "\" weight=\""
        << xmlNumber(edge.weight) << "\"/>\n";
  }
  out << "    </edges>\n  </graph>\n</gexf>\n";
}

// GraphML: keys d0, d1, ... so that no attribute name has to be an XML id.
void writeGraphMl(const Graph& graph, const GraphNodeResults& results, const NodeTable& table, std::ostream& out) {
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
         "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\" "
         "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
         "xsi:schemaLocation=\"http://graphml.graphdrawing.org/xmlns "
         "http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd\">\n";
  if (!results.description.empty()) out << "  <desc>" << xmlEscape(results.description) << "</desc>\n";
  out << "  <key id=\"name\" for=\"node\" attr.name=\"name\" attr.type=\"string\"/>\n";
  for (std::size_t a = 0; a < table.attributes.size(); ++a)
    out << "  <key id=\"d" << a << "\" for=\"node\" attr.name=\"" << xmlEscape(table.attributes[a].name)
        << "\" attr.type=\"" << graphMlType(table.attributes[a].type) << "\"/>\n";
  if (table.hasPositions)
    out << "  <key id=\"x\" for=\"node\" attr.name=\"x\" attr.type=\"double\"/>\n"
           "  <key id=\"y\" for=\"node\" attr.name=\"y\" attr.type=\"double\"/>\n";
  out << "  <key id=\"weight\" for=\"edge\" attr.name=\"weight\" attr.type=\"double\"/>\n";
  out << "  <graph id=\"G\" edgedefault=\"" << (graph.directed ? "directed" : "undirected") << "\">\n";
  for (std::size_t v = 0; v < graph.nodeCount(); ++v) {
    out << "    <node id=\"" << xmlEscape(graph.nodeIds[v]) << "\">\n      <data key=\"name\">"
        << xmlEscape(graph.nodeNames[v]) << "</data>\n";
    for (std::size_t a = 0; a < table.attributes.size(); ++a) {
      const std::string value = table.value(graph, results, a, v);
      if (!value.empty()) out << "      <data key=\"d" << a << "\">" << xmlEscape(value) << "</data>\n";
    }
    if (table.hasPositions) {
      const auto row = static_cast<Eigen::Index>(v);
      out << "      <data key=\"x\">" << xmlNumber(kXmlPositionScale * results.positions(row, 0))
          << "</data>\n      <data key=\"y\">" << xmlNumber(kXmlPositionScale * results.positions(row, 1))
          << "</data>\n";
    }
    out << "    </node>\n";
  }
  for (const auto& edge : graph.edges)
    out << "    <edge source=\"" << xmlEscape(graph.nodeIds[static_cast<std::size_t>(edge.source)]) << "\" target=\""
        << xmlEscape(graph.nodeIds[static_cast<std::size_t>(edge.target)]) << "\"><data key=\"weight\">"
        << xmlNumber(edge.weight) << "</data></edge>\n";
  out << "  </graph>\n</graphml>\n";
}

}  // namespace

std::string membershipAttribute(std::size_t block) { return "block_" + std::to_string(block); }

std::string xmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      // Kept as characters references: a parser turns literal ones in attributes into spaces.
      case '\t':
        out += "&#9;";
        break;
      case '\n':
        out += "&#10;";
        break;
      case '\r':
        out += "&#13;";
        break;
      default:
        if (u < 0x20)
          out += "\xEF\xBF\xBD";  // U+FFFD: XML 1.0 has no way to write the other control characters
        else
          out += c;
    }
  }
  return out;
}

void writeGraphXml(const Graph& graph, const GraphNodeResults& results, GraphXmlFormat format, std::ostream& out) {
  const NodeTable table = nodeTable(graph, results);
  if (format == GraphXmlFormat::Gexf)
    writeGexf(graph, results, table, out);
  else
    writeGraphMl(graph, results, table, out);
}

}  // namespace latent::core
