// SPDX-License-Identifier: GPL-3.0-or-later
// A numeric table: rows (cases) x features (variables), with optional categorical row labels.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <Eigen/Core>

namespace latent::core {

struct NumericTable {
  std::vector<std::string> rowNames;      // the id column's values, else "1" .. "N"
  std::vector<std::string> featureNames;  // the header's names of the kept feature columns
  Eigen::MatrixXd values;                 // rowCount() x featureCount(), every value finite
  // A categorical column kept beside the features (a known class per row), not a feature.
  std::string labelName;               // its header name; empty when there is none
  std::vector<std::string> rowLabels;  // one per row, or empty when there is no label column

  std::size_t rowCount() const noexcept { return rowNames.size(); }
  std::size_t featureCount() const noexcept { return featureNames.size(); }
  bool hasLabels() const noexcept { return !rowLabels.empty(); }
  // Every value is 0 or 1 (a binary harmonium's data); true for an empty table.
  bool isBinary() const noexcept {
    for (Eigen::Index c = 0; c < values.cols(); ++c)
      for (Eigen::Index r = 0; r < values.rows(); ++r)
        if (const double v = values(r, c); v != 0.0 && v != 1.0) return false;
    return true;
  }
};

}  // namespace latent::core
