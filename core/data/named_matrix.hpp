// SPDX-License-Identifier: GPL-3.0-or-later
// A model's result matrix under the name the views, exports and predictions read it by.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <Eigen/Core>

namespace latent::core {

// Held as doubles (`values`), or, for the large topic-word and document-topic matrices that
// matrix_precision.hpp names, as floats (`floats`) from where the model forms them to where the
// store writes them, so that no dense double copy of them exists at all. Exactly one of the two
// holds the matrix; the other is empty.
struct NamedMatrix {
  NamedMatrix() = default;
  NamedMatrix(std::string matrixName, Eigen::MatrixXd doubles)
      : name(std::move(matrixName)), values(std::move(doubles)) {}
  static NamedMatrix ofFloats(std::string matrixName, Eigen::MatrixXf singles) {
    NamedMatrix m;
    m.name = std::move(matrixName);
    m.floats = std::move(singles);
    return m;
  }

  std::string name;  // "topic_word", "doc_topic", ...
  Eigen::MatrixXd values;
  Eigen::MatrixXf floats;

  bool isFloat() const noexcept { return floats.size() > 0; }
  Eigen::Index rows() const noexcept { return isFloat() ? floats.rows() : values.rows(); }
  Eigen::Index cols() const noexcept { return isFloat() ? floats.cols() : values.cols(); }
  // A double copy, whichever the form (for readers of small matrices or of a few rows: a large
  // float matrix is better read through visitValues).
  Eigen::MatrixXd widened() const { return isFloat() ? Eigen::MatrixXd(floats.cast<double>()) : values; }
};

// Calls f with the matrix in the form it is held (const Eigen::MatrixXd& or const Eigen::MatrixXf&).
template <typename F>
decltype(auto) visitValues(const NamedMatrix& matrix, F&& f) {
  if (matrix.isFloat()) return f(matrix.floats);
  return f(matrix.values);
}

// The matrix called `name` among a result's or a snapshot's matrices, in either form; null when
// there is none.
inline const NamedMatrix* findNamedMatrix(const std::vector<NamedMatrix>& matrices, std::string_view name) {
  for (const auto& m : matrices)
    if (m.name == name) return &m;
  return nullptr;
}

// The double values of the matrix called `name`; null when there is none. A matrix held as
// floats has no double values to point at: that is a reader that should use findNamedMatrix, and
// it throws rather than reading it as absent.
inline const Eigen::MatrixXd* findMatrix(const std::vector<NamedMatrix>& matrices, std::string_view name) {
  const auto* m = findNamedMatrix(matrices, name);
  if (m == nullptr) return nullptr;
  if (m->isFloat()) throw std::logic_error("the matrix " + m->name + " is held as float32: read it by findNamedMatrix");
  return &m->values;
}

}  // namespace latent::core
