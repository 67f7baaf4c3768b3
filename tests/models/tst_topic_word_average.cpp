// SPDX-License-Identifier: GPL-3.0-or-later
// The sparse running sum of a Gibbs chain's topic-word samples against the dense sum it replaced
// (001 eq. 6 averaged over samples), on random counts that move between samples.
#include <QtTest>

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "core/models/topic/topic_word_average.hpp"
#include "test_case.hpp"
#include "topic_columns_check.hpp"

using namespace latent;

namespace {

// Word-topic counts held dense, enumerated per word in a shuffled order (the samplers' order is
// not by topic).
struct ShuffledCounts {
  Eigen::MatrixXi counts;  // K x V
  std::uint64_t seed = 0;
  template <typename F>
  void forEachTopicOfWord(std::size_t w, F&& f) const {
    std::vector<std::int32_t> topics;
    for (int k = 0; k < counts.rows(); ++k)
      if (counts(k, static_cast<Eigen::Index>(w)) != 0) topics.push_back(k);
    std::mt19937_64 rng(seed + w);
    std::shuffle(topics.begin(), topics.end(), rng);
    for (const auto k : topics) f(k, counts(k, static_cast<Eigen::Index>(w)));
  }
};

}  // namespace

class TopicWordAverageTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void sparseSumEqualsTheDenseSum() {
    const int K = 7, V = 60, samples = 6;
    std::mt19937_64 rng(11);
    std::bernoulli_distribution nonzero(0.25);
    std::uniform_int_distribution<int> count(1, 30);
    core::topic::TopicWordAverage average(K, V);
    Eigen::MatrixXd sum = Eigen::MatrixXd::Zero(K, V);
    Eigen::VectorXd smoothing = Eigen::VectorXd::Zero(K);
    Eigen::MatrixXi everNonzero = Eigen::MatrixXi::Zero(K, V);
    for (int s = 0; s < samples; ++s) {
      ShuffledCounts counts{Eigen::MatrixXi::Zero(K, V), static_cast<std::uint64_t>(100 * s)};
      for (int k = 0; k < K; ++k)
        for (int w = 0; w < V - 1; ++w)  // the last word never occurs: its column is smoothing only
          if (nonzero(rng)) counts.counts(k, w) = count(rng);
      std::vector<std::int64_t> totals(K);
      for (int k = 0; k < K; ++k) totals[static_cast<std::size_t>(k)] = counts.counts.row(k).sum();
      const double beta = 0.01 * (s + 1);  // beta re-estimated between samples
      average.add(counts, totals, beta);
      // The dense sum, as the chain kept it before.
      for (int k = 0; k < K; ++k) {
        const double inverse = 1.0 / (static_cast<double>(totals[static_cast<std::size_t>(k)]) + V * beta);
        smoothing[k] += beta * inverse;
        for (int w = 0; w < V; ++w)
          if (counts.counts(k, w) != 0) {
            sum(k, w) += static_cast<double>(counts.counts(k, w)) * inverse;
            everNonzero(k, w) = 1;
          }
      }
    }
    QCOMPARE(average.samples(), std::int64_t{samples});
    QCOMPARE(average.entries(), static_cast<std::size_t>(everNonzero.sum()));
    QVERIFY(average.entries() < static_cast<std::size_t>(K * V));

    Eigen::MatrixXd dense = sum;
    dense.colwise() += smoothing;
    dense /= static_cast<double>(samples);
    dense.array().colwise() /= dense.rowwise().sum().array();
    const Eigen::MatrixXd sparse = average.mean();
    QCOMPARE(sparse.rows(), Eigen::Index{K});
    QCOMPARE(sparse.cols(), Eigen::Index{V});
    QVERIFY2((sparse - dense).cwiseAbs().maxCoeff() < 1e-12,
             qPrintable(QString::number((sparse - dense).cwiseAbs().maxCoeff())));
    for (int k = 0; k < K; ++k) QVERIFY(std::abs(sparse.row(k).sum() - 1.0) < 1e-12);
    // The float form (a large topic_word, matrix_precision.hpp) is the same computation rounded
    // once, formed without a dense double K x V behind it.
    const Eigen::MatrixXf single = average.meanAs<float>();
    QVERIFY(single == sparse.cast<float>());
    // Read a column at a time (held-out scores), the mean is the same value for value, as doubles
    // and as floats.
    const auto doubles = average.meanColumns(false), floats = average.meanColumns(true);
    std::vector<double> column(K);
    for (int w = 0; w < V; ++w) {
      doubles.column(w, column.data());
      for (int k = 0; k < K; ++k) QVERIFY(column[static_cast<std::size_t>(k)] == sparse(k, w));
      floats.column(w, column.data());
      for (int k = 0; k < K; ++k) QVERIFY(column[static_cast<std::size_t>(k)] == static_cast<double>(single(k, w)));
    }
    // And as a fill with each word's overrides, as a fold-in makes a column it did not keep.
    QVERIFY(test::fillAndOverridesAreTheColumns(doubles, V));
    QVERIFY(test::fillAndOverridesAreTheColumns(floats, V));
  }
};

LATENT_TEST_CASE(TopicWordAverageTest)
#include "tst_topic_word_average.moc"
