// SPDX-License-Identifier: GPL-3.0-or-later
// Adjacency matrices: a square table of numbers, cell (i, j) the weight of the tie from i to j.
//
// Accepted
// - Separators as for edge lists (comma, tab, semicolon, else runs of spaces), quoted fields,
//   '#' and '%' comment lines, blank lines.
// - An optional header row of node names: the first row is a header when its first cell is empty
//   or any cell after the first is not a number (so a header of purely numeric names needs an
//   empty corner cell). An optional first column of row names: present when the header has an
//   empty corner cell, or when the first data row starts with something that is not a number.
//   A header may have one name per column, or one more (a corner label such as "id") when rows
//   have names. With both, row names must repeat the header's names in the same order.
// - Node ids: the header's names, else the row names, else 1..n. With a nodes file every one of
//   them must be in it (node order then follows the nodes file).
// - Cells: numbers >= 0; 0 is no edge, anything above is an edge of that weight. The diagonal is
//   a self-loop, dropped and counted.
// - Direction: --directed/--undirected; without either, undirected when the matrix is symmetric
//   (each pair then read once, from the upper triangle) and directed (row -> column) when not.
//   Forcing --undirected on an asymmetric matrix merges (i, j) and (j, i), summing the weights.
//   Forcing --directed on a symmetric one gives both arcs.
// Rejected (InputError with file and line): a header that names more or fewer nodes than a row
// has values, an empty or repeated node name, a row name that differs from the header's, a row
// with a different number of values ("row 5 has 17 values, expected 18"), more rows than columns,
// fewer rows than columns (line 0), a cell that is not a number or is negative (named by column),
// invalid UTF-8, a NUL byte, a line over 4 MB, and a matrix with no nonzero off-diagonal cell
// ("holds no edges").
#include <algorithm>

#include "core/io/graph_builder.hpp"
#include "core/io/graph_reading.hpp"
#include "core/util/errors.hpp"
#include "core/util/parse_number.hpp"

