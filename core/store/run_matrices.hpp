// SPDX-License-Identifier: GPL-3.0-or-later
// A run's result matrices in the project file (run_matrices, run_matrix_parts): saved dense as
// doubles or float32, or sparse, each in one blob or in parts; read back as doubles or in the form
// they were stored in. Each save is one short transaction unless the caller already holds one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "core/data/filled_sparse_matrix.hpp"
#include "core/data/stored_matrix.hpp"
#include "core/store/project.hpp"

namespace latent::core {

// How a matrix's values are stored (schema 15): as doubles, or rounded to floats (about seven
// significant digits) in half the space. loadMatrix reads either back as doubles.
enum class MatrixElement { Float64, Float32 };
// A matrix of more than `partBytes` of stored values is stored in parts (run_matrix_parts, schema
// 13), so that no blob nears SQLite's limit of about 1 GB; loadMatrix joins them. Smaller ones stay
// one blob, written in place. Parts hold at most min(partBytes, kMatrixPartWriteBytes): each is
// bound as a value, which SQLite copies for the binding and again for the row (and a float32 part
// is converted first), so that writing holds a few parts' bytes besides the matrix, not a few
// hundred megabytes.
inline constexpr std::size_t kMatrixPartBytes = std::size_t{256} << 20;
inline constexpr std::size_t kMatrixPartWriteBytes = std::size_t{32} << 20;
void saveMatrix(Project& project, std::int64_t runId, const std::string& name, std::int64_t iteration,
                const Eigen::MatrixXd& values, std::size_t partBytes = kMatrixPartBytes,
                MatrixElement element = MatrixElement::Float64);
// A matrix held as floats (NamedMatrix::floats), stored as float32 without a conversion.
void saveFloatMatrix(Project& project, std::int64_t runId, const std::string& name, std::int64_t iteration,
                     const Eigen::MatrixXf& values, std::size_t partBytes = kMatrixPartBytes);
// A snapshot in sparse form (FilledSparseMatrix; element 'sparse', schema 16): one blob of the
// rows' fills, the columns' starts, the entries' rows and their values, a few megabytes where the
// dense topic-word matrix at K = 3000 takes 320 MB as floats. It is written dense (saveMatrix,
// `denseElement`) instead when that is no larger; over `partBytes` its bytes go in parts, as a
// dense matrix's values do (schema 17). loadMatrix returns the dense matrix, entry for entry the
// one toDense() makes.
void saveSparseMatrix(Project& project, std::int64_t runId, const std::string& name, std::int64_t iteration,
                      const FilledSparseMatrix& values, MatrixElement denseElement,
                      std::size_t partBytes = kMatrixPartBytes);
// iteration -1 is the final result; std::nullopt when the run has no such matrix.
std::optional<Eigen::MatrixXd> loadMatrix(Project& project, std::int64_t runId, const std::string& name,
                                          std::int64_t iteration = -1);
// The same matrix in the form it was stored in: a sparse one (saveSparseMatrix) as it is, without
// the dense matrix loadMatrix makes of it, and a float32 one as floats (the topic views read topics
// and doc_topic so: core/data/topic_word_table.hpp, dense_table.hpp); doubles as loadMatrix
// returns them.
std::optional<StoredMatrix> loadStoredMatrix(Project& project, std::int64_t runId, const std::string& name,
                                             std::int64_t iteration = -1);
// Names of the matrices a run holds (final and snapshots), with their iterations.
std::vector<std::pair<std::string, std::int64_t>> listMatrices(Project& project, std::int64_t runId);

}  // namespace latent::core
