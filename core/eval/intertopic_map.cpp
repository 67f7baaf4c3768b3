// SPDX-License-Identifier: GPL-3.0-or-later
// Jensen-Shannon divergences, principal coordinates, saliency and relevance for the intertopic map.
#include "core/eval/intertopic_map.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include <tbb/parallel_for.h>

#include "core/util/symmetric_eigen.hpp"

namespace latent::core {
namespace {

// x log(x / y), 0 when x is 0.
double intertopicKlTerm(double x, double y) { return x > 0 ? x * std::log(x / y) : 0.0; }

}  // namespace

double jensenShannonDivergence(std::span<const double> p, std::span<const double> q) {
  const auto n = std::min(p.size(), q.size());
  double sum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double m = 0.5 * (p[i] + q[i]);
    sum += intertopicKlTerm(p[i], m) + intertopicKlTerm(q[i], m);
  }
  return std::max(0.5 * sum, 0.0);
}

Eigen::MatrixXd jensenShannonMatrix(const Eigen::MatrixXd& topicWord) {
  const auto K = topicWord.rows();
  const auto V = static_cast<std::size_t>(topicWord.cols());
  // Rows copied out once: a row of a column-major matrix is strided.
  std::vector<std::vector<double>> rows(static_cast<std::size_t>(K), std::vector<double>(V));
  for (Eigen::Index k = 0; k < K; ++k)
    for (std::size_t w = 0; w < V; ++w)
      rows[static_cast<std::size_t>(k)][w] = topicWord(k, static_cast<Eigen::Index>(w));
  // K^2 V / 2 terms, the map's main cost: the rows a are shared among the cores, and each pair is
  // computed alone, so no value depends on how they were shared.
  Eigen::MatrixXd out = Eigen::MatrixXd::Zero(K, K);
  tbb::parallel_for(Eigen::Index{0}, K, [&](Eigen::Index a) {
    for (Eigen::Index b = a + 1; b < K; ++b)
      out(a, b) = out(b, a) =
          jensenShannonDivergence(rows[static_cast<std::size_t>(a)], rows[static_cast<std::size_t>(b)]);
  });
  return out;
}

Eigen::MatrixX2d principalCoordinates(const Eigen::MatrixXd& distances) {
  const auto K = distances.rows();
  Eigen::MatrixX2d out = Eigen::MatrixX2d::Zero(K, 2);
  if (K < 2 || distances.cols() != K) return out;
  const Eigen::MatrixXd centre =
      Eigen::MatrixXd::Identity(K, K) - Eigen::MatrixXd::Constant(K, K, 1.0 / static_cast<double>(K));
  const Eigen::MatrixXd inner = -0.5 * centre * distances.cwiseAbs2() * centre;
  const SymmetricEigen eigen = symmetricEigen(0.5 * (inner + inner.transpose()));
  const double scale = std::max(eigen.values.cwiseAbs().maxCoeff(), 1e-300);
  for (int axis = 0; axis < 2 && axis < K; ++axis) {
    const Eigen::Index index = K - 1 - axis;  // eigenvalues ascend
    const double value = eigen.values[index];
    // A root of rounding noise is not an axis (pyLDAvis zeroes eigenvalues np.isclose to 0).
    if (value <= 1e-12 * scale) continue;
    Eigen::VectorXd v = eigen.vectors.col(index) * std::sqrt(value);
    Eigen::Index largest = 0;
    v.cwiseAbs().maxCoeff(&largest);
    if (v[largest] < 0) v = -v;
    out.col(axis) = v;
  }
  return out;
}

namespace {

template <typename Matrix>
std::vector<double> topicTokensOf(const Matrix& docTopic, std::span<const std::int64_t> lengths) {
  if (static_cast<std::size_t>(docTopic.rows()) != lengths.size()) return {};
  std::vector<double> out(static_cast<std::size_t>(docTopic.cols()), 0.0);
  for (Eigen::Index d = 0; d < docTopic.rows(); ++d) {
    const auto n = static_cast<double>(lengths[static_cast<std::size_t>(d)]);
    for (Eigen::Index k = 0; k < docTopic.cols(); ++k)
      out[static_cast<std::size_t>(k)] += n * static_cast<double>(docTopic(d, k));
  }
  return out;
}

}  // namespace