namespace latent::core::graph_detail {
namespace {

struct Cell {
  std::int32_t row = 0, column = 0;
  double weight = 0;
};

}  // namespace

bool readMatrix(const std::filesystem::path& source, const GraphReadOptions& options, const ImportControl& control,
                GraphBuilder& builder, GraphReadReport& report) {
  DelimitedLines lines(source, kMaxMatrixLineBytes);
  const std::string& file = lines.displayName();
  ProgressThrottle progress(control);

  std::vector<std::string> row;
  if (!lines.next(row)) throw InputError(file, 0, "holds no matrix rows, only blank or comment lines");
  const bool header =
      row[0].empty() || std::any_of(row.begin() + 1, row.end(), [](const auto& v) { return !isNumber(v); });
  std::vector<std::string> columnNames;
  std::int64_t headerLine = 0;
  if (header) {
    columnNames = row;
    headerLine = lines.lineNumber();
    if (!lines.next(row)) throw InputError(file, 0, "has a header row of node names but no matrix rows");
  }
  bool rowNames = false;
  if (header && columnNames[0].empty()) {
    rowNames = true;
    columnNames.erase(columnNames.begin());
  } else if (!isNumber(row[0])) {
    rowNames = true;
    // A corner label ("id", "node") sits above the row names.
    if (header && columnNames.size() == row.size()) columnNames.erase(columnNames.begin());
  }
  const std::size_t n = row.size() - (rowNames ? 1 : 0);
  if (n == 0) lines.fail("expected a row of numbers but found only a row name");
  if (header && columnNames.size() != n)
    throw InputError(file, headerLine,
                     "the header names " + std::to_string(columnNames.size()) + " nodes but the first row has " +
                         std::to_string(n) + " values");
  IdMap headerIds;
  for (std::size_t c = 0; c < columnNames.size(); ++c) {
    const auto& name = columnNames[c];
    if (name.empty())
      throw InputError(file, headerLine, "the node name of column " + std::to_string(c + 1 + rowNames) + " is empty");
    bool added = false;
    const auto first = headerIds.intern(name, &added);
    if (!added)
      throw InputError(file, headerLine,
                       "the node name " + shownText(name) + " appears twice in the header (columns " +
                           std::to_string(first + 1 + rowNames) + " and " + std::to_string(c + 1 + rowNames) + ")");
  }

  IdMap rowIds;
  std::vector<std::int64_t> rowLines;
  std::vector<Cell> cells;
  std::size_t r = 0;
  do {
    if (r >= n)
      lines.fail("the matrix has more rows than its " + std::to_string(n) + " columns; an adjacency matrix is square");
    const std::size_t values = row.size() - (rowNames ? 1 : 0);
    if (values != n)
      lines.fail("row " + std::to_string(r + 1) + " has " + std::to_string(values) + " values, expected " +
                 std::to_string(n));
    if (rowNames) {
      const auto& name = row[0];
      if (name.empty()) lines.fail("the row name (column 1) is empty");
      if (header && name != columnNames[r])
        lines.fail("row name " + shownText(name) + " does not match the header's name " + shownText(columnNames[r]) +
                   " for row " + std::to_string(r + 1) + ": rows and columns must list the nodes in the same order");
      bool added = false;
      rowIds.intern(name, &added);
      if (!added)
        lines.fail("the row name " + shownText(name) + " was already used on line " +
                   std::to_string(rowLines[static_cast<std::size_t>(rowIds.find(name))]));
    }
    rowLines.push_back(lines.lineNumber());
    for (std::size_t c = 0; c < n; ++c) {
      const std::string& text = row[c + (rowNames ? 1 : 0)];
      const std::string where = " in column " + std::to_string(c + 1 + (rowNames ? 1 : 0));
      const auto value = parseReal(text);
      if (!value) lines.fail("value " + shownText(text) + where + " is not a number");
      if (*value < 0)
        lines.fail("value " + formatNumber(*value) + where +
                   " is negative: a cell is 0 (no edge) or a positive weight");
      if (*value != 0) cells.push_back({static_cast<std::int32_t>(r), static_cast<std::int32_t>(c), *value});
    }
    ++r;
    progress.update(lines.bytesConsumed(), lines.fileSize());
  } while (lines.next(row));
  if (r < n)
    throw InputError(file, 0,
                     "the matrix has " + std::to_string(r) + " rows but " + std::to_string(n) +
                         " columns; an adjacency matrix is square");
  control.checkStop();

  // Node ids, each placed through the builder (and so checked against a nodes file).
  std::vector<std::int32_t> index(n);
  for (std::size_t k = 0; k < n; ++k) {
    const std::string id = header ? columnNames[k] : rowNames ? rowIds.ids()[k] : std::to_string(k + 1);
    index[k] = builder.node(id);
    if (index[k] >= 0) continue;
    const auto* nodes = builder.nodesTable();
    if (header)
      throw InputError(file, headerLine, "node " + shownText(id) + " is not in the nodes file " + nodes->file);
    if (rowNames)
      throw InputError(file, rowLines[k], "node " + shownText(id) + " is not in the nodes file " + nodes->file);
    throw InputError(file, 0,
                     "node '" + id + "' is not in the nodes file " + nodes->file +
                         " (without a header the matrix's nodes are numbered 1 to " + std::to_string(n) + ")");
  }

  // Cells are in row-major order, so the mirror of each is found by binary search.
  const auto before = [](const Cell& a, const Cell& b) { return a.row != b.row ? a.row < b.row : a.column < b.column; };
  const bool symmetric = std::all_of(cells.begin(), cells.end(), [&](const Cell& cell) {
    const Cell mirror{cell.column, cell.row, 0};
    const auto it = std::lower_bound(cells.begin(), cells.end(), mirror, before);
    return it != cells.end() && it->row == mirror.row && it->column == mirror.column && it->weight == cell.weight;
  });
  const bool directed = options.directed.value_or(!symmetric);
  if (!options.directed)
    report.notes.push_back(symmetric
                               ? "the matrix is symmetric, so the graph was read as undirected"
                               : "the matrix is not symmetric, so the graph was read as directed (row -> column)");
  for (const auto& cell : cells) {
    if (!directed && symmetric && cell.column < cell.row) continue;  // each pair once
    builder.addEdge(index[static_cast<std::size_t>(cell.row)], index[static_cast<std::size_t>(cell.column)],
                    cell.weight);
  }
  return directed;
}

bool looksLikeMatrix(const std::filesystem::path& source) {
  try {
    DelimitedLines lines(source, kMaxMatrixLineBytes);
    std::vector<std::string> first, row;
    if (!lines.next(first) || first.size() < 3) return false;
    const bool header =
        first[0].empty() || std::any_of(first.begin() + 1, first.end(), [](const auto& v) { return !isNumber(v); });
    if (header && isEndpointName(first[0]) && isEndpointName(first[1])) return false;
    if (!header)
      row = first;
    else if (!lines.next(row))
      return false;
    const bool rowNames = (header && first[0].empty()) || !isNumber(row[0]);
    const std::size_t n = row.size() - (rowNames ? 1 : 0);
    if (n < 3) return false;
    if (header && first.size() != n && !(rowNames && first.size() == n + 1)) return false;
    // The first few rows: n non-negative numbers each. Without a header or row names, an edge
    // list "1 2 1 / 2 3 1 / 3 1 1" would pass too; a matrix of so few nodes has a zero somewhere.
    std::size_t rows = 0;
    bool zero = header || rowNames;
    do {
      if (row.size() != n + (rowNames ? 1 : 0)) return false;
      for (std::size_t c = rowNames ? 1 : 0; c < row.size(); ++c) {
        const auto value = parseReal(row[c]);
        if (!value || *value < 0) return false;
        zero = zero || *value == 0;
      }
      ++rows;
    } while (rows < 5 && lines.next(row));
    if (!zero) return false;
    // Then exactly n rows in all.
    if (rows == 5)
      while (rows <= n && lines.skip()) ++rows;
    return rows == n;
  } catch (const InputError&) {
    return false;
  }
}

}  // namespace latent::core::graph_detail
