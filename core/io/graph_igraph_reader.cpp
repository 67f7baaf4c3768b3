// SPDX-License-Identifier: GPL-3.0-or-later
// GML, GraphML and Pajek, parsed by igraph 0.10 and turned into the project's Graph.
//
// Accepted
// - Whatever igraph's parsers accept (igraph_read_graph_gml, _graphml with the first graph of the
//   file, _pajek). Before igraph sees the file it is scanned: a NUL byte means a binary file, and a
//   GML or Pajek file must be UTF-8 with lines under 4 MB (so errors name the line); GraphML's
//   encoding is libxml2's business and its strings are checked for UTF-8 afterwards (line 0).
// - Node ids: GML's numeric "id" (written as text, "12"; networkx numbers its GML nodes 0..n-1
//   and keeps its own key in "label"); GraphML's id strings as in the file; Pajek's vertex
//   numbers 1..n. A repeated GML id is igraph's parse error; GraphML, see below.
// - Names: the "name" vertex attribute, else "label", else the id (a nodes file's names win).
// - Attributes: GML and GraphML vertex attributes other than the id and the one used for names,
//   as text (numbers without trailing zeros, booleans as true/false, missing numbers as "").
//   Pajek vertex lines hold only drawing parameters (coordinates, shape, colours), which are not
//   kept; only igraph's "type" of two-mode (*Vertices n n1) files is.
// - Weights: the "weight" edge attribute, else "value", else 1; a missing number counts as 1.
//   A weight must be a number above 0.
// - Direction: --directed/--undirected; otherwise what the file declares (GML "directed 1",
//   GraphML edgedefault, Pajek *Arcs vs *Edges). --undirected on a directed file merges a->b and
//   b->a (summing weights); --directed on an undirected file makes each edge two arcs. A Pajek
//   file mixing *Arcs and *Edges sections is refused (with the line) unless --undirected is given.
// - GraphML through igraph: a repeated node id is one node, and an edge naming an undeclared id
//   creates that node (igraph does both silently). Pajek: "*Vertices 5" with fewer vertex lines
//   is legal; the unlisted vertices are nodes named by their number.
// - A nodes file matches against those ids, fixes node order and adds its columns.
// Rejected (InputError): igraph's parse errors, with the line when igraph names one; a NUL byte;
// invalid UTF-8 (GML, Pajek: with the line); a file of blank lines; repeated node ids; ids not in
// the nodes file; bad weights; a graph with no edges.
//
// igraph is not thread-safe: each read holds an IgraphSession (core/util/igraph_session.hpp).
#include <igraph/igraph.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <stop_token>

#include <sys/types.h>

#include "core/io/graph_builder.hpp"
#include "core/io/graph_reading.hpp"
#include "core/util/errors.hpp"
#include "core/util/igraph_session.hpp"
#include "core/util/input_file.hpp"
#include "core/util/line_reader.hpp"
#include "core/util/parse_number.hpp"
#include "core/util/utf8.hpp"

