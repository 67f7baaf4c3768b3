// SPDX-License-Identifier: GPL-3.0-or-later
// Internal pieces shared by the graph readers: field splitting, the nodes file, the per-format readers.
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <stop_token>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/data/id_map.hpp"
#include "core/io/graph_import.hpp"
#include "core/io/import_control.hpp"
#include "core/util/input_file.hpp"
#include "core/util/line_reader.hpp"

namespace latent::core::graph_detail {

class GraphBuilder;

// Edge lists and nodes files are lines of a few short fields: a line of a megabyte means a wrong
// file, and refusing it early keeps a 10 MB blob from being buffered and split.
inline constexpr std::size_t kMaxLineBytes = std::size_t{1} << 20;
// A matrix row holds one value per node; 4 MB is a dense matrix of several hundred thousand
// nodes, far beyond what a dense text matrix is used for.
inline constexpr std::size_t kMaxMatrixLineBytes = std::size_t{4} << 20;

// How the fields of an edge-list or matrix line are separated.
enum class Separator { Comma, Tab, Semicolon, Spaces };

// The most frequent of comma, tab and semicolon outside double quotes; runs of spaces when the
// line has none of them.
Separator sniffSeparator(std::string_view line) noexcept;
// '#' (SNAP) and '%' (KONECT, Matrix Market) start comment lines.
bool isCommentLine(std::string_view line) noexcept;
// Blank or a comment: lines the edge-list and matrix readers skip.
bool isSkippedLine(std::string_view line) noexcept;

// Splits one line into fields. A field may be enclosed in double quotes ("" inside stands for a
// quote); unquoted fields lose surrounding spaces and tabs. With Separator::Spaces any run of
// spaces and tabs separates fields. Returns "" or the reason the line cannot be split.
std::string splitFields(std::string_view line, Separator separator, std::vector<std::string>& fields);

// Names a header gives the two endpoint columns of an edge list: source, target, from, to ...
bool isEndpointName(std::string_view text) noexcept;

// The data lines of an edge list or matrix: blank and comment lines skipped, UTF-8 checked, the
// separator sniffed on the first data line, each line split into fields.
class DelimitedLines {
 public:
  DelimitedLines(const std::filesystem::path& path, std::size_t maxLineBytes);
  // The next data line's fields; false at the end. InputError for bad UTF-8 or quoting.
  bool next(std::vector<std::string>& fields);
  // Moves past the next data line without splitting it; false at the end.
  bool skip();
  std::int64_t lineNumber() const noexcept { return m_lines.lineNumber(); }
  std::uint64_t bytesConsumed() const noexcept { return m_lines.bytesConsumed(); }
  std::uint64_t fileSize() const noexcept { return m_lines.fileSize(); }
  const std::string& displayName() const noexcept { return m_lines.displayName(); }
  // Throws InputError for the line last returned.
  [[noreturn]] void fail(const std::string& reason) const { m_lines.fail(reason); }

 private:
  bool nextLine(std::string_view& line);

