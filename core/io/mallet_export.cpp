// SPDX-License-Identifier: GPL-3.0-or-later
// Topic-model results in the files MALLET's train-topics writes (--output-topic-keys,
// --output-doc-topics, --output-state), byte for byte in MALLET 2.1.1's layout, so that tools
// which read MALLET's output (dfr-browser, the R package mallet, gensim's wrapper, pyLDAvis
// loaders) read ours. Topics are 0-based; numbers in their shortest exact decimal form.
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <numeric>
#include <unordered_map>

#include "core/io/gzip_writer.hpp"
#include "core/io/run_export_detail.hpp"
#include "core/results/topic_results.hpp"
#include "core/store/corpus_store.hpp"
#include "core/store/run_results.hpp"
#include "core/util/errors.hpp"

namespace latent::core::detail {
namespace {

// MALLET's default --num-top-words.
constexpr Eigen::Index kMalletTopWords = 20;

// The prior as MALLET's topic keys print it: at most five decimals, trailing zeros dropped.
std::string malletKeyNumber(double value) {
  char buffer[48];
  const int n = std::snprintf(buffer, sizeof buffer, "%.5f", value);
  std::string text(buffer, static_cast<std::size_t>(std::max(n, 0)));
  if (text.find('.') != std::string::npos) {
    while (text.size() > 1 && text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
  }
  return text;
}

std::string malletNumber(double value) {
  char buffer[32];
  const auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return error == std::errc() ? std::string(buffer, end) : std::to_string(value);
}

// The document-topic prior, one value per topic: the run's alpha result, else its alpha option.
std::vector<double> malletAlpha(Project& project, const RunRecord& run, Eigen::Index topics) {
  if (const auto alpha = chooseMatrix(project, run, topic::kAlpha, std::nullopt);
      alpha && alpha->values.size() == topics)
    return {alpha->values.data(), alpha->values.data() + alpha->values.size()};
  const auto option = run.options.find("alpha");
  const double value = option != run.options.end() && option->is_number() ? option->get<double>() : 0.0;
  return std::vector<double>(static_cast<std::size_t>(topics), value);
}

}  // namespace

std::int64_t exportMalletTopicKeys(Project& project, const RunRecord& run, std::ostream& out,
                                   std::optional<std::int64_t> iteration) {
  const auto chosen = chooseTopicWord(project, run, iteration);
  const auto& vocabulary = chosen.vocabulary;
  const auto alpha = malletAlpha(project, run, chosen.matrix.rows());
  std::vector<Eigen::Index> order(static_cast<std::size_t>(chosen.matrix.cols()));
  std::vector<double> phi(order.size());  // topic k's row
  for (Eigen::Index k = 0; k < chosen.matrix.rows(); ++k) {
    chosen.matrix.row(k, phi);
    std::iota(order.begin(), order.end(), Eigen::Index{0});
    const auto top = std::min<Eigen::Index>(kMalletTopWords, chosen.matrix.cols());
    std::partial_sort(order.begin(), order.begin() + top, order.end(), [&](Eigen::Index a, Eigen::Index b) {
      const double pa = phi[static_cast<std::size_t>(a)], pb = phi[static_cast<std::size_t>(b)];
      return pa > pb || (pa == pb && a < b);
    });
    out << k << '\t' << malletKeyNumber(alpha[static_cast<std::size_t>(k)]) << '\t';
    for (Eigen::Index i = 0; i < top; ++i) out << vocabulary[static_cast<std::size_t>(order[i])].word << ' ';
    out << '\n';
  }
  return chosen.iteration;
}

std::int64_t exportMalletDocTopics(Project& project, const RunRecord& run, std::ostream& out,
                                   std::optional<std::int64_t> iteration) {
  const auto chosen = chooseDocTopic(project, run, iteration);
  chosen.matrix.visit([&](const auto& theta) {
    for (Eigen::Index d = 0; d < theta.rows(); ++d) {
      out << d << '\t' << chosen.documents[static_cast<std::size_t>(d)].id;
      for (Eigen::Index k = 0; k < theta.cols(); ++k) out << '\t' << malletNumber(static_cast<double>(theta(d, k)));
      out << '\n';
    }
  });
  return chosen.iteration;
}

// Every assigned token as "doc source pos typeindex type topic"; a word's type index is its place
// in order of first appearance, as in the alphabet MALLET builds when it imports the same tokens.
// Held-out documents have no assignments and are left out.
std::int64_t exportMalletState(Project& project, const RunRecord& run, std::ostream& out, std::optional<std::int64_t>) {
  if (!hasTokenTopics(project, run.id))
    throw UsageError("run " + std::to_string(run.id) + " (" + run.model + ") has no per-token assignments");
  const auto vocabulary = loadVocabulary(project, run.datasetId);
  const auto documents = listDocuments(project, run.datasetId);
  const auto beta = run.finalMetrics.find("beta");
  const auto betaOption = run.options.find("beta");
  const double betaValue = beta != run.finalMetrics.end() && beta->is_number()          ? beta->get<double>()
                           : betaOption != run.options.end() && betaOption->is_number() ? betaOption->get<double>()
                                                                                        : 0.0;
  // The topics' count, from the matrix as stored (a large one sparse, not written out).
  const auto topicWord = loadStoredResult(project, run.id, topic::kTopicWord);
  const auto alpha = malletAlpha(project, run, topicWord ? storedRows(topicWord->values) : 0);

  GzipWriter gz(out);
  gz << "#doc source pos typeindex type topic\n#alpha : ";
  for (const double a : alpha) gz << malletNumber(a) << " ";
  gz << "\n#beta : " << malletNumber(betaValue) << "\n";
  std::unordered_map<std::int32_t, std::int64_t> typeIndex;
  std::int64_t exported = 0;
  std::string line;
  for (const auto& header : documents) {
    const auto topics = loadTokenTopics(project, run.id, header.index);
    if (topics.empty()) continue;
    const auto doc = loadDocument(project, run.datasetId, header.index);
    for (std::size_t i = 0; i < topics.size() && i < doc.wordIds.size(); ++i) {
      const auto word = doc.wordIds[i];
      const auto type = typeIndex.try_emplace(word, static_cast<std::int64_t>(typeIndex.size())).first->second;
      line = std::to_string(exported) + " NA " + std::to_string(i) + ' ' + std::to_string(type) + ' ' +
             vocabulary[static_cast<std::size_t>(word)].word + ' ' + std::to_string(topics[i]) + '\n';
      gz << line;
    }
    ++exported;
  }
  gz.finish();
  return -1;
}

}  // namespace latent::core::detail