namespace latent::core::graph_detail {
namespace {

void check(igraph_error_t rc) {
  if (rc != IGRAPH_SUCCESS) throw std::bad_alloc();  // the calls checked here fail only for memory
}

// RAII holders so every path, exceptions included, frees what igraph allocated.
struct GraphHolder {
  igraph_t graph;
  bool live = false;
  ~GraphHolder() {
    if (live) igraph_destroy(&graph);
  }
};
struct StrVector {
  igraph_strvector_t v;
  StrVector() { check(igraph_strvector_init(&v, 0)); }
  ~StrVector() { igraph_strvector_destroy(&v); }
};
struct IntVector {
  igraph_vector_int_t v;
  IntVector() { check(igraph_vector_int_init(&v, 0)); }
  ~IntVector() { igraph_vector_int_destroy(&v); }
};
struct RealVector {
  igraph_vector_t v;
  RealVector() { check(igraph_vector_init(&v, 0)); }
  ~RealVector() { igraph_vector_destroy(&v); }
};
struct BoolVector {
  igraph_vector_bool_t v;
  BoolVector() { check(igraph_vector_bool_init(&v, 0)); }
  ~BoolVector() { igraph_vector_bool_destroy(&v); }
};
std::string_view formatName(GraphFormat format) {
  switch (format) {
    case GraphFormat::Gml:
      return "GML";
    case GraphFormat::GraphMl:
      return "GraphML";
    default:
      return "Pajek";
  }
}

// igraph's message as an InputError: "line N" (igraph) or "Line N:" (libxml2) becomes the error's
// line, the rest its reason.
// Errors igraph gives without a line (an edge naming no target, "1e999") take the line of the
// element the scan found behind them.
[[noreturn]] void throwParseError(const std::string& file, GraphFormat format, std::string message,
                                  const IgraphScan& scan) {
  const std::int64_t lineCount = scan.lineCount;
  // libxml2 adds the offending bytes on a second line; the first says it all.
  if (const auto newline = message.find('\n'); newline != std::string::npos) message.erase(newline);
  std::int64_t line = 0;
  std::string lower = message;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (std::size_t at = lower.find("line "); at != std::string::npos; at = lower.find("line ", at + 1)) {
    std::size_t end = at + 5;
    while (end < lower.size() && std::isdigit(static_cast<unsigned char>(lower[end]))) ++end;
    if (end == at + 5) continue;
    line = parseInteger(std::string_view(message).substr(at + 5, end - at - 5)).value_or(0);
    // Drop ", line 5", "Line 5: " and the like, with the punctuation that joined them.
    std::size_t begin = at;
    if (begin >= 2 && message.compare(begin - 2, 2, ", ") == 0)
      begin -= 2;
    else if (begin >= 1 && message[begin - 1] == ' ')
      begin -= 1;
    if (end < message.size() && message[end] == ':') ++end;
    while (end < message.size() && message[end] == ' ' && begin == 0) ++end;
    message.erase(begin, end - begin);
    break;
  }
  // "Parse error in GML file (syntax error, unexpected ...)" -> "syntax error, unexpected ..."
  if (const auto open = message.find(" ("); open != std::string::npos && !message.empty() && message.back() == ')' &&
                                            message.compare(0, 11, "Parse error") == 0)
    message = message.substr(open + 2, message.size() - open - 3);
  while (!message.empty() && (message.back() == '.' || message.back() == ' ' || message.back() == '!'))
    message.pop_back();
  while (!message.empty() && message.front() == ' ') message.erase(0, 1);
  if (message.empty()) message = "unknown error";
  if (message == "Graph index was too large") message = "the file holds no <graph> element";
  if (message.rfind("Input is not proper UTF-8", 0) == 0)
    message = "the text is not valid UTF-8; save it as UTF-8 or declare its encoding in the <?xml ...?> line";
  // Pajek's parser calls any word "ALNUM".
  for (std::size_t at = message.find("ALNUM"); at != std::string::npos; at = message.find("ALNUM", at))
    message.replace(at, 5, "word");
  if (lineCount > 0 && line > lineCount) line = lineCount;  // "line n+1" for an end of file
  if (line == 0)
    if (const auto* culprit = scan.culpritFor(message)) {
      line = culprit->line;
      if (!culprit->detail.empty()) message += ": " + culprit->detail;
    }
  throw InputError(file, line, "cannot be read as " + std::string(formatName(format)) + ": " + message);
}

// Every vertex's value of one attribute as text.
std::vector<std::string> vertexText(const igraph_t* graph, const char* name, igraph_integer_t type) {
  const auto n = static_cast<std::size_t>(igraph_vcount(graph));
  std::vector<std::string> out(n);
  if (type == IGRAPH_ATTRIBUTE_NUMERIC) {
    RealVector values;
    check(igraph_cattribute_VANV(graph, name, igraph_vss_all(), &values.v));
    for (std::size_t i = 0; i < n; ++i) {
      const double x = VECTOR(values.v)[i];
      if (!std::isnan(x)) out[i] = formatNumber(x);
    }
  } else if (type == IGRAPH_ATTRIBUTE_STRING) {
    StrVector values;
    check(igraph_cattribute_VASV(graph, name, igraph_vss_all(), &values.v));
    for (std::size_t i = 0; i < n; ++i) out[i] = igraph_strvector_get(&values.v, static_cast<igraph_integer_t>(i));
  } else if (type == IGRAPH_ATTRIBUTE_BOOLEAN) {
    BoolVector values;
    check(igraph_cattribute_VABV(graph, name, igraph_vss_all(), &values.v));
    for (std::size_t i = 0; i < n; ++i) out[i] = VECTOR(values.v)[i] ? "true" : "false";
  }
  return out;
}

// igraph reads a GraphML id through libxml2's SAX2 interface, which hands over an attribute's value
// with every '&' (written "&amp;" in the file) as the character reference "&#38;", so that it
// cannot be taken for an entity; element text (the <data> values) comes through plain. Every '&'
// of the id arrives so, which makes this replacement, left to right, the exact inverse.
std::string unescapeGraphMlId(const std::string& id) {
  static constexpr std::string_view kAmpersand = "&#38;";
  if (id.find(kAmpersand) == std::string::npos) return id;
  std::string out;
  out.reserve(id.size());
  for (std::size_t at = 0; at < id.size();) {
    if (id.compare(at, kAmpersand.size(), kAmpersand) == 0) {
      out += '&';
      at += kAmpersand.size();
    } else {
      out += id[at++];
    }
  }
  return out;
}

struct AttributeList {
  std::vector<std::string> names;
  std::vector<igraph_integer_t> types;
  int find(std::string_view name) const {
    for (std::size_t i = 0; i < names.size(); ++i)
      if (names[i] == name) return static_cast<int>(i);
    return -1;
  }
};

void listAttributes(const igraph_t* graph, AttributeList& vertex, AttributeList& edge) {
  StrVector graphNames, vertexNames, edgeNames;
  IntVector graphTypes, vertexTypes, edgeTypes;
  check(igraph_cattribute_list(graph, &graphNames.v, &graphTypes.v, &vertexNames.v, &vertexTypes.v, &edgeNames.v,
                               &edgeTypes.v));
  for (igraph_integer_t i = 0; i < igraph_strvector_size(&vertexNames.v); ++i) {
    vertex.names.emplace_back(igraph_strvector_get(&vertexNames.v, i));
    vertex.types.push_back(VECTOR(vertexTypes.v)[i]);
  }
  for (igraph_integer_t i = 0; i < igraph_strvector_size(&edgeNames.v); ++i) {
    edge.names.emplace_back(igraph_strvector_get(&edgeNames.v, i));
    edge.types.push_back(VECTOR(edgeTypes.v)[i]);
  }
}

// What is taken out of igraph while the lock is held; the rest works on plain vectors.
struct Extracted {
  bool directed = false;
  std::vector<std::string> ids, names;
  std::vector<std::string> attributeNames;
  std::vector<std::vector<std::string>> attributes;
  std::vector<std::int64_t> from, to;
  std::vector<double> weights;          // empty: every edge weighs 1
  std::vector<std::string> weightText;  // the weights when the file gives them as strings
  std::string weightName;
  std::vector<std::string> warnings;
};

ssize_t readUntilStopped(void* cookie, char* buffer, std::size_t size) {
  auto* read = static_cast<StopAwareRead*>(cookie);
  if (read->stop.stop_requested()) {
    read->stopped = true;
    return 0;
  }
  const std::size_t got = std::fread(buffer, 1, size, read->file);
  if (got == 0 && std::ferror(read->file)) return -1;
  return static_cast<ssize_t>(got);
}

Extracted extract(const std::filesystem::path& source, GraphFormat format, const IgraphScan& scan,
                  const ImportControl& control) {
  const std::string file = source.string();
  IgraphSession session;
  const auto f = openInputFile(source);  // igraph's readers take a FILE*
  // igraph's GML and Pajek parsers take a UTF-8 byte order mark for part of the first keyword
  // (libxml2 reads GraphML's itself).
  if (format != GraphFormat::GraphMl) {
    char head[3] = {};
    if (std::fread(head, 1, 3, f.get()) != 3 || std::memcmp(head, "\xEF\xBB\xBF", 3) != 0) std::rewind(f.get());
  }
  StopAwareRead reading;
  reading.file = f.get();
  reading.stop = control.stop;
  const InputFile stoppable = openUntilStopped(reading);
  GraphHolder holder;
  igraph_error_t rc = IGRAPH_SUCCESS;
  if (format == GraphFormat::Gml)
    rc = igraph_read_graph_gml(&holder.graph, stoppable.get());
  else if (format == GraphFormat::GraphMl)
    rc = igraph_read_graph_graphml(&holder.graph, stoppable.get(), 0);
  else
    rc = igraph_read_graph_pajek(&holder.graph, stoppable.get());
  holder.live = rc == IGRAPH_SUCCESS;
  if (reading.stopped) throw Cancelled();
  if (rc != IGRAPH_SUCCESS)
    throwParseError(file, format, session.error().empty() ? igraph_strerror(rc) : session.error(), scan);
  const igraph_t* graph = &holder.graph;

  Extracted out;
  out.directed = igraph_is_directed(graph);
  AttributeList vertex, edge;
  listAttributes(graph, vertex, edge);
  const auto n = static_cast<std::size_t>(igraph_vcount(graph));

  const int idAttribute = format == GraphFormat::Pajek ? -1 : vertex.find("id");
  if (idAttribute >= 0) out.ids = vertexText(graph, "id", vertex.types[static_cast<std::size_t>(idAttribute)]);
  out.ids.resize(n);
  if (format == GraphFormat::GraphMl)
    for (auto& id : out.ids) id = unescapeGraphMlId(id);
  for (std::size_t i = 0; i < n; ++i)
    if (out.ids[i].empty()) out.ids[i] = std::to_string(format == GraphFormat::Pajek ? i + 1 : i);

  int nameAttribute = vertex.find("name");
  if (nameAttribute < 0) nameAttribute = vertex.find("label");
  if (nameAttribute >= 0 && nameAttribute != idAttribute)
    out.names = vertexText(graph, vertex.names[static_cast<std::size_t>(nameAttribute)].c_str(),
                           vertex.types[static_cast<std::size_t>(nameAttribute)]);

  for (std::size_t a = 0; a < vertex.names.size(); ++a) {
    const int ai = static_cast<int>(a);
    if (ai == idAttribute || ai == nameAttribute) continue;
    if (format == GraphFormat::Pajek && vertex.names[a] != "type") continue;
    if (vertex.types[a] != IGRAPH_ATTRIBUTE_NUMERIC && vertex.types[a] != IGRAPH_ATTRIBUTE_STRING &&
        vertex.types[a] != IGRAPH_ATTRIBUTE_BOOLEAN)
      continue;
    out.attributeNames.push_back(vertex.names[a]);
    out.attributes.push_back(vertexText(graph, vertex.names[a].c_str(), vertex.types[a]));
  }

  IntVector edges;
  check(igraph_get_edgelist(graph, &edges.v, false));
  const auto m = static_cast<std::size_t>(igraph_ecount(graph));
  out.from.resize(m);
  out.to.resize(m);
  for (std::size_t e = 0; e < m; ++e) {
    out.from[e] = VECTOR(edges.v)[2 * e];
    out.to[e] = VECTOR(edges.v)[2 * e + 1];
  }
  int weightAttribute = edge.find("weight");
  if (weightAttribute < 0) weightAttribute = edge.find("value");
  if (weightAttribute >= 0) {
    const auto& name = edge.names[static_cast<std::size_t>(weightAttribute)];
    const auto type = edge.types[static_cast<std::size_t>(weightAttribute)];
    out.weightName = name;
    if (type == IGRAPH_ATTRIBUTE_NUMERIC) {
      RealVector values;
      check(igraph_cattribute_EANV(graph, name.c_str(), igraph_ess_all(IGRAPH_EDGEORDER_ID), &values.v));
      out.weights.assign(VECTOR(values.v), VECTOR(values.v) + m);
    } else if (type == IGRAPH_ATTRIBUTE_STRING) {
      StrVector values;
      check(igraph_cattribute_EASV(graph, name.c_str(), igraph_ess_all(IGRAPH_EDGEORDER_ID), &values.v));
      for (std::size_t e = 0; e < m; ++e)
        out.weightText.emplace_back(igraph_strvector_get(&values.v, static_cast<igraph_integer_t>(e)));
    }
  }
  out.warnings = session.warnings();
  return out;
}

void checkUtf8(const std::string& file, std::int64_t line, const std::string& text, const std::string& what) {
  if (const auto bad = utf8::firstInvalid(text); bad != utf8::npos) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned>(static_cast<unsigned char>(text[bad])));
    throw InputError(file, line, what + " is not valid UTF-8 (byte " + std::string(hex) + "); save the file as UTF-8");
  }
}

