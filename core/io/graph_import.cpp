// SPDX-License-Identifier: GPL-3.0-or-later
// Graph import entry points: format names, format detection, dispatch and the common finishing step.
//
// Common to every format (see each reader's header comment for the rest):
// - A missing path, a folder or an empty (0-byte) file is an InputError on line 0.
// - A nodes file (options.nodes) is read first; node order, names and extra attributes then come
//   from it, its isolates are kept, and every node of the graph file must be in it.
// - Self-loops are dropped and counted (report.selfLoopsDropped, with a note): block models have
//   no self-dyads. Repeated edges (for undirected graphs a-b and b-a are the same) are merged
//   into one whose weight is the sum, counted in report.duplicatesMerged, with a note.
// - A graph left with no edge is an InputError ("holds no edges", line 0): an import with no
//   edges is almost surely the wrong file, and block models have nothing to fit.
#include "core/io/graph_import.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>

#include "core/io/graph_builder.hpp"
#include "core/io/graph_reading.hpp"
#include "core/util/ascii.hpp"
#include "core/util/errors.hpp"
#include "core/util/parse_number.hpp"

namespace latent::core {
namespace {

void checkExists(const std::filesystem::path& source) {
  std::error_code ec;
  const auto status = std::filesystem::status(source, ec);
  if (ec || !std::filesystem::exists(status)) throw InputError(source.string(), 0, "does not exist");
  if (std::filesystem::is_directory(status)) throw InputError(source.string(), 0, "is a folder, not a file");
}

// GML, GraphML and Pajek announce themselves on their first line that is not blank or a comment.
std::optional<GraphFormat> sniffMarkup(const std::filesystem::path& source) {
  try {
    LineReader lines(source, LineReader::Options{graph_detail::kMaxLineBytes, true});
    std::string_view line;
    while (lines.next(line)) {
      if (graph_detail::isSkippedLine(line)) continue;
      const std::string start = lowerAscii(std::string(trimSpaces(line).substr(0, 16)));
      if (start.rfind("<?xml", 0) == 0 || start.rfind("<graphml", 0) == 0) return GraphFormat::GraphMl;
      if (start.rfind("*vertices", 0) == 0 || start.rfind("*network", 0) == 0) return GraphFormat::Pajek;
      if (start.rfind("creator", 0) == 0 || start == "graph" || start.rfind("graph [", 0) == 0 ||
          start.rfind("graph[", 0) == 0)
        return GraphFormat::Gml;
      return std::nullopt;
    }
  } catch (const InputError&) {
    // Binary or unreadable: the reader that follows says why, with the line.
  }
  return std::nullopt;
}

std::string plural(std::int64_t count, const char* one, const char* many) {
  return std::to_string(count) + " " + (count == 1 ? one : many);
}

}  // namespace

std::string_view toString(GraphFormat format) noexcept {
  switch (format) {
    case GraphFormat::Auto:
      return "auto";
    case GraphFormat::EdgeList:
      return "edges";
    case GraphFormat::Matrix:
      return "matrix";
    case GraphFormat::Gml:
      return "gml";
    case GraphFormat::GraphMl:
      return "graphml";
    case GraphFormat::Pajek:
      return "pajek";
  }
  return "auto";
}

std::optional<GraphFormat> graphFormatFromString(std::string_view name) noexcept {
  for (const auto format : {GraphFormat::Auto, GraphFormat::EdgeList, GraphFormat::Matrix, GraphFormat::Gml,
                            GraphFormat::GraphMl, GraphFormat::Pajek})
    if (toString(format) == name) return format;
  return std::nullopt;
}

GraphFormat detectGraphFormat(const std::filesystem::path& source) {
  checkExists(source);
  const std::string extension = lowerAscii(source.extension().string());
  if (extension == ".gml") return GraphFormat::Gml;
  if (extension == ".graphml" || extension == ".xml") return GraphFormat::GraphMl;
  if (extension == ".net" || extension == ".paj" || extension == ".pajek") return GraphFormat::Pajek;
  if (const auto markup = sniffMarkup(source)) return *markup;
  return graph_detail::looksLikeMatrix(source) ? GraphFormat::Matrix : GraphFormat::EdgeList;
}

Graph readGraph(const std::filesystem::path& source, const GraphReadOptions& options, const ImportControl& control,
                GraphReadReport* report) {
  using namespace graph_detail;
  GraphReadReport local;
  GraphReadReport& out = report ? *report : local;
  out = GraphReadReport{};
  const std::string file = source.string();

  checkExists(source);
  const GraphFormat format = options.format == GraphFormat::Auto ? detectGraphFormat(source) : options.format;
  out.format = format;
  std::error_code ec;
  if (std::filesystem::file_size(source, ec) == 0 && !ec) throw InputError(file, 0, "is empty");

  if (format != GraphFormat::EdgeList && (!options.relationColumn.empty() || !options.where.empty()))
    throw UsageError("--relation-column and --where read edge lists with a header, not " +
                     std::string(toString(format)) + " files");

  std::optional<NodeTable> nodes;
  if (!options.nodes.empty()) nodes = readNodesFile(options.nodes, control);
  control.checkStop();
  GraphBuilder builder(nodes ? &*nodes : nullptr);

  bool directed = false;
  switch (format) {
    case GraphFormat::EdgeList:
      directed = readEdgeList(source, options, control, builder, out);
      break;
    case GraphFormat::Matrix:
      directed = readMatrix(source, options, control, builder, out);
      break;
    case GraphFormat::Gml:
    case GraphFormat::GraphMl:
    case GraphFormat::Pajek:
      directed = readWithIgraph(source, format, options, control, builder, out);
      break;
    case GraphFormat::Auto:
      break;  // resolved above
  }
  control.checkStop();

  std::int64_t merged = 0;
  const std::int64_t selfLoops = builder.selfLoops();
  Graph graph = builder.finish(directed, merged);
  out.selfLoopsDropped = selfLoops;
  out.duplicatesMerged = merged;
  // Each weight was checked finite as it was read; repeated edges sum theirs, which can overflow.
  for (const auto& e : graph.edges)
    if (!std::isfinite(e.weight))
      throw InputError(file, 0,
                       "the repeated edges between " + graph.nodeIds[static_cast<std::size_t>(e.source)] + " and " +
                           graph.nodeIds[static_cast<std::size_t>(e.target)] +
                           " sum to a weight beyond the range of a double");
  if (graph.edges.empty() && control.maxRecords != 0) {
    if (selfLoops > 0)
      throw InputError(file, 0,
                       "holds no edges other than " + plural(selfLoops, "self-loop", "self-loops") +
                           ", which block models do not use");
    throw InputError(file, 0, "holds no edges");
  }
  if (selfLoops > 0)
    out.notes.push_back(plural(selfLoops, "self-loop was", "self-loops were") +
                        " dropped: block models have no self-dyads");
  if (merged > 0)
    out.notes.push_back(plural(merged, graph.directed ? "repeated arc was" : "repeated edge was",
                               graph.directed ? "repeated arcs were" : "repeated edges were") +
                        " merged into the first, weights summed" +
                        (graph.directed ? "" : " (in an undirected graph a-b and b-a are the same edge)"));
  return graph;
}

}  // namespace latent::core
