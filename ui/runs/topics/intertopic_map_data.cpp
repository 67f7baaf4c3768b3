// SPDX-License-Identifier: GPL-3.0-or-later
// The intertopic map and its relevance rankings for every step of the slider.
#include "ui/runs/topics/intertopic_map_data.hpp"

#include <QLocale>
#include <QObject>

#include <algorithm>
#include <cmath>

#include <tbb/parallel_for.h>

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

QString intertopicMapRefusal(const TopicRunData& data) {
  const double K = data.topicCount(), V = data.vocabularySize();
  const double terms = K * (K - 1) / 2 * V;
  if (terms <= kIntertopicMapMaxTerms) return {};
  return QObject::tr(
             "The map is not drawn for %1 topics over %2 words: it compares every pair of topics over every "
             "word, %3 terms, and the page computes at most %4 (about a minute on two cores). The Topics page "
             "lists every topic; Export Results… (LDAvis JSON) computes the map's data however long it takes.")
      .arg(QLocale().toString(data.topicCount()), QLocale().toString(data.vocabularySize()),
           QLocale().toString(terms, 'g', 2), QLocale().toString(kIntertopicMapMaxTerms, 'g', 2));
}

std::shared_ptr<const IntertopicMapData> computeIntertopicMap(const TopicRunData& data) {
  const int K = data.topicCount();
  if (K < 2 || data.shares.size() != static_cast<std::size_t>(K) || !intertopicMapRefusal(data).isEmpty())
    return nullptr;
  double corpusTokens = 0;
  for (const auto& d : data.documents) corpusTokens += static_cast<double>(d.tokenCount);
  if (corpusTokens <= 0)
    for (const auto c : data.wordCounts) corpusTokens += static_cast<double>(c);
  std::vector<double> tokens(data.shares.size());
  for (std::size_t k = 0; k < tokens.size(); ++k) tokens[k] = data.shares[k] * corpusTokens;
  auto out = std::make_shared<IntertopicMapData>();
  data.topicWord.withDense([&](const Eigen::MatrixXd& topicWord) {
    out->map = core::intertopicMap(topicWord, tokens);
    out->salient = core::largestFirst(out->map.saliency, IntertopicMapData::kTerms);
    out->ranked.resize(static_cast<std::size_t>(K));
    tbb::parallel_for(0, K, [&](int k) {
      out->ranked[static_cast<std::size_t>(k)] = core::mostRelevantWordsByLambda(
          topicWord, out->map.termProportion, k, IntertopicMapData::kTerms, 1.0 / IntertopicMapData::kLambdaSteps);
    });
  });
  return out;
}

}  // namespace latent::ui
