// SPDX-License-Identifier: GPL-3.0-or-later
// A matrix that is one value per row everywhere except at a few entries of each column, held as
// those entries. lda-gibbs's topics are such a matrix: phi_kw = (n_kw + beta) / (n_k + V beta) is
// beta / (n_k + V beta) wherever topic k holds no token of word w, and the counts n_kw are sparse
// (at most one nonzero per token). Its snapshots are stored in this form (run_store.hpp), a few
// megabytes where the dense matrix takes hundreds at K in the thousands.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <Eigen/Core>

namespace latent::core {

struct FilledSparseMatrix {
  Eigen::Index rows = 0;
  Eigen::Index cols = 0;
  std::vector<double> rowFill;             // rows: the value of every entry not listed
  std::vector<std::int64_t> columnStarts;  // cols + 1: column c's entries are [columnStarts[c], columnStarts[c + 1])
  std::vector<std::int32_t> rowIndices;    // the listed entries' rows, each row at most once per column
  std::vector<double> values;              // the listed entries' values

  std::size_t entries() const noexcept { return values.size(); }
  // The matrix with every entry written out: the fills, then the listed entries over them.
  Eigen::MatrixXd toDense() const;
  // The same rounded to floats, without a matrix of doubles behind it.
  Eigen::MatrixXf toDenseFloats() const;
};

struct NamedSparseMatrix {
  std::string name;  // as NamedMatrix: "topic_word", ...
  FilledSparseMatrix values;
};

}  // namespace latent::core
