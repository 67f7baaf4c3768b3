// SPDX-License-Identifier: GPL-3.0-or-later
// Numeric tables in the project file.
#pragma once

#include <cstddef>
#include <cstdint>

#include <nlohmann/json.hpp>

#include "core/data/numeric_table.hpp"
#include "core/store/project.hpp"

namespace latent::core {

// Within the caller's transaction.
void writeTable(Project& project, std::int64_t datasetId, const NumericTable& table);
// The same in parts, for imports that write in several short transactions: the rows are one for
// all the feature names, then the table's rows (name, label, values), then one for the facts kept
// in the dataset's options; writeTableRows writes rows [first, first + count) of them within the
// caller's transaction.
std::size_t tableRowCount(const NumericTable& table);
void writeTableRows(Project& project, std::int64_t datasetId, const NumericTable& table, std::size_t first,
                    std::size_t count);
// Exactly what was written: names, labels and every value bit for bit.
NumericTable loadTable(Project& project, std::int64_t datasetId);

// The dataset summary of a table: rows, features, binary (every value 0 or 1), label_column
// (when it has labels) and the range and mean of the values.
nlohmann::json tableSummary(const NumericTable& table);

}  // namespace latent::core
