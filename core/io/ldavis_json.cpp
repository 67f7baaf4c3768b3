// SPDX-License-Identifier: GPL-3.0-or-later
// LDAvis's prepared data, column by column, from the intertopic map's numbers.
#include "core/io/ldavis_json.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/eval/intertopic_map.hpp"
#include "core/io/run_export_detail.hpp"
#include "core/util/errors.hpp"

namespace latent::core {
namespace {

double ldavisRound4(double value) { return std::round(value * 1e4) / 1e4; }

}  // namespace

void writeLdavisJson(std::ostream& out, const Eigen::MatrixXd& topicWord, std::span<const double> topicTokens,
                     const std::vector<std::string>& words, const LdavisSettings& settings) {
  const auto K = topicWord.rows();
  const auto map = intertopicMap(topicWord, topicTokens);
  const int R = std::min<int>(settings.terms, static_cast<int>(topicWord.cols()));

  // Topics shown largest first (pyLDAvis's sort_topics), ties in the model's order.
  std::vector<Eigen::Index> order(static_cast<std::size_t>(K));
  std::iota(order.begin(), order.end(), Eigen::Index{0});
  std::stable_sort(order.begin(), order.end(), [&](Eigen::Index a, Eigen::Index b) {
    return map.prevalence[static_cast<std::size_t>(a)] > map.prevalence[static_cast<std::size_t>(b)];
  });

  nlohmann::json mds = {{"x", nlohmann::json::array()},
                        {"y", nlohmann::json::array()},
                        {"topics", nlohmann::json::array()},
                        {"cluster", nlohmann::json::array()},
                        {"Freq", nlohmann::json::array()}};
  nlohmann::json topicOrder = nlohmann::json::array();
  for (std::size_t shown = 0; shown < order.size(); ++shown) {
    const auto k = order[shown];
    mds["x"].push_back(map.coordinates(k, 0));
    mds["y"].push_back(map.coordinates(k, 1));
    mds["topics"].push_back(shown + 1);
    mds["cluster"].push_back(1);
    mds["Freq"].push_back(100.0 * map.prevalence[static_cast<std::size_t>(k)]);
    topicOrder.push_back(k + 1);
  }

  nlohmann::json tinfo = {{"Term", nlohmann::json::array()},    {"Freq", nlohmann::json::array()},
                          {"Total", nlohmann::json::array()},   {"Category", nlohmann::json::array()},
                          {"logprob", nlohmann::json::array()}, {"loglift", nlohmann::json::array()}};
  std::vector<char> listed(static_cast<std::size_t>(topicWord.cols()), 0);
  const auto defaults = largestFirst(map.saliency, R);
  for (std::size_t i = 0; i < defaults.size(); ++i) {
    const auto w = static_cast<std::size_t>(defaults[i]);
    listed[w] = 1;
    tinfo["Term"].push_back(words[w]);
    tinfo["Freq"].push_back(std::floor(map.termFrequency[w]));
    tinfo["Total"].push_back(std::floor(map.termFrequency[w]));
    tinfo["Category"].push_back("Default");
    tinfo["logprob"].push_back(R - static_cast<int>(i));
    tinfo["loglift"].push_back(R - static_cast<int>(i));
  }
  for (std::size_t shown = 0; shown < order.size(); ++shown) {
    const auto k = order[shown];
    const std::string category = "Topic" + std::to_string(shown + 1);
    for (const auto word : relevantWordsOverLambda(topicWord, map.termProportion, k, R, settings.lambdaStep)) {
      const auto w = static_cast<std::size_t>(word);
      listed[w] = 1;
      const double phi = topicWord(k, word);
      tinfo["Term"].push_back(words[w]);
      tinfo["Freq"].push_back(map.termTopicFrequency(k, word));
      tinfo["Total"].push_back(map.termFrequency[w]);
      tinfo["Category"].push_back(category);
      tinfo["logprob"].push_back(ldavisRound4(std::log(phi)));
      tinfo["loglift"].push_back(ldavisRound4(std::log(phi / map.termProportion[w])));
    }
  }

  // Every word LDAvis may show, with the topics that hold at least half a token of it (the circle
  // sizes when the word is hovered), by term then topic.
  std::vector<std::int32_t> terms;
  for (std::size_t w = 0; w < listed.size(); ++w)
    if (listed[w]) terms.push_back(static_cast<std::int32_t>(w));
  std::stable_sort(terms.begin(), terms.end(), [&](std::int32_t a, std::int32_t b) {
    return words[static_cast<std::size_t>(a)] < words[static_cast<std::size_t>(b)];
  });
  nlohmann::json tokens = {
      {"Topic", nlohmann::json::array()}, {"Freq", nlohmann::json::array()}, {"Term", nlohmann::json::array()}};
  for (const auto word : terms) {
    const auto w = static_cast<std::size_t>(word);
    for (std::size_t shown = 0; shown < order.size(); ++shown) {
      const double freq = map.termTopicFrequency(order[shown], word);
      if (freq < 0.5 || map.termFrequency[w] <= 0) continue;
      tokens["Topic"].push_back(shown + 1);
      tokens["Freq"].push_back(std::nearbyint(freq) / map.termFrequency[w]);
      tokens["Term"].push_back(words[w]);
    }
  }

  const nlohmann::json prepared = {{"mdsDat", std::move(mds)},
                                   {"tinfo", std::move(tinfo)},
                                   {"token.table", std::move(tokens)},
                                   {"R", R},
                                   {"lambda.step", settings.lambdaStep},
                                   {"plot.opts", {{"xlab", "PC1"}, {"ylab", "PC2"}}},
                                   {"topic.order", std::move(topicOrder)}};
  out << prepared.dump() << '\n';
}

namespace detail {

std::int64_t exportLdavis(Project& project, const RunRecord& run, std::ostream& out,
                          std::optional<std::int64_t> iteration) {
  const auto topicWord = chooseTopicWord(project, run, iteration);
  const auto& vocabulary = topicWord.vocabulary;
  const auto docTopic = chooseDocTopic(project, run, iteration);
  std::vector<std::int64_t> lengths;
  lengths.reserve(docTopic.documents.size());
  for (const auto& d : docTopic.documents) lengths.push_back(d.tokenCount);
  std::vector<std::string> words;
  words.reserve(vocabulary.size());
  for (const auto& v : vocabulary) words.push_back(v.word);
  const auto tokens = topicTokens(docTopic.matrix, lengths);
  if (static_cast<Eigen::Index>(tokens.size()) != topicWord.matrix.rows())
    throw UsageError("run " + std::to_string(run.id) + " (" + run.model +
                     "): its topic-word and document-topic matrices have different numbers of topics");
  topicWord.matrix.withDense([&](const Eigen::MatrixXd& phi) { writeLdavisJson(out, phi, tokens, words); });
  return std::max(topicWord.iteration, docTopic.iteration);
}

}  // namespace detail
}  // namespace latent::core
