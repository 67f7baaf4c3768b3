// SPDX-License-Identifier: GPL-3.0-or-later
// Edge lists: one edge per line, "source target [weight] [ignored columns...]".
//
// Accepted
// - Separators: comma, tab or semicolon (the most frequent on the first data line), else runs of
//   spaces and tabs (SNAP, KONECT, networkx write_edgelist). Fields may be double-quoted; spaces
//   around unquoted fields are dropped. Blank lines and lines starting with '#' or '%' (SNAP and
//   KONECT comments) are skipped.
// - The first two fields are node ids, compared as text. Without a nodes file, nodes are created
//   in order of first appearance and named by their id; with one, node order and names come from
//   it, its isolates are kept, and every id must be in it.
// - Header: the first data row is a header when (1) its first two fields are both endpoint names
//   (source target from to src dst dest node1 node2 u v i j id1 id2 head tail sender receiver ego
//   alter, any case); or (2) with a nodes file, its first two fields are not both node ids while
//   those of the next row are; or (3) without a nodes file, its first two fields are not both
//   numbers while those of the next row are (Davis' "woman,event"); or (4) its third field is not
//   a number while that of the next row is. A header of two text names over text ids cannot be
//   told from an edge: name the columns source,target then.
// - Weight: the third column, when the header calls it weight/weights/value/count/w/strength, or
//   when it is a number on the first edge row (Sampson's "rank"). It must then be a number above 0
//   on every row. Otherwise extra columns are ignored and every edge weighs 1 (a note says so).
// - Relations: with options.relationColumn (a header column), each row's value in that column
//   names its relation; the graph holds one relation per value in order of first appearance, and
//   `edges` is the first. With options.where ("column=value", a header column), rows whose column
//   holds another value are skipped (Sampson's wave=T4).
// - Direction: --directed/--undirected; without either, undirected (a note says so).
// - Self-loops are dropped and repeated edges merged (weights summed) by the common finishing step.
// Rejected (InputError with file and line): a row with fewer than 2 fields, an empty id, a
// missing, non-numeric, zero or negative weight in a weighted list, an id not in the nodes file,
// invalid UTF-8, a NUL byte (binary file), an unclosed quote, a line over 1 MB, and a file with no
// edge at all ("holds no edges", line 0).
#include <algorithm>
#include <array>
#include <cctype>
#include <optional>

#include "core/io/graph_builder.hpp"
#include "core/io/graph_reading.hpp"
#include "core/util/errors.hpp"
#include "core/util/parse_number.hpp"

