// SPDX-License-Identifier: GPL-3.0-or-later
// Relevance ranking with one partial sort per topic.
#include "ui/runs/topics/topic_relevance.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace latent::ui {
namespace {

constexpr double kMinusInfinity = -std::numeric_limits<double>::infinity();

// "a ranks before b": more relevant, or as relevant with the smaller word id.
struct Before {
  const double* scores;
  bool operator()(std::int32_t a, std::int32_t b) const {
    return scores[a] > scores[b] || (scores[a] == scores[b] && a < b);
  }
};

// Topic k's probabilities, in `probabilities`, and the relevance of every word, in `scores`.
// Written as log p(w|k) - (1 - lambda) log p(w), the same value as eq. 1 with one logarithm per
// word, or fewer: a run of equal probabilities (a sparse table's fill) shares one.
void scoreTopic(const core::TopicWordTable& topicWord, std::span<const double> logFrequency, double lambda,
                Eigen::Index k, std::vector<double>& probabilities, std::vector<double>& scores) {
  const auto V = static_cast<std::size_t>(topicWord.cols());
  probabilities.resize(V);
  scores.resize(V);
  topicWord.row(k, probabilities);
  double last = -1.0, lastLog = kMinusInfinity;
  for (std::size_t w = 0; w < V; ++w) {
    const double p = probabilities[w];
    if (p != last) {
      last = p;
      lastLog = p > 0 ? std::log(p) : kMinusInfinity;
    }
    scores[w] = p > 0 ? lastLog - (1.0 - lambda) * logFrequency[w] : kMinusInfinity;
  }
}

std::vector<double> logs(std::span<const double> values) {
  std::vector<double> out(values.size());
  std::transform(values.begin(), values.end(), out.begin(), [](double v) { return std::log(v); });
  return out;
}

}  // namespace

double relevance(double probability, double corpusFrequency, double lambda) {
  if (probability <= 0) return kMinusInfinity;
  return lambda * std::log(probability) + (1.0 - lambda) * std::log(probability / corpusFrequency);
}

std::vector<double> corpusFrequencies(std::span<const std::int64_t> counts) {
  double total = 0;
  for (const auto c : counts) total += c > 0 ? static_cast<double>(c) : 0.5;
  std::vector<double> out(counts.size());
  for (std::size_t w = 0; w < counts.size(); ++w)
    out[w] = (counts[w] > 0 ? static_cast<double>(counts[w]) : 0.5) / total;
  return out;
}

std::vector<std::vector<RankedWord>> rankTopics(const core::TopicWordTable& topicWord,
                                                std::span<const double> corpusFrequency, double lambda, int count) {
  const auto K = topicWord.rows();
  const auto V = topicWord.cols();
  if (static_cast<std::size_t>(V) != corpusFrequency.size()) return {};
  const auto logFrequency = logs(corpusFrequency);
  const auto keep = static_cast<std::ptrdiff_t>(std::clamp<Eigen::Index>(count, 0, V));
  std::vector<std::vector<RankedWord>> out(static_cast<std::size_t>(K));
  std::vector<double> probabilities, scores;
  std::vector<std::int32_t> order(static_cast<std::size_t>(V));
  for (Eigen::Index k = 0; k < K; ++k) {
    scoreTopic(topicWord, logFrequency, lambda, k, probabilities, scores);
    std::iota(order.begin(), order.end(), 0);
    std::partial_sort(order.begin(), order.begin() + keep, order.end(), Before{scores.data()});
    auto& ranked = out[static_cast<std::size_t>(k)];
    ranked.reserve(static_cast<std::size_t>(keep));
    for (std::ptrdiff_t i = 0; i < keep; ++i) {
      const auto w = order[static_cast<std::size_t>(i)];
      const double p = probabilities[static_cast<std::size_t>(w)];
      const double pw = corpusFrequency[static_cast<std::size_t>(w)];
      ranked.push_back({w, p, p / pw, relevance(p, pw, lambda)});
    }
  }
  return out;
}

std::vector<int> ranksOf(const core::TopicWordTable& topicWord, std::span<const double> corpusFrequency, double lambda,
                         std::int32_t word) {
  if (word < 0 || word >= topicWord.cols() || static_cast<std::size_t>(topicWord.cols()) != corpusFrequency.size())
    return {};
  const auto logFrequency = logs(corpusFrequency);
  std::vector<int> ranks;
  std::vector<double> probabilities, scores;
  for (Eigen::Index k = 0; k < topicWord.rows(); ++k) {
    scoreTopic(topicWord, logFrequency, lambda, k, probabilities, scores);
    const Before before{scores.data()};
    int rank = 1;
    for (std::int32_t v = 0; v < static_cast<std::int32_t>(scores.size()); ++v)
      if (v != word && before(v, word)) ++rank;
    ranks.push_back(rank);
  }
  return ranks;
}

std::vector<double> topicShares(const core::DenseTable& docTopic, std::span<const std::int64_t> documentLengths) {
  const auto K = docTopic.cols();
  std::vector<double> shares(static_cast<std::size_t>(K), 0.0);
  if (static_cast<std::size_t>(docTopic.rows()) != documentLengths.size()) return {};
  double total = 0;
  for (const auto n : documentLengths) total += static_cast<double>(n);
  // Topic by topic down the column-major matrix; each share still sums its documents in order.
  docTopic.visit([&](const auto& theta) {
    for (Eigen::Index k = 0; k < K; ++k) {
      auto& share = shares[static_cast<std::size_t>(k)];
      for (Eigen::Index d = 0; d < theta.rows(); ++d)
        share += static_cast<double>(documentLengths[static_cast<std::size_t>(d)]) * static_cast<double>(theta(d, k));
    }
  });
  if (total > 0)
    for (auto& s : shares) s /= total;
  return shares;
}

}  // namespace latent::ui
