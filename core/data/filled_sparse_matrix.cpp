// SPDX-License-Identifier: GPL-3.0-or-later
// Writing a FilledSparseMatrix out in full.
#include "core/data/filled_sparse_matrix.hpp"

namespace latent::core {

namespace {

template <typename Scalar>
Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic> writtenOut(const FilledSparseMatrix& m) {
  Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic> dense(m.rows, m.cols);
  const Eigen::Matrix<Scalar, Eigen::Dynamic, 1> fill =
      Eigen::Map<const Eigen::VectorXd>(m.rowFill.data(), m.rows).template cast<Scalar>();
  for (Eigen::Index c = 0; c < m.cols; ++c) {
    dense.col(c) = fill;
    const auto end = m.columnStarts[static_cast<std::size_t>(c) + 1];
    for (auto i = m.columnStarts[static_cast<std::size_t>(c)]; i < end; ++i)
      dense(m.rowIndices[static_cast<std::size_t>(i)], c) = static_cast<Scalar>(m.values[static_cast<std::size_t>(i)]);
  }
  return dense;
}

}  // namespace

Eigen::MatrixXd FilledSparseMatrix::toDense() const { return writtenOut<double>(*this); }

Eigen::MatrixXf FilledSparseMatrix::toDenseFloats() const { return writtenOut<float>(*this); }

}  // namespace latent::core
