// SPDX-License-Identifier: GPL-3.0-or-later
// The histograms of a distributed chain's processes, as messages and summed.
#include "core/models/topic/lda_gibbs_distribution.hpp"

#include <cstdint>
#include <vector>

namespace latent::core::topic {
namespace {

void appendNonzero(Bytes& out, const std::vector<std::int64_t>& histogram) {
  std::int64_t nonzero = 0;
  for (const auto n : histogram) nonzero += n != 0 ? 1 : 0;
  appendValue(out, nonzero);
  for (std::size_t c = 0; c < histogram.size(); ++c) {
    if (histogram[c] == 0) continue;
    appendValue(out, static_cast<std::int64_t>(c));
    appendValue(out, histogram[c]);
  }
}

void addNonzero(ByteReader& in, std::vector<std::int64_t>& sum) {
  const auto nonzero = in.read<std::int64_t>();
  for (std::int64_t j = 0; j < nonzero; ++j) {
    const auto c = in.read<std::int64_t>();
    const auto n = in.read<std::int64_t>();
    if (c < 0 || n <= 0) throw CommunicatorError("a histogram message holds a negative count");
    if (sum.size() <= static_cast<std::size_t>(c)) sum.resize(static_cast<std::size_t>(c) + 1, 0);
    sum[static_cast<std::size_t>(c)] += n;
  }
}

}  // namespace

void appendHistograms(Bytes& out, const DocumentTopicHistograms& histograms) {
  for (const auto& topic : histograms.topic) appendNonzero(out, topic);
  appendNonzero(out, histograms.length);
}

void addHistograms(ByteReader& in, DocumentTopicHistograms& sum) {
  for (auto& topic : sum.topic) addNonzero(in, topic);
  addNonzero(in, sum.length);
  if (!in.done()) throw CommunicatorError("a histogram message holds more topics than the chain");
}

}  // namespace latent::core::topic