std::vector<double> topicTokens(const Eigen::MatrixXd& docTopic, std::span<const std::int64_t> lengths) {
  return topicTokensOf(docTopic, lengths);
}

std::vector<double> topicTokens(const DenseTable& docTopic, std::span<const std::int64_t> lengths) {
  return docTopic.visit([&](const auto& matrix) { return topicTokensOf(matrix, lengths); });
}

IntertopicMap intertopicMap(const Eigen::MatrixXd& topicWord, std::span<const double> tokens) {
  IntertopicMap map;
  const auto K = topicWord.rows();
  const auto V = topicWord.cols();
  if (static_cast<std::size_t>(K) != tokens.size()) return map;
  map.topicTokens.assign(tokens.begin(), tokens.end());
  const double total = std::accumulate(tokens.begin(), tokens.end(), 0.0);
  map.prevalence.resize(static_cast<std::size_t>(K));
  for (std::size_t k = 0; k < map.prevalence.size(); ++k)
    map.prevalence[k] = total > 0 ? tokens[k] / total : 1.0 / static_cast<double>(K);
  map.coordinates = principalCoordinates(jensenShannonMatrix(topicWord));
  map.termTopicFrequency.resize(K, V);
  for (Eigen::Index k = 0; k < K; ++k)
    map.termTopicFrequency.row(k) = topicWord.row(k) * tokens[static_cast<std::size_t>(k)];
  map.termFrequency.resize(static_cast<std::size_t>(V));
  for (Eigen::Index w = 0; w < V; ++w)
    map.termFrequency[static_cast<std::size_t>(w)] = map.termTopicFrequency.col(w).sum();
  const double words = std::accumulate(map.termFrequency.begin(), map.termFrequency.end(), 0.0);
  map.termProportion.resize(static_cast<std::size_t>(V));
  for (std::size_t w = 0; w < map.termProportion.size(); ++w)
    map.termProportion[w] = words > 0 ? map.termFrequency[w] / words : 1.0 / static_cast<double>(V);
  map.saliency = termSaliency(topicWord, map.prevalence, map.termProportion);
  return map;
}

std::vector<double> termSaliency(const Eigen::MatrixXd& topicWord, std::span<const double> prevalence,
                                 std::span<const double> termProportion) {
  const auto K = topicWord.rows();
  const auto V = topicWord.cols();
  std::vector<double> out(static_cast<std::size_t>(V), 0.0);
  if (static_cast<std::size_t>(K) != prevalence.size() || static_cast<std::size_t>(V) != termProportion.size())
    return out;
  for (Eigen::Index w = 0; w < V; ++w) {
    const double column = topicWord.col(w).sum();
    if (column <= 0) continue;
    double distinctiveness = 0;
    for (Eigen::Index k = 0; k < K; ++k)
      if (prevalence[static_cast<std::size_t>(k)] > 0)
        distinctiveness += intertopicKlTerm(topicWord(k, w) / column, prevalence[static_cast<std::size_t>(k)]);
    out[static_cast<std::size_t>(w)] = termProportion[static_cast<std::size_t>(w)] * distinctiveness;
  }
  return out;
}

std::vector<std::int32_t> largestFirst(std::span<const double> values, int count) {
  std::vector<std::int32_t> order(values.size());
  std::iota(order.begin(), order.end(), 0);
  const auto keep = static_cast<std::ptrdiff_t>(
      std::clamp<std::size_t>(static_cast<std::size_t>(std::max(count, 0)), 0, values.size()));
  std::partial_sort(order.begin(), order.begin() + keep, order.end(), [&](std::int32_t a, std::int32_t b) {
    const double x = values[static_cast<std::size_t>(a)], y = values[static_cast<std::size_t>(b)];
    return x > y || (x == y && a < b);
  });
  // A copy of the kept ones, not `order` cut down: that would keep room for every value, and the
  // map keeps one list per topic and step of lambda (101 K lists of V words at K = 1000, 10 GB).
  return {order.begin(), order.begin() + keep};
}

