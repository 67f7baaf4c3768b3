// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/eval/topic_shares_by_field.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

#include "core/util/errors.hpp"

namespace latent::core {
namespace {

// The smallest of 1, 2, 5 x 10^n at least `raw`.
double roundWidth(double raw) {
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (const double step : {1.0, 2.0, 5.0, 10.0})
    if (raw <= step * power) return step * power;
  return 10.0 * power;
}

std::string numberLabel(double value) {
  const double rounded = std::round(value);
  if (std::abs(value - rounded) < 1e-9 && std::abs(rounded) < 1e15) return std::to_string(std::llround(rounded));
  std::string text = std::to_string(value);
  while (!text.empty() && text.back() == '0') text.pop_back();
  if (!text.empty() && text.back() == '.') text.pop_back();
  return text;
}

template <typename Matrix>
FieldTopicShares sharesByField(const DocumentField& field, const Matrix& docTopic,
                               std::span<const std::int64_t> lengths, int maxGroups) {
  const auto D = static_cast<std::size_t>(docTopic.rows());
  if (field.size() != D || lengths.size() != D)
    throw UsageError("the field '" + field.name + "' and the topic proportions do not cover the same documents");
  maxGroups = std::max(maxGroups, 2);
  FieldTopicShares out;
  out.field = field.name;
  out.numeric = field.kind == FieldKind::Numeric;
  // Each document's groups (several for a label set; none when its value is missing).
  std::vector<std::vector<std::size_t>> groupsOf(D);

  if (out.numeric) {
    std::vector<double> values;
    for (std::size_t d = 0; d < D; ++d)
      if (!field.missing(d) && lengths[d] > 0) values.push_back(field.numbers[d]);
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    if (static_cast<int>(values.size()) <= maxGroups) {
      for (const double v : values) {
        out.groups.push_back(numberLabel(v));
        out.positions.push_back(v);
      }
      for (std::size_t d = 0; d < D; ++d)
        if (!field.missing(d) && lengths[d] > 0)
          groupsOf[d] = {static_cast<std::size_t>(std::lower_bound(values.begin(), values.end(), field.numbers[d]) -
                                                  values.begin())};
    } else {
      out.binWidth = roundWidth((values.back() - values.front()) / maxGroups);
      const double first = std::floor(values.front() / out.binWidth) * out.binWidth;
      const auto bins = static_cast<std::size_t>(std::floor((values.back() - first) / out.binWidth)) + 1;
      for (std::size_t b = 0; b < bins; ++b) {
        out.positions.push_back(first + static_cast<double>(b) * out.binWidth);
        out.groups.push_back(numberLabel(out.positions.back()));
      }
      for (std::size_t d = 0; d < D; ++d)
        if (!field.missing(d) && lengths[d] > 0)
          groupsOf[d] = {
              std::min(bins - 1, static_cast<std::size_t>(std::floor((field.numbers[d] - first) / out.binWidth)))};
    }
  } else {
    // Categories by their words, largest first; past maxGroups - 1 of them, one "other".
    const std::size_t C = field.categories.size();
    std::vector<std::int64_t> words(C, 0);
    const auto categoriesOf = [&](std::size_t d) -> std::vector<std::int32_t> {
      if (field.missing(d)) return {};
      if (field.kind == FieldKind::LabelSets) return field.sets[d];
      return {field.codes[d]};
    };
    for (std::size_t d = 0; d < D; ++d)
      for (const auto c : categoriesOf(d)) words[static_cast<std::size_t>(c)] += lengths[d];
    std::vector<std::size_t> order(C);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return words[a] > words[b]; });
    while (!order.empty() && words[order.back()] == 0) order.pop_back();
    const bool other = order.size() > static_cast<std::size_t>(maxGroups);
    const std::size_t named = other ? static_cast<std::size_t>(maxGroups - 1) : order.size();
    std::vector<std::size_t> groupOfCategory(C, named);
    for (std::size_t g = 0; g < named; ++g) {
      groupOfCategory[order[g]] = g;
      out.groups.push_back(field.categories[order[g]]);
    }
    if (other) out.groups.push_back("other");
    for (std::size_t g = 0; g < out.groups.size(); ++g) out.positions.push_back(static_cast<double>(g));
    for (std::size_t d = 0; d < D; ++d) {
      if (lengths[d] <= 0) continue;
      for (const auto c : categoriesOf(d)) {
        const auto g = groupOfCategory[static_cast<std::size_t>(c)];
        if (g < out.groups.size() && std::find(groupsOf[d].begin(), groupsOf[d].end(), g) == groupsOf[d].end())
          groupsOf[d].push_back(g);
      }
    }
  }

  const auto G = static_cast<Eigen::Index>(out.groups.size());
  out.shares = Eigen::MatrixXd::Zero(G, docTopic.cols());
  out.documents.assign(out.groups.size(), 0);
  std::vector<double> weight(out.groups.size(), 0.0);
  for (std::size_t d = 0; d < D; ++d)
    for (const auto g : groupsOf[d]) {
      const auto length = static_cast<double>(lengths[d]);
      out.shares.row(static_cast<Eigen::Index>(g)) +=
          length * docTopic.row(static_cast<Eigen::Index>(d)).template cast<double>();
      weight[g] += length;
      ++out.documents[g];
    }
  for (Eigen::Index g = 0; g < G; ++g)
    if (weight[static_cast<std::size_t>(g)] > 0) out.shares.row(g) /= weight[static_cast<std::size_t>(g)];
  return out;
}

}  // namespace

FieldTopicShares topicSharesByField(const DocumentField& field, const Eigen::MatrixXd& docTopic,
                                    std::span<const std::int64_t> lengths, int maxGroups) {
  return sharesByField(field, docTopic, lengths, maxGroups);
}

FieldTopicShares topicSharesByField(const DocumentField& field, const Eigen::MatrixXf& docTopic,
                                    std::span<const std::int64_t> lengths, int maxGroups) {
  return sharesByField(field, docTopic, lengths, maxGroups);
}

}  // namespace latent::core
