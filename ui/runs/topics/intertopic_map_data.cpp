// SPDX-License-Identifier: GPL-3.0-or-later
// The intertopic map and its relevance rankings for every step of the slider.
#include "ui/runs/topics/intertopic_map_data.hpp"

#include <algorithm>
#include <cmath>

#include "ui/runs/topics/topic_run_data.hpp"

namespace latent::ui {

double IntertopicMapData::topicShareOfWord(int topic, std::int32_t word) const {
  if (topic < 0 || topic >= topicCount() || word < 0 || word >= map.termTopicFrequency.cols()) return 0.0;
  const double total = map.termFrequency[static_cast<std::size_t>(word)];
  return total > 0 ? map.termTopicFrequency(topic, word) / total : 0.0;
}

const std::vector<std::int32_t>& IntertopicMapData::mostRelevant(int topic, double lambda) const {
  static const std::vector<std::int32_t> kNone;
  if (topic < 0 || topic >= static_cast<int>(ranked.size())) return kNone;
  const auto step = static_cast<std::size_t>(std::lround(std::clamp(lambda, 0.0, 1.0) * kLambdaSteps));
  return ranked[static_cast<std::size_t>(topic)][step];
}

std::shared_ptr<const IntertopicMapData> computeIntertopicMap(const TopicRunData& data) {
  const int K = data.topicCount();
  if (K < 2 || data.shares.size() != static_cast<std::size_t>(K)) return nullptr;
  double corpusTokens = 0;
  for (const auto& d : data.documents) corpusTokens += static_cast<double>(d.tokenCount);
  if (corpusTokens <= 0)
    for (const auto c : data.wordCounts) corpusTokens += static_cast<double>(c);
  std::vector<double> tokens(data.shares.size());
  for (std::size_t k = 0; k < tokens.size(); ++k) tokens[k] = data.shares[k] * corpusTokens;
  auto out = std::make_shared<IntertopicMapData>();
  out->map = core::intertopicMap(data.topicWord, tokens);
  out->salient = core::largestFirst(out->map.saliency, IntertopicMapData::kTerms);
  out->ranked.resize(static_cast<std::size_t>(K));
  for (int k = 0; k < K; ++k)
    out->ranked[static_cast<std::size_t>(k)] = core::mostRelevantWordsByLambda(
        data.topicWord, out->map.termProportion, k, IntertopicMapData::kTerms, 1.0 / IntertopicMapData::kLambdaSteps);
  return out;
}

}  // namespace latent::ui
