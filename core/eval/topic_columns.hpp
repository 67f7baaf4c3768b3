// SPDX-License-Identifier: GPL-3.0-or-later
// A model's topics phi (K x V) as the held-out scores read them: one word's column at a time, in
// doubles. A fold-in and a score read only the columns of a document's words, so the topics need
// not be a dense K x V matrix: a Gibbs chain hands them over as its sparse counts and each topic's
// smoothing (or as their running average), which every process of a distributed fit holds, where
// a dense phi would cost K x V on each at every evaluation.
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include <Eigen/Core>

#include "core/data/filled_sparse_matrix.hpp"

namespace latent::core {

// One value of a word's column of phi: phi_kw for topic k.
struct TopicValue {
  std::int32_t topic;
  double value;
};

class TopicColumns {
 public:
  virtual ~TopicColumns() = default;
  virtual Eigen::Index topics() const = 0;
  // Writes phi_kw for k = 0 .. K - 1 to `out`. A column is the same value for value however phi
  // is held (a float held as a float read as a double), so every form of the same topics gives
  // the same scores to the bit. Safe to call concurrently.
  virtual void column(std::int32_t w, double* out) const = 0;
  // True when every value is a float's (phi held as floats): a reader may keep columns as floats.
  virtual bool heldAsFloats() const { return false; }
  // Topics held as one value per topic for most words (a Gibbs chain's smoothing) and, per word,
  // the topics where it differs, may say so: then column(w) is fill() with overrides(w) written
  // over it, value for value, and a reader can turn one word's column into another's in the time
  // of their overrides rather than of K. Null (the default) where phi is not held so.
  virtual const double* fill() const { return nullptr; }
  // Word w's topics whose value differs from fill(), with those values; only where fill() is not
  // null. Safe to call concurrently.
  virtual void overrides(std::int32_t /*w*/, std::vector<TopicValue>& out) const { out.clear(); }
};

// `value` as a column of phi held `asFloats` has it: rounded to a float and read back, or as it is.
inline double heldValue(double value, bool asFloats) noexcept {
  return asFloats ? static_cast<double>(static_cast<float>(value)) : value;
}

// A dense phi of doubles or of floats (NamedMatrix::values or ::floats), which must outlive this.
template <typename Matrix>
class DenseTopicColumns final : public TopicColumns {
 public:
  explicit DenseTopicColumns(const Matrix& topicWord) : m_topicWord(topicWord) {}
  Eigen::Index topics() const override { return m_topicWord.rows(); }
  void column(std::int32_t w, double* out) const override {
    const auto* phi = m_topicWord.col(w).data();
    for (Eigen::Index k = 0; k < m_topicWord.rows(); ++k) out[k] = static_cast<double>(phi[k]);
  }
  bool heldAsFloats() const override { return std::is_same_v<typename Matrix::Scalar, float>; }

 private:
  const Matrix& m_topicWord;
};

// Topics held as a fill and overrides (fill() not null) as the sparse matrix a store keeps: each
// topic's fill and each of the first `vocabulary` words' overrides, the values as the columns give
// them (so toDense() is phi value for value), without a K x V.
FilledSparseMatrix filledTopics(const TopicColumns& topicWord, Eigen::Index vocabulary);

// sum_k theta_k phi_k, added in the same order whatever the arrays' alignment (Eigen's dot starts
// its packets where the memory is aligned), so that a document scores the same in any process.
double topicDot(const double* theta, const double* phi, Eigen::Index topics) noexcept;

}  // namespace latent::core