namespace {

// The logarithms relevance needs for topic `k`, taken once for every lambda: log phi_kw (-infinity
// when 0) and log p(w).
struct IntertopicLogs {
  std::vector<double> topic, word;
  int positive = 0;  // words with phi_kw > 0 and p(w) > 0
};

IntertopicLogs intertopicLogs(const Eigen::MatrixXd& topicWord, std::span<const double> termProportion,
                              Eigen::Index k) {
  constexpr double kNone = -std::numeric_limits<double>::infinity();
  IntertopicLogs logs;
  const auto V = static_cast<std::size_t>(topicWord.cols());
  logs.topic.resize(V);
  logs.word.resize(V);
  for (std::size_t w = 0; w < V; ++w) {
    const double p = topicWord(k, static_cast<Eigen::Index>(w)), pw = termProportion[w];
    const bool usable = p > 0 && pw > 0;
    logs.topic[w] = usable ? std::log(p) : kNone;
    logs.word[w] = usable ? std::log(pw) : 0.0;
    logs.positive += usable ? 1 : 0;
  }
  return logs;
}

// lambda log p + (1 - lambda) log(p / p(w)) = log p - (1 - lambda) log p(w).
std::vector<std::int32_t> intertopicRank(const IntertopicLogs& logs, double lambda, int count,
                                         std::vector<double>& scores) {
  scores.resize(logs.topic.size());
  for (std::size_t w = 0; w < scores.size(); ++w) scores[w] = logs.topic[w] - (1.0 - lambda) * logs.word[w];
  return largestFirst(scores, std::min(count, logs.positive));
}

}  // namespace

std::vector<std::int32_t> mostRelevantWords(const Eigen::MatrixXd& topicWord, std::span<const double> termProportion,
                                            Eigen::Index k, double lambda, int count) {
  if (k < 0 || k >= topicWord.rows() || static_cast<std::size_t>(topicWord.cols()) != termProportion.size()) return {};
  std::vector<double> scores;
  return intertopicRank(intertopicLogs(topicWord, termProportion, k), lambda, count, scores);
}

std::vector<std::vector<std::int32_t>> mostRelevantWordsByLambda(const Eigen::MatrixXd& topicWord,
                                                                 std::span<const double> termProportion, Eigen::Index k,
                                                                 int count, double step) {
  if (k < 0 || k >= topicWord.rows() || static_cast<std::size_t>(topicWord.cols()) != termProportion.size()) return {};
  const auto logs = intertopicLogs(topicWord, termProportion, k);
  std::vector<std::vector<std::int32_t>> out;
  std::vector<double> scores;
  const int steps = step > 0 ? static_cast<int>(std::lround(1.0 / step)) : 0;
  for (int i = 0; i <= steps; ++i)
    out.push_back(intertopicRank(logs, steps > 0 ? std::min(1.0, i * step) : 1.0, count, scores));
  return out;
}

std::vector<std::int32_t> relevantWordsOverLambda(const Eigen::MatrixXd& topicWord,
                                                  std::span<const double> termProportion, Eigen::Index k, int count,
                                                  double step) {
  std::vector<std::int32_t> out;
  std::vector<char> seen(static_cast<std::size_t>(topicWord.cols()), 0);
  for (const auto& ranked : mostRelevantWordsByLambda(topicWord, termProportion, k, count, step))
    for (const auto w : ranked)
      if (!seen[static_cast<std::size_t>(w)]) {
        seen[static_cast<std::size_t>(w)] = 1;
        out.push_back(w);
      }
  return out;
}

}  // namespace latent::core
