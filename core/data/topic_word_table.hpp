// SPDX-License-Identifier: GPL-3.0-or-later
// A run's topics, K x V (each row a topic's distribution over the words), held in the form they
// were stored in: a dense matrix (of doubles or of floats, DenseTable), or each topic's fill plus
// the words it holds at another value (a FilledSparseMatrix turned topic by topic). lda-gibbs
// stores large topics in the second form, and a reader that keeps it needs megabytes where the
// dense matrix takes gigabytes (K = 5000 over 73,534 words: 2.9 GB of doubles). Every value is the
// one the dense matrix holds.
#pragma once

#include <Eigen/Core>

#include <cstdint>
#include <span>
#include <vector>

#include "core/data/dense_table.hpp"
#include "core/data/filled_sparse_matrix.hpp"
#include "core/data/stored_matrix.hpp"

namespace latent::core {

class TopicWordTable {
 public:
  TopicWordTable() = default;
  explicit TopicWordTable(Eigen::MatrixXd dense);
  explicit TopicWordTable(Eigen::MatrixXf dense);
  explicit TopicWordTable(const FilledSparseMatrix& sparse);
  // Whichever form it was stored in.
  explicit TopicWordTable(StoredMatrix stored);

  Eigen::Index rows() const noexcept { return m_rows; }
  Eigen::Index cols() const noexcept { return m_cols; }
  bool isDense() const noexcept { return !m_sparse; }

  // The value at (topic, word): a lookup in the dense matrix, or a search of the topic's listed words.
  double operator()(Eigen::Index topic, Eigen::Index word) const;
  // Topic `topic`'s values of every word, in order, into `out` (cols() of them).
  void row(Eigen::Index topic, std::span<double> out) const;
  // Calls f with the dense matrix: the one held, or one written out for the call (for the work, such
  // as the Topic map, that reads every entry and is only done for tables of moderate size).
  template <typename F>
  decltype(auto) withDense(F&& f) const {
    if (const auto* held = m_sparse ? nullptr : m_dense.doubles()) return f(*held);
    const Eigen::MatrixXd written = toDense();
    return f(written);
  }
  Eigen::MatrixXd toDense() const;

 private:
  Eigen::Index m_rows = 0;
  Eigen::Index m_cols = 0;
  bool m_sparse = false;
  DenseTable m_dense;  // the dense form; empty in the sparse form
  // The sparse form: topic k's words other than its fill are m_words[m_starts[k] .. m_starts[k + 1]),
  // ascending, with their values in m_values.
  std::vector<double> m_fill;
  std::vector<std::int64_t> m_starts;
  std::vector<std::int32_t> m_words;
  std::vector<double> m_values;
};

}  // namespace latent::core
