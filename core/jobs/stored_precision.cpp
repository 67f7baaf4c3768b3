// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/jobs/stored_precision.hpp"

namespace latent::core {

MatrixElement storedElement(std::string_view name, std::int64_t rows, std::int64_t cols) {
  return isFloat32Matrix(name, rows, cols) ? MatrixElement::Float32 : MatrixElement::Float64;
}

MatrixElement storedElement(const NamedMatrix& matrix) {
  return matrix.isFloat() ? MatrixElement::Float32 : storedElement(matrix.name, matrix.rows(), matrix.cols());
}

void saveResultMatrix(Project& project, std::int64_t runId, std::int64_t iteration, const NamedMatrix& matrix) {
  if (matrix.isFloat())
    saveFloatMatrix(project, runId, matrix.name, iteration, matrix.floats, kMatrixPartBytes);
  else
    saveMatrix(project, runId, matrix.name, iteration, matrix.values, kMatrixPartBytes, storedElement(matrix));
}

}  // namespace latent::core
