// SPDX-License-Identifier: GPL-3.0-or-later
// Held-out link scores and partition agreement.
#include "core/eval/link_metrics.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <unordered_map>

namespace latent::core {
namespace {

// Contingency table of two labelings, skipping items unlabelled in either.
struct Contingency {
  std::map<std::pair<int, int>, double> cells;
  std::unordered_map<int, double> rows, columns;
  double total = 0.0;
};

Contingency tabulate(std::span<const int> a, std::span<const int> b) {
  Contingency t;
  const std::size_t n = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (a[i] < 0 || b[i] < 0) continue;
    t.cells[{a[i], b[i]}] += 1.0;
    t.rows[a[i]] += 1.0;
    t.columns[b[i]] += 1.0;
    t.total += 1.0;
  }
  return t;
}

double entropy(const std::unordered_map<int, double>& counts, double total) {
  double h = 0.0;
  for (const auto& [label, c] : counts) h -= c / total * std::log(c / total);
  return h;
}

double choose2(double x) { return x * (x - 1.0) / 2.0; }

}  // namespace

double rocAuc(std::span<const double> scores, std::span<const std::uint8_t> positive) {
  const std::size_t n = std::min(scores.size(), positive.size());
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return scores[x] < scores[y]; });
  // Mann-Whitney: the sum of the positives' ranks, tied scores sharing their mean rank.
  double rankSum = 0.0, positives = 0.0;
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i;
    while (j < n && scores[order[j]] == scores[order[i]]) ++j;
    const double meanRank = (double(i + 1) + double(j)) / 2.0;
    for (std::size_t k = i; k < j; ++k)
      if (positive[order[k]]) {
        rankSum += meanRank;
        positives += 1.0;
      }
    i = j;
  }
  const double negatives = double(n) - positives;
  if (positives == 0.0 || negatives == 0.0) return 0.5;
  return (rankSum - positives * (positives + 1.0) / 2.0) / (positives * negatives);
}

LinkScores scoreHeldoutLinks(std::span<const HeldoutDyad> heldout,
                             const std::function<double(std::int32_t, std::int32_t)>& probability) {
  LinkScores s;
  std::vector<double> p(heldout.size());
  std::vector<std::uint8_t> label(heldout.size());
  for (std::size_t h = 0; h < heldout.size(); ++h) {
    const auto& d = heldout[h];
    const double q = std::clamp(probability(d.source, d.target), 1e-12, 1.0 - 1e-12);
    p[h] = q;
    label[h] = d.edge ? 1 : 0;
    s.logLikelihood += d.edge ? std::log(q) : std::log1p(-q);
  }
  s.pairs = static_cast<std::int64_t>(heldout.size());
  s.perplexity = heldout.empty() ? 0.0 : std::exp(-s.logLikelihood / double(heldout.size()));
  s.auc = rocAuc(p, label);
  return s;
}

double normalizedMutualInformation(std::span<const int> a, std::span<const int> b) {
  const auto t = tabulate(a, b);
  if (t.total == 0.0) return 0.0;
  const double ha = entropy(t.rows, t.total), hb = entropy(t.columns, t.total);
  if (ha == 0.0 && hb == 0.0) return 1.0;
  if (ha == 0.0 || hb == 0.0) return 0.0;
  double mi = 0.0;
  for (const auto& [cell, c] : t.cells)
    mi += c / t.total * std::log(c * t.total / (t.rows.at(cell.first) * t.columns.at(cell.second)));
  return std::clamp(mi / std::sqrt(ha * hb), 0.0, 1.0);
}

double adjustedRandIndex(std::span<const int> a, std::span<const int> b) {
  const auto t = tabulate(a, b);
  double index = 0.0, rowPairs = 0.0, columnPairs = 0.0;
  for (const auto& [cell, c] : t.cells) index += choose2(c);
  for (const auto& [label, c] : t.rows) rowPairs += choose2(c);
  for (const auto& [label, c] : t.columns) columnPairs += choose2(c);
  const double all = choose2(t.total);
  if (all == 0.0) return 1.0;
  const double expected = rowPairs * columnPairs / all;
  const double maximum = (rowPairs + columnPairs) / 2.0;
  if (maximum == expected) return 1.0;  // both partitions trivial in the same way
  return (index - expected) / (maximum - expected);
}

std::optional<std::vector<int>> nodeLabels(const Graph& graph, const std::string& name) {
  const auto column = graph.attributeIndex(name);
  if (!column) return std::nullopt;
  std::vector<int> labels(graph.nodeCount(), -1);
  std::unordered_map<std::string, int> ids;
  const auto& values = graph.attributes[*column];
  for (std::size_t v = 0; v < labels.size() && v < values.size(); ++v) {
    if (values[v].empty()) continue;
    labels[v] = ids.emplace(values[v], static_cast<int>(ids.size())).first->second;
  }
  return labels;
}

std::optional<std::string> defaultLabelAttribute(const Graph& graph) {
  for (const char* name : {"group", "faction", "club_after_split", "label", "block", "community"})
    if (graph.attributeIndex(name)) return std::string(name);
  return std::nullopt;
}

}  // namespace latent::core
