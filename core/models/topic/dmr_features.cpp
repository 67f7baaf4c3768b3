// SPDX-License-Identifier: GPL-3.0-or-later
// Coding document fields as DMR features.
#include "core/models/topic/dmr_features.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace latent::core::topic {
namespace {

std::string dmrFormatNumber(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", value);
  return buffer;
}

// The bin of `value` among `bins` bins of `width` from `low`; values outside fall in the end bins.
int dmrBinOf(double value, double low, double width, int bins) {
  const double at = std::floor((value - low) / width);
  return static_cast<int>(std::clamp(at, 0.0, static_cast<double>(bins - 1)));
}

}  // namespace

std::vector<std::string> splitFieldList(std::string_view text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto end = std::min(text.find(',', start), text.size());
    auto item = text.substr(start, end - start);
    while (!item.empty() && (item.front() == ' ' || item.front() == '\t')) item.remove_prefix(1);
    while (!item.empty() && (item.back() == ' ' || item.back() == '\t')) item.remove_suffix(1);
    if (!item.empty()) out.emplace_back(item);
    start = end + 1;
  }
  return out;
}

DmrFeatureCoder::DmrFeatureCoder(const Corpus& train, std::string_view fields, int timeBins) {
  std::vector<std::string> names = splitFieldList(fields);
  if (names.empty()) names = documentFieldNames(train);
  m_names.push_back(kDmrDefaultFeature);
  std::vector<Eigen::Vector4d> ranges{Eigen::Vector4d(1.0, 1.0, 0.0, 1.0)};
  const Eigen::Vector4d indicator(0.0, 1.0, 0.0, 1.0);
  for (const auto& name : names) {
    Source source;
    source.field = documentField(train, name);
    source.column = m_names.size();
    const auto& f = source.field;
    if (f.kind == FieldKind::Numeric) {
      // Standardised on the training documents, so that one prior variance suits every number.
      double sum = 0.0, squares = 0.0, lo = std::numeric_limits<double>::infinity(), hi = -lo;
      std::size_t n = 0;
      for (const double v : f.numbers)
        if (std::isfinite(v)) {
          sum += v;
          squares += v * v;
          lo = std::min(lo, v);
          hi = std::max(hi, v);
          ++n;
        }
      if (n == 0) lo = hi = 0.0;
      source.centre = n > 0 ? sum / static_cast<double>(n) : 0.0;
      const double variance = n > 0 ? squares / static_cast<double>(n) - source.centre * source.centre : 0.0;
      source.scale = variance > 1e-12 ? std::sqrt(variance) : 1.0;
      m_names.push_back(name);
      ranges.emplace_back(lo, hi, source.centre, source.scale);
      if (name == "time" && timeBins > 0 && hi > lo) {
        source.bins = timeBins;
        source.low = lo;
        source.width = (hi - lo) / timeBins;
        for (int b = 0; b < timeBins; ++b) {
          m_names.push_back(name + " in " + dmrFormatNumber(lo + b * source.width) + "-" +
                            dmrFormatNumber(lo + (b + 1) * source.width));
          ranges.push_back(indicator);
        }
      }
    } else {
      for (const auto& category : f.categories) {
        m_names.push_back(name + "=" + category);
        ranges.push_back(indicator);
      }
    }
    m_sources.push_back(std::move(source));
  }
  m_ranges.resize(static_cast<Eigen::Index>(ranges.size()), 4);
  for (std::size_t i = 0; i < ranges.size(); ++i) m_ranges.row(static_cast<Eigen::Index>(i)) = ranges[i].transpose();
}

void DmrFeatureCoder::codeField(const DocumentField& field, const Source& source, Eigen::MatrixXd& x) const {
  const auto c = static_cast<Eigen::Index>(source.column);
  for (std::size_t d = 0; d < field.size(); ++d) {
    const auto row = static_cast<Eigen::Index>(d);
    if (field.missing(d)) continue;
    switch (field.kind) {
      case FieldKind::Numeric: {
        const double v = field.numbers[d];
        x(row, c) = (v - source.centre) / source.scale;
        if (source.bins > 0) x(row, c + 1 + dmrBinOf(v, source.low, source.width, source.bins)) = 1.0;
        break;
      }
      case FieldKind::Categorical:
        x(row, c + field.codes[d]) = 1.0;
        break;
      case FieldKind::LabelSets:
        for (const auto code : field.sets[d]) x(row, c + code) = 1.0;
        break;
      case FieldKind::Auto:
        break;
    }
  }
}

Eigen::MatrixXd DmrFeatureCoder::code(const Corpus& corpus) const {
  const auto D = static_cast<Eigen::Index>(corpus.documentCount());
  Eigen::MatrixXd x = Eigen::MatrixXd::Zero(D, static_cast<Eigen::Index>(m_names.size()));
  x.col(0).setOnes();
  for (const auto& source : m_sources) codeField(documentFieldLike(corpus, source.field), source, x);
  return x;
}

}  // namespace latent::core::topic
