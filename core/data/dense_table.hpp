// SPDX-License-Identifier: GPL-3.0-or-later
// A dense matrix held in the element it was stored in: doubles, or the floats a large one is stored
// as (core/data/matrix_precision.hpp), read as doubles entry by entry. A reader that keeps a stored
// float32 matrix so holds half of what the same matrix as doubles takes (doc_topic of 20,039
// documents at K = 5000: 401 MB, not 802), and every value it reads is the one loadMatrix gives.
#pragma once

#include <Eigen/Core>

#include <variant>
#include <vector>

#include "core/data/stored_matrix.hpp"

namespace latent::core {

class DenseTable {
 public:
  DenseTable() = default;
  explicit DenseTable(Eigen::MatrixXd values) : m_doubles(std::move(values)) {}
  explicit DenseTable(Eigen::MatrixXf values) : m_floats(std::move(values)), m_isFloat(true) {}
  // Whichever form it was stored in; a sparse one written out as doubles.
  explicit DenseTable(StoredMatrix stored) {
    if (auto* floats = std::get_if<Eigen::MatrixXf>(&stored)) {
      m_floats = std::move(*floats);
      m_isFloat = true;
    } else if (auto* sparse = std::get_if<FilledSparseMatrix>(&stored)) {
      m_doubles = sparse->toDense();
    } else {
      m_doubles = std::move(std::get<Eigen::MatrixXd>(stored));
    }
  }

  Eigen::Index rows() const noexcept { return m_isFloat ? m_floats.rows() : m_doubles.rows(); }
  Eigen::Index cols() const noexcept { return m_isFloat ? m_floats.cols() : m_doubles.cols(); }
  bool isFloat() const noexcept { return m_isFloat; }

  double operator()(Eigen::Index row, Eigen::Index col) const {
    return m_isFloat ? static_cast<double>(m_floats(row, col)) : m_doubles(row, col);
  }
  // Calls f with the matrix held, a MatrixXd or a MatrixXf.
  template <typename F>
  decltype(auto) visit(F&& f) const {
    return m_isFloat ? f(m_floats) : f(m_doubles);
  }
  // The column of row `row`'s largest value, the first of equal ones (Eigen's maxCoeff), and the value.
  Eigen::Index rowArgMax(Eigen::Index row, double* value = nullptr) const {
    Eigen::Index best = 0;
    const double largest = visit([&](const auto& m) { return static_cast<double>(m.row(row).maxCoeff(&best)); });
    if (value) *value = largest;
    return best;
  }
  // rowArgMax of every row, in one pass down the columns (a row of a column-major matrix is strided).
  std::vector<Eigen::Index> rowArgMaxes() const {
    std::vector<Eigen::Index> best(static_cast<std::size_t>(rows()), 0);
    visit([&](const auto& m) {
      for (Eigen::Index c = 1; c < m.cols(); ++c)
        for (Eigen::Index r = 0; r < m.rows(); ++r)
          if (m(r, c) > m(r, best[static_cast<std::size_t>(r)])) best[static_cast<std::size_t>(r)] = c;
    });
    return best;
  }
  // The matrix of doubles held; null when floats are.
  const Eigen::MatrixXd* doubles() const noexcept { return m_isFloat ? nullptr : &m_doubles; }
  Eigen::MatrixXd toDoubles() const { return m_isFloat ? Eigen::MatrixXd(m_floats.cast<double>()) : m_doubles; }

 private:
  Eigen::MatrixXd m_doubles;
  Eigen::MatrixXf m_floats;
  bool m_isFloat = false;
};

}  // namespace latent::core
