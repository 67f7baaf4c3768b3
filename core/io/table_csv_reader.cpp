// SPDX-License-Identifier: GPL-3.0-or-later
// Numeric tables from CSV/TSV: a header line naming the columns, then one row per record.
//
// The delimiter (',' TAB ';' '|') is sniffed from the header and fields follow RFC 4180 (quotes
// may hold delimiters and line breaks), through the CsvReader every CSV importer uses. Columns:
//   - the id column (`idColumn`, optional) names the rows; without it they are named 1 .. N;
//   - the label column (`labelColumn`, optional) is kept as the rows' labels, not as a feature;
//   - the features are `columns` in that order, else every other column in header order.
// An empty header cell is named "column N" (1-based), as spreadsheets and pandas' index leave it.
// Every feature cell must be a finite number (1, -2.5, 1e-3; spaces around it are fine).
// Rejected, each as InputError(file, line, reason), and never half read: an empty file, a header
// of numbers only (no header), a header naming a kept column twice, a named column the header
// lacks, a record whose field count differs from the header's, an empty feature cell (missing
// values are not supported), a cell that is not a finite number (naming its column), an empty,
// repeated or non-UTF-8 row id, a label that is not UTF-8, a table without rows or without a
// feature column. Id, label and feature columns that coincide are a UsageError.
#include <algorithm>
#include <cstdint>
#include <set>
#include <system_error>

#include "core/data/id_map.hpp"
#include "core/io/table_import.hpp"
#include "core/util/csv_reader.hpp"
#include "core/util/errors.hpp"
#include "core/util/parse_number.hpp"
#include "core/util/utf8.hpp"

