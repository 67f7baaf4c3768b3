// SPDX-License-Identifier: GPL-3.0-or-later
// Feature names as rows; each table row as its name, label and a float64 BLOB of its values.
#include "core/store/table_store.hpp"

#include <algorithm>
#include <cmath>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/store/blob.hpp"
#include "core/store/damaged_project.hpp"

namespace latent::core {

// One staging row for all the feature names (small next to a row's values), one per table row,
// one for the facts.
std::size_t tableRowCount(const NumericTable& table) { return 1 + table.rowCount() + 1; }

void writeTableRows(Project& project, std::int64_t datasetId, const NumericTable& table, std::size_t first,
                    std::size_t count) {
  if (table.values.rows() != static_cast<Eigen::Index>(table.rowCount()) ||
      table.values.cols() != static_cast<Eigen::Index>(table.featureCount()) ||
      (table.hasLabels() && table.rowLabels.size() != table.rowCount()))
    throw std::logic_error("writeTableRows: the table's names, labels and values disagree in size");
  auto& db = project.db();
  const std::size_t end = std::min(first + count, tableRowCount(table));
  const std::size_t featuresEnd = 1;
  const std::size_t rowsEnd = featuresEnd + table.rowCount();
  if (first < featuresEnd && end > first) {
    auto features = db.prepare("INSERT INTO table_features (dataset_id, feature_index, name) VALUES (?1, ?2, ?3)");
    for (std::size_t f = 0; f < table.featureCount(); ++f)
      features.bind(1, datasetId).bind(2, static_cast<std::int64_t>(f)).bind(3, table.featureNames[f]).run();
  }
  if (end > featuresEnd && first < rowsEnd) {
    auto rows =
        db.prepare("INSERT INTO table_rows (dataset_id, row_index, name, label, vals) VALUES (?1, ?2, ?3, ?4, ?5)");
    std::vector<double> values(table.featureCount());
    for (std::size_t row = std::max(first, featuresEnd); row < std::min(end, rowsEnd); ++row) {
      const std::size_t r = row - featuresEnd;
      for (std::size_t f = 0; f < values.size(); ++f)
        values[f] = table.values(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(f));
      rows.bind(1, datasetId).bind(2, static_cast<std::int64_t>(r)).bind(3, table.rowNames[r]);
      if (table.hasLabels())
        rows.bind(4, table.rowLabels[r]);
      else
        rows.bindNull(4);
      rows.bindBlob(5, std::span<const double>(values)).run();
    }
  }
  if (end > rowsEnd) {
    auto facts = db.prepare(
        "UPDATE datasets SET options = json_set(options, '$.label_name', ?2, '$.has_labels', json(?3)) WHERE id = ?1");
    facts.bind(1, datasetId).bind(2, table.labelName).bind(3, table.hasLabels() ? "true" : "false").run();
  }
}

void writeTable(Project& project, std::int64_t datasetId, const NumericTable& table) {
  writeTableRows(project, datasetId, table, 0, tableRowCount(table));
}

NumericTable loadTable(Project& project, std::int64_t datasetId) {
  NumericTable table;
  const auto info = project.dataset(datasetId);
  const StoredOptions options(project, info);
  table.labelName = options.text("label_name");
  const bool labelled = options.flag("has_labels");
  auto features = project.db().prepare(
      "SELECT name, feature_index FROM table_features WHERE dataset_id = ?1 ORDER BY feature_index");
  features.bind(1, datasetId);
  while (features.step()) {
    checkStoredPosition(project, "table_features",
                        "dataset " + std::to_string(datasetId) + ", feature " + features.text(0), "feature_index",
                        features.integer(1), table.featureCount());
    table.featureNames.push_back(features.text(0));
  }
  const auto width = table.featureCount();

  std::vector<double> values;  // row-major while reading
  auto rows = project.db().prepare(
      "SELECT name, label, vals, row_index FROM table_rows WHERE dataset_id = ?1 ORDER BY row_index");
  rows.bind(1, datasetId);
  while (rows.step()) {
    const auto row = "dataset " + std::to_string(datasetId) + ", row " + std::to_string(rows.integer(3));
    checkStoredPosition(project, "table_rows", row, "row_index", rows.integer(3), table.rowCount());
    const auto blob = rows.blob(2);
    if (blob.size() != width * sizeof(double))
      throw damagedProject(
          project, "table_rows", row,
          "vals holds " + std::to_string(blob.size()) + " bytes for " + std::to_string(width) + " features of 8 bytes");
    const auto rowValues = blobToVector<double>(blob);
    if (!std::all_of(rowValues.begin(), rowValues.end(), [](double v) { return std::isfinite(v); }))
      throw damagedProject(project, "table_rows", row, "vals holds a value that is not a finite number");
    table.rowNames.push_back(rows.text(0));
    if (labelled) table.rowLabels.push_back(rows.isNull(1) ? std::string() : rows.text(1));
    values.insert(values.end(), rowValues.begin(), rowValues.end());
  }
  table.values = Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
      values.data(), static_cast<Eigen::Index>(table.rowCount()), static_cast<Eigen::Index>(width));
  return table;
}

nlohmann::json tableSummary(const NumericTable& table) {
  nlohmann::json summary = {{"rows", table.rowCount()},
                            {"features", table.featureCount()},
                            {"binary", table.isBinary()},
                            {"min", table.values.size() > 0 ? table.values.minCoeff() : 0.0},
                            {"max", table.values.size() > 0 ? table.values.maxCoeff() : 0.0},
                            {"mean", table.values.size() > 0 ? table.values.mean() : 0.0}};
  if (table.hasLabels()) {
    summary["label_column"] = table.labelName;
    std::vector<std::string> labels = table.rowLabels;
    std::sort(labels.begin(), labels.end());
    summary["labels"] = std::unique(labels.begin(), labels.end()) - labels.begin();
  }
  return summary;
}

}  // namespace latent::core
