// SPDX-License-Identifier: GPL-3.0-or-later
// Aligning the IRM's sampled partitions to a reference partition and between snapshots.
#include "core/models/network/irm_partitions.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <tuple>

#include "core/eval/topic_matching.hpp"

namespace latent::core::network {

int labelCount(std::span<const int> labels) {
  int k = 0;
  for (const int l : labels) k = std::max(k, l + 1);
  return k;
}

Eigen::MatrixXd oneHot(std::span<const int> labels) {
  Eigen::MatrixXd m = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(labels.size()), labelCount(labels));
  for (std::size_t v = 0; v < labels.size(); ++v) m(static_cast<Eigen::Index>(v), labels[v]) = 1.0;
  return m;
}

std::vector<int> matchPartition(std::span<const int> reference, std::span<const int> sample) {
  const int kr = labelCount(reference), ks = labelCount(sample);
  Eigen::MatrixXd overlap = Eigen::MatrixXd::Zero(ks, kr);
  for (std::size_t v = 0; v < sample.size() && v < reference.size(); ++v) overlap(sample[v], reference[v]) += 1.0;
  std::vector<int> out(static_cast<std::size_t>(ks), -1);
  if (kr == 0) return out;
  // minimumCostAssignment wants no more rows than columns: the smaller side goes in the rows.
  if (ks <= kr) {
    out = minimumCostAssignment(-overlap);
  } else {
    const auto columnOf = minimumCostAssignment(-overlap.transpose());
    for (int r = 0; r < kr; ++r) out[static_cast<std::size_t>(columnOf[static_cast<std::size_t>(r)])] = r;
  }
  for (int s = 0; s < ks; ++s) {
    auto& r = out[static_cast<std::size_t>(s)];
    if (r >= 0 && overlap(s, r) > 0.0) continue;
    Eigen::Index best = 0;
    overlap.row(s).maxCoeff(&best);
    r = static_cast<int>(best);
  }
  return out;
}

Eigen::MatrixXd alignedMemberships(std::span<const int> reference, const std::vector<std::vector<int>>& samples) {
  if (samples.empty()) return oneHot(reference);
  Eigen::MatrixXd m = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(reference.size()), labelCount(reference));
  for (const auto& sample : samples) {
    const auto map = matchPartition(reference, sample);
    for (std::size_t v = 0; v < sample.size(); ++v)
      m(static_cast<Eigen::Index>(v), map[static_cast<std::size_t>(sample[v])]) += 1.0;
  }
  return m / static_cast<double>(samples.size());
}

std::vector<int> stableLabels(std::span<const int> previous, std::span<const int> current,
                              std::span<const std::uint8_t> nodeType) {
  const int k = labelCount(current);
  std::vector<int> matched(static_cast<std::size_t>(k), std::numeric_limits<int>::max());
  if (!previous.empty() && previous.size() == current.size()) {
    // Only one-to-one pairs count: a block matched by overlap alone is one of the new ones.
    const int kp = labelCount(previous);
    Eigen::MatrixXd overlap = Eigen::MatrixXd::Zero(k, kp);
    for (std::size_t v = 0; v < current.size(); ++v) overlap(current[v], previous[v]) += 1.0;
    if (k <= kp) {
      const auto to = minimumCostAssignment(-overlap);
      for (int c = 0; c < k; ++c)
        if (overlap(c, to[static_cast<std::size_t>(c)]) > 0.0)
          matched[static_cast<std::size_t>(c)] = to[static_cast<std::size_t>(c)];
    } else {
      const auto from = minimumCostAssignment(-overlap.transpose());
      for (int p = 0; p < kp; ++p) {
        const int c = from[static_cast<std::size_t>(p)];
        if (overlap(c, p) > 0.0) matched[static_cast<std::size_t>(c)] = p;
      }
    }
  }
  std::vector<int> type(static_cast<std::size_t>(k), 0);
  for (std::size_t v = 0; v < current.size(); ++v)
    type[static_cast<std::size_t>(current[v])] = v < nodeType.size() ? nodeType[v] : 0;
  std::vector<int> order(static_cast<std::size_t>(k));
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int x, int y) {
    const auto xi = static_cast<std::size_t>(x), yi = static_cast<std::size_t>(y);
    return std::tie(type[xi], matched[xi], x) < std::tie(type[yi], matched[yi], y);
  });
  std::vector<int> newLabel(static_cast<std::size_t>(k));
  for (int i = 0; i < k; ++i) newLabel[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])] = i;
  std::vector<int> out(current.size());
  for (std::size_t v = 0; v < current.size(); ++v) out[v] = newLabel[static_cast<std::size_t>(current[v])];
  return out;
}

}  // namespace latent::core::network
