// SPDX-License-Identifier: GPL-3.0-or-later
// How a result matrix is stored: as the float32 it is held as, or as doubles converted to float32
// under the policy of matrix_precision.hpp (schema 15), or as doubles.
#pragma once

#include <cstdint>
#include <string_view>

#include "core/data/matrix_precision.hpp"
#include "core/data/named_matrix.hpp"
#include "core/store/run_store.hpp"

namespace latent::core {

// The element type for a matrix of doubles: float32 where isFloat32Matrix says so. The run's
// metrics are computed before the matrices are stored; what reads them back (the GUI's pages,
// exports, readers of the project file) sees float32 matrices' values widened to doubles.
MatrixElement storedElement(std::string_view name, std::int64_t rows, std::int64_t cols);
// A matrix held as floats is float32; one of doubles as above.
MatrixElement storedElement(const NamedMatrix& matrix);

// Writes `matrix` as the run's matrix of its name at `iteration` (-1: the final result), floats
// as they are, doubles in storedElement's type.
void saveResultMatrix(Project& project, std::int64_t runId, std::int64_t iteration, const NamedMatrix& matrix);

}  // namespace latent::core