// Where the file writes igraph's node `index` (with id `id`), for errors about it; 0 if unknown.
std::int64_t nodeLine(const std::filesystem::path& source, GraphFormat format, const IgraphScan& scan,
                      std::size_t nodes, std::size_t index, const std::string& id) {
  if (format == GraphFormat::Gml) return scan.nodeLines.size() == nodes ? scan.nodeLines[index] : 0;
  if (format == GraphFormat::GraphMl) {
    if (const auto found = scan.nodeIdLines.find(id); found != scan.nodeIdLines.end()) return found->second;
    const auto named = scan.edgeEndLines.find(id);  // a node igraph made for an edge's undeclared end
    return named == scan.edgeEndLines.end() ? 0 : named->second;
  }
  return findPajekVertexLine(source, static_cast<std::int64_t>(index) + 1);
}

}  // namespace

InputFile openUntilStopped(StopAwareRead& reading) {
  InputFile file(fopencookie(&reading, "r", cookie_io_functions_t{readUntilStopped, nullptr, nullptr, nullptr}));
  if (!file) throw std::bad_alloc();
  return file;
}

bool readWithIgraph(const std::filesystem::path& source, GraphFormat format, const GraphReadOptions& options,
                    const ImportControl& control, GraphBuilder& builder, GraphReadReport& report) {
  const std::string file = source.string();
  const IgraphScan scan = scanForIgraph(source, format, control);
  if (scan.pajekMixedLine > 0 && options.directed.value_or(true))
    throw InputError(file, scan.pajekMixedLine,
                     "the file mixes *Arcs and *Edges sections, which igraph's Pajek reader cannot keep apart; "
                     "write every tie as an arc (an edge as two arcs), or import with --undirected");
  control.checkStop();
  Extracted graph = extract(source, format, scan, control);
  control.checkStop();

  const std::size_t n = graph.ids.size();
  const auto lineOfNode = [&](std::size_t i) { return nodeLine(source, format, scan, n, i, graph.ids[i]); };
  for (std::size_t i = 0; i < n; ++i) {
    const std::string node = "node " + std::to_string(i + 1) + " of the file";
    // The line is looked for only when there is an error to name it in.
    const auto check = [&](const std::string& text, const std::string& what) {
      if (utf8::firstInvalid(text) != utf8::npos) checkUtf8(file, lineOfNode(i), text, what);
    };
    check(graph.ids[i], "the id of " + node);
    if (!graph.names.empty()) check(graph.names[i], "the name of " + node);
    for (std::size_t a = 0; a < graph.attributeNames.size(); ++a)
      check(graph.attributes[a][i], "attribute '" + graph.attributeNames[a] + "' of " + node);
  }
  for (const auto& name : graph.attributeNames) checkUtf8(file, 0, name, "an attribute name");

  std::vector<std::int32_t> index(n);
  for (std::size_t i = 0; i < n; ++i) {
    bool added = false;
    index[i] = builder.node(graph.ids[i], &added);
    if (index[i] < 0) {
      std::string reason =
          "node " + shownText(graph.ids[i]) + " is not in the nodes file " + builder.nodesTable()->file;
      if (format == GraphFormat::Gml) reason += " (GML nodes are matched by their numeric id)";
      if (format == GraphFormat::Pajek) reason += " (Pajek nodes are matched by their number, 1 to n)";
      throw InputError(file, lineOfNode(i), reason);
    }
    if (!added)
      throw InputError(file, lineOfNode(i), "node id " + shownText(graph.ids[i]) + " is used by more than one node");
    if (!graph.names.empty() && !graph.names[i].empty()) builder.setName(index[i], std::move(graph.names[i]));
  }
  for (std::size_t a = 0; a < graph.attributeNames.size(); ++a) {
    const std::size_t column = builder.attribute(graph.attributeNames[a]);
    for (std::size_t i = 0; i < n; ++i) builder.setAttribute(column, index[i], std::move(graph.attributes[a][i]));
  }

  const bool directed = options.directed.value_or(graph.directed);
  const auto name = formatName(format);
  if (!options.directed)
    report.notes.push_back(std::string("read as ") + (directed ? "directed" : "undirected") + ", as the " +
                           std::string(name) + " file declares");
  else if (*options.directed && !graph.directed)
    report.notes.push_back("the file declares an undirected graph; --directed made each edge two arcs, one each way");
  else if (!*options.directed && graph.directed)
    report.notes.push_back("the file declares a directed graph; --undirected merged arcs a->b and b->a into one edge");
  for (const auto& warning : graph.warnings)
    report.notes.push_back("the " + std::string(name) + " reader warned: " + warning);

  // Pajek edges matched to their lines (see graph_igraph_scan.cpp): errors name the line, and an
  // edge written without a value weighs 1 whatever igraph padded it with.
  const std::size_t m = graph.from.size();
  const bool pajekLines = format == GraphFormat::Pajek && scan.pajekPlain && scan.pajekEdgeLines.size() == m;
  // GML and GraphML edges come in the file's order (see graph_igraph_scan.cpp).
  const bool elementLines = format != GraphFormat::Pajek && scan.edgeLines.size() == m;
  for (std::size_t e = 0; e < m; ++e) {
    const auto source = static_cast<std::size_t>(graph.from[e]);
    const auto target = static_cast<std::size_t>(graph.to[e]);
    const std::int64_t line = pajekLines ? scan.pajekEdgeLines[e] : elementLines ? scan.edgeLines[e] : 0;
    const auto describe = [&] {
      return (pajekLines ? std::string("the edge") : "edge " + std::to_string(e + 1)) + " from " +
             shownText(graph.ids[source]) + " to " + shownText(graph.ids[target]);
    };
    double weight = 1.0;
    if (!graph.weights.empty() && !std::isnan(graph.weights[e])) weight = graph.weights[e];
    if (!graph.weights.empty() && !std::isfinite(graph.weights[e]) && scan.nonFiniteLine > 0)
      throw InputError(file, scan.nonFiniteLine,
                       "a " + graph.weightName + " that is not a finite number; an edge needs a positive weight");
    if (!graph.weightText.empty() && !graph.weightText[e].empty()) {
      const auto value = parseReal(graph.weightText[e]);
      if (!value)
        throw InputError(file, line,
                         "the " + graph.weightName + " " + shownText(graph.weightText[e]) + " of " + describe() +
                             " is not a number");
      weight = *value;
    }
    if (pajekLines && !scan.pajekEdgeHasValue[e]) weight = 1.0;
    if (!(weight > 0) || !std::isfinite(weight))
      throw InputError(file, line,
                       "the " + graph.weightName + " " + formatNumber(weight) + " of " + describe() +
                           " is not above 0: an edge needs a positive weight");
    builder.addEdge(index[source], index[target], weight);
    if (directed && !graph.directed) builder.addEdge(index[target], index[source], weight);
  }
  return directed;
}

}  // namespace latent::core::graph_detail
