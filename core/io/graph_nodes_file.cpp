// SPDX-License-Identifier: GPL-3.0-or-later
// The nodes file that goes with any graph format: ids, display names and attributes.
//
// Accepted: a CSV (or TSV, semicolon- or bar-separated: the delimiter is sniffed from the header)
// with a header row and RFC 4180 quoting. The node id column is the column named "id" (exact,
// else case-insensitive) and otherwise the first column; the "name" column (else "label") gives
// display names, an empty name meaning the id (spaces around ids and names are dropped); every other column becomes a
// node attribute, in file order, values kept as text. Ids are compared as text ("01" is not "1"). Rejected (InputError
// with file and line): a missing or empty file, a header only, a repeated column name, a row whose field count differs
// from the header's, an empty id, an id defined twice ("node id '5' was already defined on line 3"), invalid UTF-8, a
// line over 1 MB.
#include <filesystem>

#include "core/io/graph_reading.hpp"
#include "core/util/csv_reader.hpp"
#include "core/util/errors.hpp"
#include "core/util/parse_number.hpp"
#include "core/util/utf8.hpp"

namespace latent::core::graph_detail {
namespace {

std::string describeColumn(const std::vector<std::string>& header, std::size_t column) {
  if (column < header.size() && !header[column].empty()) return "column '" + header[column] + "'";
  return "column " + std::to_string(column + 1);
}

}  // namespace

NodeTable readNodesFile(const std::filesystem::path& path, const ImportControl& control) {
  NodeTable table;
  table.file = path.string();
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw InputError(table.file, 0, "does not exist");

  CsvReader csv(path, CsvReader::Options{0, kMaxLineBytes});
  ProgressThrottle progress(control);
  std::vector<std::string> header;
  if (!csv.next(header))
    throw InputError(table.file, 0, "is empty: a nodes file needs a header row and one row per node");
  for (std::size_t c = 0; c < header.size(); ++c) {
    if (const auto bad = utf8::firstInvalid(header[c]); bad != utf8::npos)
      csv.fail("column " + std::to_string(c + 1) + " of the header: " + utf8::invalidMessage(header[c], bad));
    for (std::size_t d = 0; d < c; ++d)
      if (!header[c].empty() && header[c] == header[d])
        csv.fail("the column name '" + header[c] + "' appears twice in the header (columns " + std::to_string(d + 1) +
                 " and " + std::to_string(c + 1) + ")");
  }

  int idColumn = findColumn(header, "id");
  if (idColumn < 0) idColumn = 0;
  int nameColumn = findColumn(header, "name");
  if (nameColumn < 0) nameColumn = findColumn(header, "label");
  if (nameColumn == idColumn) nameColumn = -1;
  table.hasNames = nameColumn >= 0;
  std::vector<std::size_t> attributeColumns;
  for (std::size_t c = 0; c < header.size(); ++c) {
    if (static_cast<int>(c) == idColumn || static_cast<int>(c) == nameColumn) continue;
    attributeColumns.push_back(c);
    table.attributeNames.push_back(header[c].empty() ? "column " + std::to_string(c + 1) : header[c]);
  }
  table.attributes.resize(attributeColumns.size());

  std::vector<std::int64_t> definedOn;  // line of each node, for the duplicate message
  std::vector<std::string> fields;
  while (csv.next(fields)) {
    if (fields.size() != header.size())
      csv.fail("expected " + std::to_string(header.size()) + " fields (" + joinColumns(header) + ") but found " +
               std::to_string(fields.size()));
    for (std::size_t c = 0; c < fields.size(); ++c)
      if (const auto bad = utf8::firstInvalid(fields[c]); bad != utf8::npos)
        csv.fail(describeColumn(header, c) + ": " + utf8::invalidMessage(fields[c], bad));
    const std::string id(trimSpaces(fields[static_cast<std::size_t>(idColumn)]));
    if (id.empty())
      csv.fail("the node id (" + describeColumn(header, static_cast<std::size_t>(idColumn)) + ") is empty");
    bool added = false;
    const auto index = static_cast<std::size_t>(table.ids.intern(id, &added));
    if (!added) csv.fail("node id '" + id + "' was already defined on line " + std::to_string(definedOn[index]));
    definedOn.push_back(csv.recordLine());
    std::string name(nameColumn >= 0 ? trimSpaces(fields[static_cast<std::size_t>(nameColumn)]) : std::string_view());
    table.names.push_back(name.empty() ? id : std::move(name));
    for (std::size_t a = 0; a < attributeColumns.size(); ++a)
      table.attributes[a].push_back(std::move(fields[attributeColumns[a]]));
    progress.update(csv.bytesConsumed(), csv.fileSize());
  }
  if (table.ids.size() == 0) throw InputError(table.file, 0, "holds no nodes, only a header row");
  return table;
}

}  // namespace latent::core::graph_detail
