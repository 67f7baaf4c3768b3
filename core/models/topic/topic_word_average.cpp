// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/models/topic/topic_word_average.hpp"

#include <algorithm>

namespace latent::core::topic {

TopicWordAverage::TopicWordAverage(int topics, int vocabularySize)
    : m_topics(topics),
      m_vocabulary(vocabularySize),
      m_words(static_cast<std::size_t>(vocabularySize)),
      m_smoothing(Eigen::VectorXd::Zero(topics)),
      m_inverse(topics) {}

std::size_t TopicWordAverage::entries() const noexcept {
  std::size_t n = 0;
  for (const auto& word : m_words) n += word.size();
  return n;
}

std::size_t TopicWordAverage::memoryBytes() const noexcept {
  std::size_t bytes = m_words.capacity() * sizeof(m_words[0]);
  for (const auto& word : m_words) bytes += word.capacity() * sizeof(Entry);
  return bytes + static_cast<std::size_t>(m_smoothing.size() + m_inverse.size()) * sizeof(double);
}

void TopicWordAverage::addToWord(std::size_t w, std::vector<Entry>& terms) {
  if (terms.empty()) return;
  std::sort(terms.begin(), terms.end(), [](const Entry& a, const Entry& b) { return a.topic < b.topic; });
  auto& entries = m_words[w];
  // Topics not yet stored for the word.
  std::size_t fresh = 0;
  for (std::size_t i = 0, j = 0; j < terms.size(); ++j) {
    while (i < entries.size() && entries[i].topic < terms[j].topic) ++i;
    if (i == entries.size() || entries[i].topic != terms[j].topic) ++fresh;
  }
  // Merged in place from the back. A fresh entry's value is the term itself, which is what the
  // dense sum held after adding it to zero, so the sums are the same bit for bit.
  auto i = static_cast<std::ptrdiff_t>(entries.size()) - 1;
  auto j = static_cast<std::ptrdiff_t>(terms.size()) - 1;
  entries.resize(entries.size() + fresh);
  auto out = static_cast<std::ptrdiff_t>(entries.size()) - 1;
  while (j >= 0) {
    const auto& term = terms[static_cast<std::size_t>(j)];
    if (i >= 0 && entries[static_cast<std::size_t>(i)].topic > term.topic) {
      entries[static_cast<std::size_t>(out--)] = entries[static_cast<std::size_t>(i--)];
    } else if (i >= 0 && entries[static_cast<std::size_t>(i)].topic == term.topic) {
      entries[static_cast<std::size_t>(out--)] = {term.topic,
                                                  entries[static_cast<std::size_t>(i--)].value + term.value};
      --j;
    } else {
      entries[static_cast<std::size_t>(out--)] = term;
      --j;
    }
  }
}

template <typename Scalar>
Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic> TopicWordAverage::meanAs() const {
  const Eigen::VectorXd scale = rowScale();
  const Eigen::Matrix<Scalar, Eigen::Dynamic, 1> smoothed = m_smoothing.cwiseProduct(scale).template cast<Scalar>();
  Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic> phi(m_topics, m_vocabulary);
  tbb::parallel_for(tbb::blocked_range<int>(0, m_vocabulary, 256), [&](const auto& r) {
    for (int w = r.begin(); w != r.end(); ++w) {
      phi.col(w) = smoothed;
      for (const auto& entry : m_words[static_cast<std::size_t>(w)])
        phi(entry.topic, w) = static_cast<Scalar>(meanOf(entry, scale));
    }
  });
  return phi;
}

Eigen::VectorXd TopicWordAverage::rowScale() const {
  // Each row is made to sum to one (rounding aside) so that downstream checks need no tolerance:
  // its sum over the words is the smoothing part V times plus the topic's stored sums, added up
  // in word order, so that the result does not depend on the thread count.
  // The mean's 1/S cancels in that normalisation: phi_kw = (sum_kw + smoothing_k) / rowSum_k.
  Eigen::VectorXd rowSum = m_smoothing * static_cast<double>(m_vocabulary);
  for (const auto& word : m_words)
    for (const auto& entry : word) rowSum[entry.topic] += entry.value;
  return rowSum.cwiseInverse();
}

TopicWordAverage::MeanColumns TopicWordAverage::meanColumns(bool asFloats) const { return {*this, asFloats}; }

TopicWordAverage::MeanColumns::MeanColumns(const TopicWordAverage& average, bool asFloats)
    : m_average(average),
      m_scale(average.rowScale()),
      m_fill(average.m_smoothing.cwiseProduct(m_scale)),
      m_asFloats(asFloats) {
  for (auto& value : m_fill) value = held(value);
}

void TopicWordAverage::MeanColumns::column(std::int32_t w, double* out) const {
  std::copy(m_fill.begin(), m_fill.end(), out);
  for (const auto& entry : m_average.m_words[static_cast<std::size_t>(w)]) out[entry.topic] = valueOf(entry);
}

void TopicWordAverage::MeanColumns::overrides(std::int32_t w, std::vector<TopicValue>& out) const {
  out.clear();
  for (const auto& entry : m_average.m_words[static_cast<std::size_t>(w)]) out.push_back({entry.topic, valueOf(entry)});
}

template Eigen::MatrixXd TopicWordAverage::meanAs<double>() const;
template Eigen::MatrixXf TopicWordAverage::meanAs<float>() const;

}  // namespace latent::core::topic
