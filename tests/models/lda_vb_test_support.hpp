// SPDX-License-Identifier: GPL-3.0-or-later
// Shared by the tests of lda-vb and lda-online: corpora made in memory, fitting in an arena of a
// given size, and reading the results back.
#pragma once

#include <tbb/task_arena.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <stop_token>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "core/data/corpus.hpp"
#include "core/data/synthetic_lda.hpp"
#include "core/eval/heldout.hpp"
#include "core/models/model.hpp"
#include "core/models/topic/topic_model_support.hpp"

namespace latent::test::vb {

// The chain's reports in `reports`; the progress of restarts in `startReports`, always answered
// with "go on" (stopAfter and requestStopAt count the chain's reports).
class Observer final : public core::TrainingObserver {
 public:
  bool onReport(const core::IterationReport& r) override {
    if (!r.inChain()) {
      startReports.push_back(r);
      return true;
    }
    reports.push_back(r);
    if (stopSource && static_cast<std::int64_t>(reports.size()) == requestStopAt) stopSource->request_stop();
    return stopAfter == 0 || static_cast<std::int64_t>(reports.size()) < stopAfter;
  }
  void onSnapshot(std::shared_ptr<const core::ModelSnapshot> s) override { snapshots.push_back(std::move(s)); }

  std::vector<core::IterationReport> reports, startReports;
  std::vector<std::shared_ptr<const core::ModelSnapshot>> snapshots;
  std::int64_t stopAfter = 0;  // answer false at this report (0: never)
  std::stop_source* stopSource = nullptr;
  std::int64_t requestStopAt = 0;  // request a stop through stopSource at this report
};

// Words split on spaces; the vocabulary in order of first appearance.
// Three topics over 60 words, 300 documents of about 80 tokens: small enough for every test.
inline core::SyntheticLda smallSynthetic(std::uint64_t seed = 7) {
  core::SyntheticLdaSpec spec;
  spec.topics = 3;
  spec.vocabulary = 60;
  spec.documents = 300;
  spec.meanLength = 80;
  spec.alpha = 0.2;
  spec.beta = 0.05;
  spec.seed = seed;
  return core::generateLdaCorpus(spec);
}

inline core::Corpus corpusFromTexts(const std::vector<std::string>& texts) {
  core::Corpus c;
  std::map<std::string, std::int32_t> ids;
  for (std::size_t d = 0; d < texts.size(); ++d) {
    std::istringstream in(texts[d]);
    std::vector<std::int32_t> doc;
    for (std::string word; in >> word;) {
      auto [it, added] = ids.emplace(word, static_cast<std::int32_t>(c.words.size()));
      if (added) c.words.push_back(word);
      doc.push_back(it->second);
    }
    c.addDocument(std::to_string(d + 1), "", doc);
  }
  return c;
}

struct Fit {
  core::FitResult result;
  Observer observer;

  const Eigen::MatrixXd& matrix(const std::string& name) const {
    for (const auto& m : result.matrices)
      if (m.name == name) return m.values;
    throw std::runtime_error("no matrix " + name);
  }
  const Eigen::MatrixXd& topicWord() const { return matrix(core::topic::kTopicWord); }
};

// Fits `model` on `corpus` (optionally with a held-out part from splitForDocumentCompletion) in an
// arena of `threads` threads, as the job runtime does.
inline Fit fitModel(const std::string& model, const core::FitData& data, const nlohmann::json& options,
                    std::uint64_t seed = 1, int threads = 1, std::stop_token stop = {}, int evalEvery = 10,
                    Observer observer = {}) {
  auto m = core::createModel(model);
  core::FitSettings settings;
  settings.options = core::resolveOptions(m->info(), options);
  settings.seed = seed;
  settings.threads = threads;
  settings.evalEvery = evalEvery;
  Fit fit;
  fit.observer = std::move(observer);
  tbb::task_arena arena(threads);
  arena.execute([&] { fit.result = m->fit(data, settings, fit.observer, stop); });
  return fit;
}

inline core::FitData dataOf(const core::Corpus& corpus) {
  core::FitData data;
  data.corpus = &corpus;
  data.fullDocumentCount = static_cast<std::int64_t>(corpus.documentCount());
  return data;
}

inline core::FitData dataOf(const core::CorpusSplit& split, std::int64_t fullDocuments) {
  core::FitData data;
  data.corpus = &split.train;
  data.heldout = &split.heldout;
  data.trainDocuments = split.trainDocuments;
  data.fullDocumentCount = fullDocuments;
  return data;
}

// The `n` most probable words of topic k, as a set of strings.
inline std::set<std::string> topWords(const Eigen::MatrixXd& topicWord, Eigen::Index k, const core::Corpus& corpus,
                                      int n) {
  std::vector<Eigen::Index> order(static_cast<std::size_t>(topicWord.cols()));
  for (Eigen::Index w = 0; w < topicWord.cols(); ++w) order[static_cast<std::size_t>(w)] = w;
  std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return topicWord(k, a) > topicWord(k, b); });
  std::set<std::string> out;
  for (int i = 0; i < n && i < static_cast<int>(order.size()); ++i)
    out.insert(corpus.words[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])]);
  return out;
}

}  // namespace latent::test::vb
