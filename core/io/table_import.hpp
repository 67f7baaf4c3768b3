// SPDX-License-Identifier: GPL-3.0-or-later
// Reading a numeric table (rows x features) from CSV/TSV.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/data/numeric_table.hpp"
#include "core/io/import_control.hpp"

namespace latent::core {

enum class TableFormat { Auto, Csv };

std::string_view toString(TableFormat format) noexcept;
// Accepts the command line's names: auto csv.
std::optional<TableFormat> tableFormatFromString(std::string_view name) noexcept;

struct TableReadOptions {
  TableFormat format = TableFormat::Auto;
  // The column of row names; empty: none, the rows are named 1 .. N.
  std::string idColumn;
  // A categorical column kept as the rows' labels, not as a feature; empty: none.
  std::string labelColumn;
  // The feature columns to keep, in this order; empty: every column but the id and label ones.
  std::vector<std::string> columns;
};

struct TableReadReport {
  TableFormat format = TableFormat::Auto;
  std::vector<std::string> notes;  // sentences for the user (delimiter, columns used, ...)
};

// Splits "a,b, c" into its trimmed, non-empty names (the --columns option).
std::vector<std::string> splitColumnList(std::string_view list);

// Throws InputError (file, line, reason) on a bad file, UsageError on contradictory options,
// Cancelled on a stop; never returns part of a table (except when control.maxRecords stops it
// early, for previews).
NumericTable readTable(const std::filesystem::path& source, const TableReadOptions& options,
                       const ImportControl& control, TableReadReport* report = nullptr);

}  // namespace latent::core