namespace latent::core {
namespace {

constexpr std::size_t kTableRecordsPerStopCheck = 1 << 14;

// Input text fit for a one-line message: bytes that are not UTF-8 become '?', long text is cut.
std::string tableShown(std::string_view text, std::size_t maxBytes = 40) {
  std::string out;
  const bool cut = text.size() > maxBytes;
  if (cut) text = text.substr(0, maxBytes);
  const bool valid = utf8::isValid(text);
  for (const char c : text) out += (!valid && static_cast<unsigned char>(c) >= 0x80) ? '?' : c;
  return cut ? out + "..." : out;
}

std::string tableColumnLabel(const std::vector<std::string>& header, std::size_t column) {
  return "'" + tableShown(header[column]) + "' (column " + std::to_string(column + 1) + ")";
}

// The column named `name` (a command-line option), or an error listing the columns there are.
std::size_t tableNamedColumn(const CsvReader& reader, const std::vector<std::string>& header, const std::string& name,
                             const char* option) {
  const int c = findColumn(header, name);
  if (c < 0)
    reader.fail(std::string(option) + ": no column named '" + tableShown(name) +
                "' (columns: " + tableShown(joinColumns(header), 200) + ")");
  return static_cast<std::size_t>(c);
}

std::string tableDelimiterName(char delimiter) {
  switch (delimiter) {
    case '\t':
      return "tab";
    case ';':
      return "semicolon";
    case '|':
      return "vertical bar";
    default:
      return "comma";
  }
}

NumericTable readCsvTable(const std::filesystem::path& file, const TableReadOptions& options,
                          const ImportControl& control, std::vector<std::string>& notes) {
  control.checkStop();
  CsvReader reader(file);
  std::vector<std::string> header;
  if (!reader.next(header)) throw InputError(reader.displayName(), 0, "holds no table (the file is empty)");
  for (std::size_t c = 0; c < header.size(); ++c) {
    if (!utf8::isValid(header[c]))
      reader.fail("the header's column " + std::to_string(c + 1) + " is not valid UTF-8: '" + tableShown(header[c]) +
                  "'");
    const auto name = trimSpaces(header[c]);
    header[c] = name.empty() ? "column " + std::to_string(c + 1) : std::string(name);
  }
  {
    bool numbers = true;
    for (const auto& name : header) numbers = numbers && parseReal(name).has_value();
    if (numbers)
      reader.fail(
          "the first line holds numbers, not column names: a table needs a header line naming its columns, such "
          "as x1,x2,x3");
  }

  const int none = -1;
  const int idCol = options.idColumn.empty()
                        ? none
                        : static_cast<int>(tableNamedColumn(reader, header, options.idColumn, "--id-column"));
  const int labelCol = options.labelColumn.empty()
                           ? none
                           : static_cast<int>(tableNamedColumn(reader, header, options.labelColumn, "--label-column"));
  if (idCol >= 0 && idCol == labelCol)
    throw UsageError("the id and label columns are both '" + tableShown(header[static_cast<std::size_t>(idCol)]) +
                     "'; choose different columns");

  std::vector<std::size_t> features;
  if (!options.columns.empty()) {
    for (const auto& name : options.columns) {
      const auto c = tableNamedColumn(reader, header, name, "--columns");
      if (static_cast<int>(c) == idCol || static_cast<int>(c) == labelCol)
        throw UsageError("column '" + tableShown(header[c]) + "' is the " +
                         (static_cast<int>(c) == idCol ? "id" : "label") +
                         " column; it cannot also be a feature (--columns)");
      if (std::find(features.begin(), features.end(), c) != features.end())
        throw UsageError("--columns names column '" + tableShown(header[c]) + "' twice");
      features.push_back(c);
    }
  } else {
    for (std::size_t c = 0; c < header.size(); ++c)
      if (static_cast<int>(c) != idCol && static_cast<int>(c) != labelCol) features.push_back(c);
  }
  if (features.empty())
    reader.fail("has no feature column (columns: " + tableShown(joinColumns(header), 200) +
                "); a table needs at least one numeric column besides the id and label columns");
  {
    std::set<std::string_view> seen;
    for (const auto c : features)
      if (!seen.insert(header[c]).second)
        reader.fail("the header names feature column '" + tableShown(header[c]) +
                    "' twice; rename one or choose the features with --columns");
  }

  NumericTable table;
  for (const auto c : features) table.featureNames.push_back(header[c]);
  if (labelCol >= 0) table.labelName = header[static_cast<std::size_t>(labelCol)];
  {
    std::string used =
        std::to_string(features.size()) + (features.size() == 1 ? " feature column" : " feature columns");
    used += idCol >= 0 ? ", row names from " + tableColumnLabel(header, static_cast<std::size_t>(idCol))
                       : ", rows named 1 to N";
    if (labelCol >= 0) used += ", labels from " + tableColumnLabel(header, static_cast<std::size_t>(labelCol));
    notes.push_back(used);
    notes.push_back("fields separated by " + tableDelimiterName(reader.delimiter()));
  }

  const std::size_t width = features.size();
  std::vector<double> values;  // row-major while reading
  IdMap rowIds;
  std::vector<std::int64_t> idLines;  // the line of each row id, to name both lines of a repeat
  ProgressThrottle progress(control);
  std::vector<std::string> record;
  std::size_t rows = 0;
  while ((control.maxRecords < 0 || static_cast<std::int64_t>(rows) < control.maxRecords) && reader.next(record)) {
    if ((rows + 1) % kTableRecordsPerStopCheck == 0) control.checkStop();
    progress.update(reader.bytesConsumed(), reader.fileSize());
    if (record.size() != header.size())
      reader.fail("expected " + std::to_string(header.size()) + " columns (as in the header) but found " +
                  std::to_string(record.size()));
    for (const auto c : features) {
      const auto text = trimSpaces(record[c]);
      if (text.empty())
        reader.fail("column " + tableColumnLabel(header, c) +
                    " is empty: missing values are not supported; fill them in or leave the column out (--columns)");
      const auto value = parseReal(text);
      if (!value)
        reader.fail("column " + tableColumnLabel(header, c) + ": '" + tableShown(text) +
                    "' is not a finite number (such as 1, -2.5 or 1e-3)");
      values.push_back(*value);
    }
    if (idCol >= 0) {
      const auto id = trimSpaces(record[static_cast<std::size_t>(idCol)]);
      const std::string what = "the row id (column " + tableColumnLabel(header, static_cast<std::size_t>(idCol)) + ")";
      if (id.empty()) reader.fail(what + " is empty");
      if (!utf8::isValid(id)) reader.fail(what + " is not valid UTF-8: '" + tableShown(id) + "'");
      bool added = false;
      const auto index = rowIds.intern(id, &added);
      if (!added)
        reader.fail(what + " '" + tableShown(id) + "' was already given on line " +
                    std::to_string(idLines[static_cast<std::size_t>(index)]) + "; row ids must be unique");
      idLines.push_back(reader.recordLine());
    }
    if (labelCol >= 0) {
      const auto label = trimSpaces(record[static_cast<std::size_t>(labelCol)]);
      if (!utf8::isValid(label))
        reader.fail("the label (column " + tableColumnLabel(header, static_cast<std::size_t>(labelCol)) +
                    ") is not valid UTF-8: '" + tableShown(label) + "'");
      table.rowLabels.emplace_back(label);
    }
    ++rows;
  }
  if (rows == 0) throw InputError(reader.displayName(), 0, "holds no rows (only the header line)");
  control.checkStop();

  if (idCol >= 0) {
    table.rowNames = rowIds.release();
  } else {
    table.rowNames.reserve(rows);
    for (std::size_t r = 0; r < rows; ++r) table.rowNames.push_back(std::to_string(r + 1));
  }
  table.values = Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
      values.data(), static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(width));
  return table;
}

}  // namespace

std::string_view toString(TableFormat format) noexcept {
  switch (format) {
    case TableFormat::Auto:
      return "auto";
    case TableFormat::Csv:
      return "csv";
  }
  return "auto";
}

std::optional<TableFormat> tableFormatFromString(std::string_view name) noexcept {
  if (name == "auto") return TableFormat::Auto;
  if (name == "csv") return TableFormat::Csv;
  return std::nullopt;
}

std::vector<std::string> splitColumnList(std::string_view list) {
  std::vector<std::string> out;
  for (;;) {
    const auto at = list.find(',');
    const auto name = trimSpaces(list.substr(0, at));
    if (!name.empty()) out.emplace_back(name);
    if (at == std::string_view::npos) return out;
    list.remove_prefix(at + 1);
  }
}

NumericTable readTable(const std::filesystem::path& source, const TableReadOptions& options,
                       const ImportControl& control, TableReadReport* report) {
  std::error_code ec;
  if (!std::filesystem::exists(source, ec)) throw InputError(source.string(), 0, "does not exist");
  if (std::filesystem::is_directory(source, ec))
    throw InputError(source.string(), 0, "is a folder; a table is read from one CSV or TSV file");
  TableReadReport local;
  TableReadReport& out = report ? *report : local;
  out.format = TableFormat::Csv;  // the one format so far; Auto reads CSV/TSV
  out.notes.clear();
  auto table = readCsvTable(source, options, control, out.notes);
  control.checkStop();
  return table;
}

}  // namespace latent::core