  LineReader m_lines;
  Separator m_separator = Separator::Spaces;
  bool m_separatorKnown = false;
};

// True when `text` is a finite decimal number.
bool isNumber(std::string_view text) noexcept;

// A field quoted for a message ('abc'), cut short so a runaway field cannot flood the terminal.
std::string shownText(std::string_view text);

// Shortest text that reads back as `value` ("2", "0.5", "1e+20").
std::string formatNumber(double value);

// A nodes file as read: every listed node, in file order.
struct NodeTable {
  std::string file;  // display name
  IdMap ids;
  std::vector<std::string> names;  // per node; the id when the file has no name column or an empty name
  bool hasNames = false;           // the file has a "name" (or "label") column
  std::vector<std::string> attributeNames;
  std::vector<std::vector<std::string>> attributes;  // [attribute][node]
};

NodeTable readNodesFile(const std::filesystem::path& path, const ImportControl& control);

// The readers fill `builder` and return whether the graph is directed (options.directed when set).
// Notes for the user go into report.notes; the common finishing step is in graph_import.cpp.
bool readEdgeList(const std::filesystem::path& source, const GraphReadOptions& options, const ImportControl& control,
                  GraphBuilder& builder, GraphReadReport& report);
bool readMatrix(const std::filesystem::path& source, const GraphReadOptions& options, const ImportControl& control,
                GraphBuilder& builder, GraphReadReport& report);

// What the look at a GML, GraphML or Pajek file before igraph finds (graph_igraph_scan.cpp).
struct IgraphScan {
  // Lines in the file (a last line without a line break counts): igraph says "line n+1" for an
  // unexpected end of a file of n lines.
  std::int64_t lineCount = 0;
  // Pajek: the line of each edge of the *Arcs/*Edges sections and whether it gives a value; only
  // meaningful while pajekPlain (no list or matrix sections, no line igraph must interpret).
  bool pajekPlain = true;
  std::vector<std::int64_t> pajekEdgeLines;
  std::vector<char> pajekEdgeHasValue;
  // Pajek: the line of the first section whose kind (*Arcs, *Edges) differs from an earlier one; 0 if none.
  std::int64_t pajekMixedLine = 0;
  // GML: the first line giving a weight or value that is not a finite number (nan, inf, 1e999);
  // GraphML: the first element whose text is one. igraph reads a missing weight as NaN too, so a
  // NaN weight is refused only when the file wrote one. 0 if none.
  std::int64_t nonFiniteLine = 0;
  // GML: the line each node and each edge of the first graph starts on, in the file's order (which
  // is igraph's); GraphML: each edge's, and the first <node> of each id. Errors about the n-th
  // node or edge name its line; the lists are only used while their counts match igraph's.
  std::vector<std::int64_t> nodeLines, edgeLines;
  // GraphML: ids as igraph reads them (XML's entities and character references decoded), with the
  // line of their first <node>, and of the first <edge> naming them, for a node igraph creates
  // for an edge's undeclared end.
  std::unordered_map<std::string, std::int64_t> nodeIdLines, edgeEndLines;
  // igraph errors that come without a line, traced to the first element that would cause them: a
  // phrase of igraph's message, that element's line, and what to add to the message ("" for
  // nothing). The scan cannot tell whether igraph will object, so these are only looked up when it
  // does (lineFor).
  struct Culprit {
    std::string phrase;
    std::int64_t line = 0;
    std::string detail;
  };
  std::vector<Culprit> culprits;
  void suspect(std::string phrase, std::int64_t line, std::string detail = {}) {
    for (const auto& c : culprits)
      if (c.phrase == phrase) return;  // the first one is the one igraph meets
    culprits.push_back({std::move(phrase), line, std::move(detail)});
  }
  const Culprit* culpritFor(std::string_view message) const {
    for (const auto& c : culprits)
      if (message.find(c.phrase) != std::string_view::npos) return &c;
    return nullptr;
  }
};
IgraphScan scanForIgraph(const std::filesystem::path& source, GraphFormat format, const ImportControl& control);
// The first line of a Pajek file naming vertex `number` (its vertex line, or an edge's), 0 if
// none. Only an error needs it, so the file is read again then rather than indexed on every import.
std::int64_t findPajekVertexLine(const std::filesystem::path& source, std::int64_t number);

// igraph's parsers cannot be interrupted, but they read through a FILE*: the one openUntilStopped
// makes reads `file` until `stop` is requested and then says the file has ended, so a parser
// returns at its next read (a few kilobytes on) instead of at the end of a large file; `stopped`
// then tells the caller that the end was not the file's.
struct StopAwareRead {
  std::FILE* file = nullptr;
  std::stop_token stop;
  bool stopped = false;
};
InputFile openUntilStopped(StopAwareRead& reading);

// GML, GraphML and Pajek through igraph.
bool readWithIgraph(const std::filesystem::path& source, GraphFormat format, const GraphReadOptions& options,
                    const ImportControl& control, GraphBuilder& builder, GraphReadReport& report);

// Whether the first lines of a delimited text file look like an adjacency matrix (see
// detectGraphFormat); conservative: anything unclear is not a matrix.
bool looksLikeMatrix(const std::filesystem::path& source);

}  // namespace latent::core::graph_detail
