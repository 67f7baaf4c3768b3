// SPDX-License-Identifier: GPL-3.0-or-later
// Shared by the LDA Gibbs tests: corpora made in memory, fitting in an arena, and the counts,
// conditionals and log probabilities recomputed by brute force from the assignments.
#pragma once

#include <tbb/task_arena.h>

#include <cmath>
#include <map>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "core/data/corpus.hpp"
#include "core/eval/heldout.hpp"
#include "core/models/model.hpp"
#include "core/models/topic/lda_gibbs.hpp"
#include "core/models/topic/lda_gibbs_state.hpp"

namespace latent::test {

class CollectingObserver final : public core::TrainingObserver {
 public:
  bool onReport(const core::IterationReport& r) override {
    reports.push_back(r);
    return stopAfter == 0 || static_cast<std::int64_t>(reports.size()) < stopAfter;
  }
  void onSnapshot(std::shared_ptr<const core::ModelSnapshot> s) override { snapshots.push_back(std::move(s)); }
  std::vector<core::IterationReport> reports;
  std::vector<std::shared_ptr<const core::ModelSnapshot>> snapshots;
  std::int64_t stopAfter = 0;  // answer false at this report (0: never)
};

// Words split on spaces; the vocabulary in order of first appearance.
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

inline core::Corpus corpusFromIds(int vocabulary, const std::vector<std::vector<std::int32_t>>& docs) {
  core::Corpus c;
  for (int v = 0; v < vocabulary; ++v) c.words.push_back("w" + std::to_string(v));
  for (std::size_t d = 0; d < docs.size(); ++d) c.addDocument(std::to_string(d + 1), "", docs[d]);
  return c;
}

struct Fitted {
  core::FitResult result;
  CollectingObserver observer;
};

// Fits lda-gibbs on `split` (or on `train` alone) in an arena of `threads` threads.
inline Fitted fitLdaGibbs(const core::CorpusSplit& split, std::int64_t fullDocuments, const nlohmann::json& options,
                          std::uint64_t seed, int threads, int evalEvery = 1000000, std::stop_token stop = {},
                          std::int64_t stopAfter = 0, std::int64_t float32MatrixBytes = core::kFloat32MatrixBytes) {
  core::FitData data;
  data.corpus = &split.train;
  data.heldout = &split.heldout;
  data.trainDocuments = split.trainDocuments;
  data.fullDocumentCount = fullDocuments;
  core::FitSettings settings;
  settings.options = core::resolveOptions(core::ldaGibbsModel().info(), options);
  settings.seed = seed;
  settings.threads = threads;
  settings.evalEvery = evalEvery;
  settings.float32MatrixBytes = float32MatrixBytes;
  Fitted out;
  out.observer.stopAfter = stopAfter;
  auto model = core::ldaGibbsModel().make();
  tbb::task_arena arena(threads);
  arena.execute([&] { out.result = model->fit(data, settings, out.observer, stop); });
  return out;
}

inline core::CorpusSplit wholeCorpus(const core::Corpus& corpus) {
  return core::splitForDocumentCompletion(corpus, 0.0, 1);
}

// Counts recomputed from the assignments.
struct BruteCounts {
  Eigen::MatrixXi wordTopic;  // V x K
  Eigen::VectorXi topic;      // K
  Eigen::MatrixXi docTopic;   // D x K
};

inline BruteCounts bruteCounts(const core::Corpus& corpus, std::span<const std::int32_t> z, int K) {
  BruteCounts c;
  c.wordTopic = Eigen::MatrixXi::Zero(static_cast<int>(corpus.vocabularySize()), K);
  c.topic = Eigen::VectorXi::Zero(K);
  c.docTopic = Eigen::MatrixXi::Zero(static_cast<int>(corpus.documentCount()), K);
  for (std::size_t d = 0; d < corpus.documentCount(); ++d)
    for (auto i = corpus.offsets[d]; i < corpus.offsets[d + 1]; ++i) {
      const auto k = z[static_cast<std::size_t>(i)];
      ++c.wordTopic(corpus.tokens[static_cast<std::size_t>(i)], k);
      ++c.topic[k];
      ++c.docTopic(static_cast<int>(d), k);
    }
  return c;
}

// 000 eq. 27.37 with an asymmetric alpha, from the counts with token i removed; sums to one.
inline Eigen::VectorXd exactConditional(const core::Corpus& corpus, std::span<const std::int32_t> z, int K,
                                        const Eigen::VectorXd& alpha, double beta, std::size_t document,
                                        std::size_t i) {
  auto c = bruteCounts(corpus, z, K);
  const int w = corpus.tokens[i], s = z[i];
  --c.wordTopic(w, s);
  --c.topic[s];
  --c.docTopic(static_cast<int>(document), s);
  const double V = static_cast<double>(corpus.vocabularySize());
  Eigen::VectorXd p(K);
  for (int k = 0; k < K; ++k)
    p[k] =
        (c.docTopic(static_cast<int>(document), k) + alpha[k]) * (c.wordTopic(w, k) + beta) / (c.topic[k] + V * beta);
  return p / p.sum();
}

// log P(W, Z | alpha, beta) (001 eq. 3) with lgamma on every count, zero counts included.
inline double bruteLogJoint(const core::Corpus& corpus, std::span<const std::int32_t> z, int K,
                            const Eigen::VectorXd& alpha, double beta) {
  const auto c = bruteCounts(corpus, z, K);
  const double V = static_cast<double>(corpus.vocabularySize());
  double sum = 0.0;
  for (int k = 0; k < K; ++k) {
    sum += std::lgamma(V * beta) - std::lgamma(c.topic[k] + V * beta);
    for (int w = 0; w < c.wordTopic.rows(); ++w) sum += std::lgamma(c.wordTopic(w, k) + beta) - std::lgamma(beta);
  }
  for (int d = 0; d < c.docTopic.rows(); ++d) {
    sum += std::lgamma(alpha.sum()) - std::lgamma(c.docTopic.row(d).sum() + alpha.sum());
    for (int k = 0; k < K; ++k) sum += std::lgamma(c.docTopic(d, k) + alpha[k]) - std::lgamma(alpha[k]);
  }
  return sum;
}

// The default corpus has no word seen once and no one-word document; the alias sampler's
// proposals leave the token itself out, so those are the cases where one proposal has nothing
// else to choose from (see posteriorWithLoneWordAndOneWordDocument).
inline core::Corpus posteriorCorpus() { return corpusFromIds(3, {{0, 1, 0, 2}, {2, 2, 1}, {0, 2}}); }

// Total-variation distance between the states visited by 200,000 one-partition sweeps and the
// enumerated posterior P(Z | W) (001 eq. 3) of a corpus of a few tokens, K = 2.
template <typename Kernel, typename... Extra>
double distanceFromPosterior(const core::Corpus& corpus, Extra... extra) {
  const int K = 2;
  const double beta = 0.3;
  Eigen::VectorXd alpha(2);
  alpha << 0.4, 0.7;
  const std::size_t N = corpus.tokenCount();
  std::vector<double> exact(std::size_t{1} << N);
  for (std::size_t m = 0; m < exact.size(); ++m) {
    std::vector<std::int32_t> z(N);
    for (std::size_t i = 0; i < N; ++i) z[i] = static_cast<std::int32_t>((m >> i) & 1);
    exact[m] = std::exp(bruteLogJoint(corpus, z, K, alpha, beta));
  }
  const double total = std::accumulate(exact.begin(), exact.end(), 0.0);
  core::topic::LdaGibbsState state(corpus, K, 0.1, beta, 1, 3);
  state.setAlpha(alpha);
  Kernel kernel(state, extra...);
  std::vector<double> visits(exact.size(), 0.0), logPrior;
  const int sweeps = 200000;
  for (int s = 0; s < sweeps; ++s) {
    if (!kernel.sweep({}, false, logPrior)) return 1.0;
    // The wordwise kernel keeps the topics in its own order until asked.
    if constexpr (requires { kernel.synchronize(true); }) kernel.synchronize(true);
    std::size_t m = 0;
    for (std::size_t i = 0; i < N; ++i) m |= static_cast<std::size_t>(state.assignments()[i]) << i;
    visits[m] += 1.0;
  }
  double distance = 0.0;
  for (std::size_t m = 0; m < exact.size(); ++m) distance += std::abs(visits[m] / sweeps - exact[m] / total) / 2;
  return distance;
}

}  // namespace latent::test
