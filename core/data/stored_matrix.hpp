// SPDX-License-Identifier: GPL-3.0-or-later
// A matrix in the form a project stores it (store/run_store.hpp, loadStoredMatrix): doubles, the
// floats a large one is rounded to, or a fill per row with each column's other entries.
#pragma once

#include <variant>

#include <Eigen/Core>

#include "core/data/filled_sparse_matrix.hpp"

namespace latent::core {

using StoredMatrix = std::variant<Eigen::MatrixXd, Eigen::MatrixXf, FilledSparseMatrix>;

inline Eigen::Index storedRows(const StoredMatrix& stored) {
  if (const auto* sparse = std::get_if<FilledSparseMatrix>(&stored)) return sparse->rows;
  if (const auto* floats = std::get_if<Eigen::MatrixXf>(&stored)) return floats->rows();
  return std::get<Eigen::MatrixXd>(stored).rows();
}

}  // namespace latent::core
