// SPDX-License-Identifier: GPL-3.0-or-later
// Writing a FilledSparseMatrix out in full.
#include "core/data/filled_sparse_matrix.hpp"

namespace latent::core {

Eigen::MatrixXd FilledSparseMatrix::toDense() const {
  Eigen::MatrixXd dense(rows, cols);
  const Eigen::Map<const Eigen::VectorXd> fill(rowFill.data(), rows);
  for (Eigen::Index c = 0; c < cols; ++c) {
    dense.col(c) = fill;
    const auto end = columnStarts[static_cast<std::size_t>(c) + 1];
    for (auto i = columnStarts[static_cast<std::size_t>(c)]; i < end; ++i)
      dense(rowIndices[static_cast<std::size_t>(i)], c) = values[static_cast<std::size_t>(i)];
  }
  return dense;
}

}  // namespace latent::core
