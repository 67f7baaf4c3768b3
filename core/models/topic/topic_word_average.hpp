// SPDX-License-Identifier: GPL-3.0-or-later
// The running sum of a Gibbs chain's topic-word samples phi_kw = (n_kw + beta) / (n_k + V beta)
// (001 eq. 6), kept sparse: most words sit in few topics, so a dense K x V sum holds mostly the
// smoothing part, which is the same for every word of a topic and is kept once per topic.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <Eigen/Core>

#include "core/eval/topic_columns.hpp"

namespace latent::core::topic {

class TopicWordAverage {
 public:
  TopicWordAverage(int topics, int vocabularySize);

  // Adds one sample. counts.forEachTopicOfWord(w, f) calls f(k, n_kw) for the nonzero counts of
  // word w, in any order; topicTotals are the n_k.
  template <typename Counts>
  void add(const Counts& counts, std::span<const std::int64_t> topicTotals, double beta);

  std::int64_t samples() const noexcept { return m_samples; }
  // Stored (topic, word) pairs: those with a nonzero count in some sample.
  std::size_t entries() const noexcept;
  std::size_t memoryBytes() const noexcept;

  // The mean of the samples' phi, K x V, each row summing to one up to rounding of the last
  // division. Computed in doubles column by column and written in the type asked for: meanAs<float>()
  // is meanAs<double>() rounded to floats, and no dense double K x V is formed for it.
  template <typename Scalar>
  Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic> meanAs() const;
  Eigen::MatrixXd mean() const { return meanAs<double>(); }

  // The same mean read a column at a time (held-out scores), each value as meanAs<double>() has
  // it, or as meanAs<float>() with `asFloats`; no K x V is formed. The average must outlive it
  // and take no sample while it is read.
  class MeanColumns;
  MeanColumns meanColumns(bool asFloats) const;

 private:
  struct Entry {
    std::int32_t topic;
    double value;  // sum over the samples of n_kw / (n_k + V beta)
  };
  // 1 / the sum of each topic's row of the summed samples, which makes the rows of the mean sum to one.
  Eigen::VectorXd rowScale() const;
  // The mean's value of a topic's stored entry.
  double meanOf(const Entry& entry, const Eigen::VectorXd& scale) const {
    return (entry.value + m_smoothing[entry.topic]) * scale[entry.topic];
  }
  // Merges one sample's terms of word w, sorted by topic, into its entries (sorted by topic).
  void addToWord(std::size_t w, std::vector<Entry>& terms);

  int m_topics;
  int m_vocabulary;
  std::vector<std::vector<Entry>> m_words;
  Eigen::VectorXd m_smoothing;  // sum over the samples of beta / (n_k + V beta)
  Eigen::VectorXd m_inverse;    // this sample's 1 / (n_k + V beta)
  std::int64_t m_samples = 0;
};

class TopicWordAverage::MeanColumns final : public TopicColumns {
 public:
  MeanColumns(const TopicWordAverage& average, bool asFloats);
  Eigen::Index topics() const override { return m_fill.size(); }
  void column(std::int32_t w, double* out) const override;
  bool heldAsFloats() const override { return m_asFloats; }
  const double* fill() const override { return m_fill.data(); }
  void overrides(std::int32_t w, std::vector<TopicValue>& out) const override;

 private:
  double held(double value) const { return heldValue(value, m_asFloats); }
  // A stored entry's value in this column, as the mean holds it.
  double valueOf(const Entry& entry) const { return held(m_average.meanOf(entry, m_scale)); }

  const TopicWordAverage& m_average;
  Eigen::VectorXd m_scale;
  Eigen::VectorXd m_fill;  // the mean of the words no sample put in the topic
  bool m_asFloats;
};

template <typename Counts>
void TopicWordAverage::add(const Counts& counts, std::span<const std::int64_t> topicTotals, double beta) {
  for (int k = 0; k < m_topics; ++k)
    m_inverse[k] = 1.0 / (static_cast<double>(topicTotals[static_cast<std::size_t>(k)]) + m_vocabulary * beta);
  m_smoothing += beta * m_inverse;
  tbb::parallel_for(tbb::blocked_range<int>(0, m_vocabulary, 256), [&](const auto& r) {
    std::vector<Entry> terms;  // reused across the words of the block
    for (int w = r.begin(); w != r.end(); ++w) {
      terms.clear();
      counts.forEachTopicOfWord(static_cast<std::size_t>(w), [&](std::int32_t k, std::int64_t c) {
        terms.push_back({k, static_cast<double>(c) * m_inverse[k]});
      });
      addToWord(static_cast<std::size_t>(w), terms);
    }
  });
  ++m_samples;
}

}  // namespace latent::core::topic