namespace latent::core::graph_detail {
namespace {

bool isWeightName(std::string_view text) {
  constexpr std::array<std::string_view, 6> names{"weight", "weights", "value", "count", "w", "strength"};
  return std::any_of(names.begin(), names.end(), [&](std::string_view name) {
    return name.size() == text.size() && std::equal(name.begin(), name.end(), text.begin(), [](char a, char b) {
             return a == std::tolower(static_cast<unsigned char>(b));
           });
  });
}

struct Row {
  std::vector<std::string> fields;
  std::int64_t line = 0;
};

}  // namespace

bool readEdgeList(const std::filesystem::path& source, const GraphReadOptions& options, const ImportControl& control,
                  GraphBuilder& builder, GraphReadReport& report) {
  DelimitedLines lines(source, kMaxLineBytes);
  const std::string& file = lines.displayName();
  const NodeTable* nodes = builder.nodesTable();
  ProgressThrottle progress(control);
  auto nextRow = [&](Row& row) {
    if (!lines.next(row.fields)) return false;
    row.line = lines.lineNumber();
    return true;
  };

  Row first, second;
  const bool haveFirst = nextRow(first);
  const bool haveSecond = haveFirst && nextRow(second);
  const auto& f = first.fields;
  const auto& s = second.fields;
  bool header = false;
  if (haveFirst && f.size() >= 2) {
    header = isEndpointName(f[0]) && isEndpointName(f[1]);
    if (!header && nodes && haveSecond && s.size() >= 2)
      header = (nodes->ids.find(f[0]) < 0 || nodes->ids.find(f[1]) < 0) && nodes->ids.find(s[0]) >= 0 &&
               nodes->ids.find(s[1]) >= 0;
    if (!header && !nodes && haveSecond && s.size() >= 2)
      header = !(isNumber(f[0]) && isNumber(f[1])) && isNumber(s[0]) && isNumber(s[1]);
    if (!header && haveSecond && f.size() >= 3 && s.size() >= 3) header = !isNumber(f[2]) && isNumber(s[2]);
  }

  // Whether column 3 is the weight, decided on the header and the first edge row.
  const Row* firstEdge = header ? (haveSecond ? &second : nullptr) : (haveFirst ? &first : nullptr);
  const bool weightNamed = header && f.size() >= 3 && isWeightName(f[2]);
  const bool weighted = weightNamed || (firstEdge && firstEdge->fields.size() >= 3 && isNumber(firstEdge->fields[2]));
  const std::string column3 = header && f.size() >= 3 ? "column 3 (" + shownText(f[2]) + ")" : "the third column";
  if (weighted && !weightNamed) report.notes.push_back(column3 + " holds numbers and was read as the edge weight");

  // Header columns named by --relation-column and --where.
  const auto headerColumn = [&](const std::string& name, const char* option) {
    if (!header)
      throw InputError(file, first.line,
                       std::string(option) + " names a header column, but this edge list has no header row");
    const auto at = std::find(f.begin(), f.end(), name);
    if (at == f.end())
      throw InputError(file, first.line, std::string(option) + ": the header has no column " + shownText(name));
    return static_cast<std::size_t>(at - f.begin());
  };
  std::optional<std::size_t> relationAt, whereAt;
  std::string whereValue;
  if (!options.relationColumn.empty()) relationAt = headerColumn(options.relationColumn, "--relation-column");
  if (!options.where.empty()) {
    const auto equals = options.where.find('=');
    if (equals == std::string::npos || equals == 0)
      throw UsageError("--where takes column=value (for example wave=T4), not " + shownText(options.where));
    whereAt = headerColumn(options.where.substr(0, equals), "--where");
    whereValue = options.where.substr(equals + 1);
  }

  // Column 3 named by --relation-column or --where is read, not ignored.
  const bool column3Used = relationAt == std::size_t{2} || whereAt == std::size_t{2};
  if (!weighted && !column3Used && firstEdge && firstEdge->fields.size() >= 3)
    report.notes.push_back(column3 + " is not a number, so it was ignored and every edge has weight 1");

  auto process = [&](const Row& row) {
    const auto& fields = row.fields;
    auto fail = [&](const std::string& reason) { throw InputError(file, row.line, reason); };
    if (whereAt && (fields.size() <= *whereAt || fields[*whereAt] != whereValue)) return;
    if (fields.size() < 2) fail("expected at least 2 fields (source, target), found " + std::to_string(fields.size()));
    if (fields[0].empty()) fail("the source node id (field 1) is empty");
    if (fields[1].empty()) fail("the target node id (field 2) is empty");
    double weight = 1.0;
    if (weighted) {
      if (fields.size() < 3)
        fail("expected a weight in field 3, as on the first edge row, but the row has only 2 fields");
      const auto value = parseReal(fields[2]);
      if (!value) fail("weight " + shownText(fields[2]) + " is not a number");
      if (*value <= 0)
        fail("weight " + formatNumber(*value) +
             " is not above 0: an edge needs a positive weight (leave out pairs without an edge)");
      weight = *value;
    }
    const std::int32_t from = builder.node(fields[0]);
    if (from < 0) fail("node " + shownText(fields[0]) + " is not in the nodes file " + nodes->file);
    const std::int32_t to = builder.node(fields[1]);
    if (to < 0) fail("node " + shownText(fields[1]) + " is not in the nodes file " + nodes->file);
    if (!relationAt) {
      builder.addEdge(from, to, weight);
      return;
    }
    if (fields.size() <= *relationAt || fields[*relationAt].empty())
      fail("the relation (field " + std::to_string(*relationAt + 1) + ", " + shownText(options.relationColumn) +
           ") is empty");
    builder.addEdge(from, to, weight, fields[*relationAt]);
  };

  std::int64_t rows = 0;
  auto full = [&] { return control.maxRecords >= 0 && rows >= control.maxRecords; };
  if (haveFirst && !header && !full()) {
    process(first);
    ++rows;
  }
  if (haveSecond && !full()) {
    process(second);
    ++rows;
  }
  Row row;
  while (!full() && nextRow(row)) {
    process(row);
    ++rows;
    progress.update(lines.bytesConsumed(), lines.fileSize());
  }
  control.checkStop();

  if (relationAt)
    report.notes.push_back(std::to_string(builder.relationCount()) + " relations over the same nodes (column " +
                           shownText(options.relationColumn) + "); models of one relation fit the first");
  if (!options.directed)
    report.notes.push_back("edge list read as undirected; use --directed to keep the direction of arcs");
  return options.directed.value_or(false);
}

}  // namespace latent::core::graph_detail
