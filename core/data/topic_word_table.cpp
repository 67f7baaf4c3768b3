// SPDX-License-Identifier: GPL-3.0-or-later
// A topic-word matrix in its stored form: the sparse form turned from columns to topics.
#include "core/data/topic_word_table.hpp"

#include <algorithm>
#include <stdexcept>
#include <variant>

namespace latent::core {

TopicWordTable::TopicWordTable(Eigen::MatrixXd dense)
    : m_rows(dense.rows()), m_cols(dense.cols()), m_dense(std::move(dense)) {}

TopicWordTable::TopicWordTable(Eigen::MatrixXf dense)
    : m_rows(dense.rows()), m_cols(dense.cols()), m_dense(std::move(dense)) {}

TopicWordTable::TopicWordTable(const FilledSparseMatrix& sparse)
    : m_rows(sparse.rows), m_cols(sparse.cols), m_sparse(true), m_fill(sparse.rowFill) {
  if (sparse.rowFill.size() != static_cast<std::size_t>(sparse.rows) ||
      sparse.columnStarts.size() != static_cast<std::size_t>(sparse.cols) + 1 ||
      sparse.rowIndices.size() != sparse.values.size() || sparse.columnStarts.front() != 0 ||
      sparse.columnStarts.back() != static_cast<std::int64_t>(sparse.entries()) ||
      std::any_of(sparse.rowIndices.begin(), sparse.rowIndices.end(),
                  [&](std::int32_t topic) { return topic < 0 || topic >= sparse.rows; }))
    throw std::invalid_argument("a sparse topic-word matrix whose arrays do not fit its shape");
  // Counted, then placed: the columns are walked in ascending order, so each topic's words come out
  // ascending without a sort.
  m_starts.assign(static_cast<std::size_t>(m_rows) + 1, 0);
  for (const auto topic : sparse.rowIndices) ++m_starts[static_cast<std::size_t>(topic) + 1];
  for (std::size_t k = 0; k < static_cast<std::size_t>(m_rows); ++k) m_starts[k + 1] += m_starts[k];
  m_words.resize(sparse.entries());
  m_values.resize(sparse.entries());
  std::vector<std::int64_t> next(m_starts.begin(), m_starts.end() - 1);
  for (Eigen::Index word = 0; word < m_cols; ++word)
    for (auto i = sparse.columnStarts[static_cast<std::size_t>(word)];
         i < sparse.columnStarts[static_cast<std::size_t>(word) + 1]; ++i) {
      const auto at =
          static_cast<std::size_t>(next[static_cast<std::size_t>(sparse.rowIndices[static_cast<std::size_t>(i)])]++);
      m_words[at] = static_cast<std::int32_t>(word);
      m_values[at] = sparse.values[static_cast<std::size_t>(i)];
    }
}

TopicWordTable::TopicWordTable(StoredMatrix stored)
    : TopicWordTable(std::visit([](auto& m) { return TopicWordTable(std::move(m)); }, stored)) {}

double TopicWordTable::operator()(Eigen::Index topic, Eigen::Index word) const {
  if (isDense()) return m_dense(topic, word);
  const auto first = m_words.begin() + m_starts[static_cast<std::size_t>(topic)];
  const auto last = m_words.begin() + m_starts[static_cast<std::size_t>(topic) + 1];
  const auto found = std::lower_bound(first, last, static_cast<std::int32_t>(word));
  return found != last && *found == word ? m_values[static_cast<std::size_t>(found - m_words.begin())]
                                         : m_fill[static_cast<std::size_t>(topic)];
}

void TopicWordTable::row(Eigen::Index topic, std::span<double> out) const {
  if (isDense()) {
    m_dense.visit([&](const auto& m) {
      for (Eigen::Index w = 0; w < m_cols; ++w) out[static_cast<std::size_t>(w)] = static_cast<double>(m(topic, w));
    });
    return;
  }
  std::fill(out.begin(), out.begin() + m_cols, m_fill[static_cast<std::size_t>(topic)]);
  for (auto i = m_starts[static_cast<std::size_t>(topic)]; i < m_starts[static_cast<std::size_t>(topic) + 1]; ++i)
    out[static_cast<std::size_t>(m_words[static_cast<std::size_t>(i)])] = m_values[static_cast<std::size_t>(i)];
}

Eigen::MatrixXd TopicWordTable::toDense() const {
  if (isDense()) return m_dense.toDoubles();
  Eigen::MatrixXd dense(m_rows, m_cols);
  std::vector<double> values(static_cast<std::size_t>(m_cols));
  for (Eigen::Index k = 0; k < m_rows; ++k) {
    row(k, values);
    dense.row(k) = Eigen::Map<const Eigen::RowVectorXd>(values.data(), m_cols);
  }
  return dense;
}

}  // namespace latent::core
