// SPDX-License-Identifier: GPL-3.0-or-later
// What the intertopic map page draws (Sievert & Shirley 2014, "LDAvis"), computed once off the GUI
// thread from a run's topics: the map itself (core/eval/intertopic_map.hpp) and every topic's most
// relevant words at each step of the lambda slider, so that moving the slider only looks them up.
#pragma once

#include <QString>

#include <cstdint>
#include <memory>
#include <vector>

#include "core/eval/intertopic_map.hpp"

namespace latent::ui {

struct TopicRunData;

struct IntertopicMapData {
  static constexpr int kTerms = 30;         // R, the bars shown (LDAvis's default)
  static constexpr int kLambdaSteps = 100;  // lambda = 0, 0.01, .., 1 (LDAvis's lambda.step)

  core::IntertopicMap map;
  // ranked[k][s]: topic k's kTerms most relevant words at lambda = s / kLambdaSteps.
  std::vector<std::vector<std::vector<std::int32_t>>> ranked;
  std::vector<std::int32_t> salient;  // the kTerms most salient words, most salient first

  int topicCount() const noexcept { return static_cast<int>(map.prevalence.size()); }
  // P(k | w): the share of word w's expected tokens that topic k holds.
  double topicShareOfWord(int topic, std::int32_t word) const;
  const std::vector<std::int32_t>& mostRelevant(int topic, double lambda) const;
};

// The map compares every pair of topics over every word, K (K - 1) / 2 V terms of Jensen-Shannon
// divergence: the page computes it for at most this many, about a minute on two cores
// (tests/benchmarks/README.md, "Opening a large topic run"), and beyond says why instead of keeping a
// core busy for hours (K = 5000 over 73,534 words is 9.2e11 terms).
inline constexpr double kIntertopicMapMaxTerms = 2e10;

// Why the map of `data`'s topics is not computed (more terms than kIntertopicMapMaxTerms), or empty.
QString intertopicMapRefusal(const TopicRunData& data);

// Each topic's expected tokens are its share of the corpus (TopicRunData::shares) times the corpus'
// kept tokens. Null when the run has no shares, a single topic, or a map the page refuses
// (intertopicMapRefusal). Call off the GUI thread.
std::shared_ptr<const IntertopicMapData> computeIntertopicMap(const TopicRunData& data);

}  // namespace latent::ui
