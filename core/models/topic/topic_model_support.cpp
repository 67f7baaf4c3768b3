// SPDX-License-Identifier: GPL-3.0-or-later
// Shared option specs, held-out metrics and result layout of the topic models.
#include "core/models/topic/topic_model_support.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <limits>

#include "core/data/corpus_share.hpp"
#include "core/util/communicator.hpp"

namespace latent::core::topic {

OptionSpec topicsOption() {
  return integerOption("k", 1, 100000, "Number of topics: how many themes the model looks for in the documents.");
}

OptionSpec iterationsOption(const std::string& help) { return integerOption("iterations", 1, 1e7, help); }

OptionSpec alphaOption() {
  return realOption("alpha", 0.0, kNoMaximum, true,
                    "Prior on each document's topic mix: small values make documents stick to few topics.");
}

OptionSpec betaOption() {
  return realOption("beta", 0.0, kNoMaximum, true,
                    "Prior on each topic's words: small values make topics use few, distinctive words.");
}

OptionSpec optimizeEveryOption() {
  return integerOption(
      "optimize_every", 0, 1e7,
      "Re-estimate alpha (one value per topic) and beta from the data every N iterations; 0 keeps them fixed.");
}

OptionSpec snapshotEveryOption() {
  return integerOption(
      "snapshot_every", 0, 1e7,
      "Save the topics to the project every N iterations, so a stopped run keeps them; 0 saves only at the end.");
}

OptionSpec toleranceOption() {
  return realOption(
      "tolerance", 0.0, kNoMaximum, false,
      "Stop early once the objective per token changes by less than this between iterations; 0 never stops early.");
}

OptionSpec wordBaselinesOption() {
  return booleanOption("baselines",
                       "Also fit ridge or logistic regression on the same training documents' words (its penalty "
                       "cross-validated) and score it on the same held-out documents, for comparison; it may take "
                       "longer than the fit. The trivial baseline (the mean, majority class or label frequencies) is "
                       "reported either way.");
}

std::optional<double> heldoutPerplexity(const FitData& data, const Eigen::MatrixXd& topicWord, const FoldIn& foldIn,
                                        std::uint64_t seed) {
  if (!data.heldout || data.heldout->empty()) return std::nullopt;
  return scoreHeldout(*data.heldout, topicWord, foldIn, HeldoutProtocol::DocumentCompletion, seed).perplexity;
}

namespace {

// Whether the held-out documents are spread over the processes of a distributed corpus fit.
bool spreadOver(const FitData& data, const Communicator* group) {
  return group != nullptr && group->size() > 1 && data.share != nullptr && !data.share->heldoutEnds.empty();
}

// The held-out score under `protocol`; where the documents are spread, each process scores its own
// and process 0 combines their terms in document order (its own documents come first, the others'
// follow in process order), as it would score them all; std::nullopt on the others.
std::optional<TopicHeldoutScore> scoreOverGroup(const FitData& data, const TopicColumns& topicWord,
                                                const FoldIn& foldIn, HeldoutProtocol protocol, std::uint64_t seed,
                                                Communicator* group) {
  const auto& heldout = *data.heldout;
  if (!spreadOver(data, group)) return scoreHeldout(heldout, topicWord, foldIn, protocol, seed);
  const auto [first, end] = heldoutOfProcess(*data.share, group->rank());
  HeldoutTerms mine = scoreHeldoutTerms(heldout, static_cast<std::size_t>(first), static_cast<std::size_t>(end),
                                        topicWord, foldIn, protocol, seed);
  if (group->rank() != 0) {
    group->send(std::as_bytes(std::span<const double>(mine.logLikelihoods)), 0);
    group->send(std::as_bytes(std::span<const std::int64_t>(mine.tokens)), 0);
    return std::nullopt;
  }
  HeldoutTerms all;
  all.logLikelihoods.resize(heldout.size());
  all.tokens.resize(heldout.size());
  std::copy(mine.logLikelihoods.begin(), mine.logLikelihoods.end(), all.logLikelihoods.begin());
  std::copy(mine.tokens.begin(), mine.tokens.end(), all.tokens.begin());
  for (int q = 1; q < group->size(); ++q) {
    const auto [from, to] = heldoutOfProcess(*data.share, q);
    const auto count = static_cast<std::size_t>(to - from);
    group->receive(std::as_writable_bytes(std::span<double>(all.logLikelihoods).subspan(from, count)), q);
    group->receive(std::as_writable_bytes(std::span<std::int64_t>(all.tokens).subspan(from, count)), q);
  }
  return combineHeldoutTerms(all);
}

// Folds in held-out documents [first, end) on all their tokens, in parallel: row(i, theta) takes
// document i's proportions.
template <typename Row>
void foldInHeldoutRows(const HeldoutDocuments& h, std::size_t first, std::size_t end, Eigen::Index topics,
                       const FoldIn& foldIn, std::uint64_t seed, Row&& row) {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(first, end, 8), [&](const auto& range) {
    Eigen::VectorXd theta(topics);
    std::vector<std::int32_t> words;
    for (std::size_t i = range.begin(); i != range.end(); ++i) {
      const auto a = h.observed.document(i), b = h.scored.document(i);
      words.assign(a.begin(), a.end());
      words.insert(words.end(), b.begin(), b.end());
      foldIn(words, seed + static_cast<std::uint64_t>(h.documents[i]), theta);
      row(i, theta);
    }
  });
}

}  // namespace

std::optional<double> heldoutPerplexity(const FitData& data, const TopicColumns& topicWord, const FoldIn& foldIn,
                                        std::uint64_t seed, Communicator* group) {
  if (!data.heldout || data.heldout->empty()) return std::nullopt;
  const auto score = scoreOverGroup(data, topicWord, foldIn, HeldoutProtocol::DocumentCompletion, seed, group);
  if (!score) return std::nullopt;
  return score->perplexity;
}

void addFinalHeldoutMetrics(nlohmann::json& metrics, const FitData& data, const TopicColumns& topicWord,
                            const FoldIn& foldIn, std::uint64_t seed, Communicator* group) {
  if (!data.heldout || data.heldout->empty()) return;
  const auto completion = scoreOverGroup(data, topicWord, foldIn, HeldoutProtocol::DocumentCompletion, seed, group);
  const auto full = scoreOverGroup(data, topicWord, foldIn, HeldoutProtocol::FullFoldingIn, seed, group);
  if (completion && full) addHeldoutScores(metrics, *completion, *full);
}

void addFinalHeldoutMetrics(nlohmann::json& metrics, const FitData& data, const Eigen::MatrixXd& topicWord,
                            const FoldIn& foldIn, std::uint64_t seed) {
  addFinalHeldoutMetrics(metrics, data, DenseTopicColumns(topicWord), foldIn, seed);
}

void addFinalHeldoutMetrics(nlohmann::json& metrics, const FitData& data, const Eigen::MatrixXf& topicWord,
                            const FoldIn& foldIn, std::uint64_t seed) {
  addFinalHeldoutMetrics(metrics, data, DenseTopicColumns(topicWord), foldIn, seed);
}

std::optional<double> heldoutPerplexity(const FitData& data, const Eigen::MatrixXf& topicWord, const FoldIn& foldIn,
                                        std::uint64_t seed) {
  if (!data.heldout || data.heldout->empty()) return std::nullopt;
  return scoreHeldout(*data.heldout, topicWord, foldIn, HeldoutProtocol::DocumentCompletion, seed).perplexity;
}

void addHeldoutScores(nlohmann::json& metrics, const TopicHeldoutScore& completion, const TopicHeldoutScore& full) {
  metrics[kHeldoutPerplexity] = completion.perplexity;
  metrics["heldout_perplexity_per_token"] = completion.perplexityPerToken;
  metrics["heldout_protocol"] = protocolName(HeldoutProtocol::DocumentCompletion);
  metrics["heldout_perplexity_full_folding_in"] = full.perplexity;
  metrics["heldout_perplexity_full_folding_in_per_token"] = full.perplexityPerToken;
  metrics["heldout_documents"] = completion.documents;
  metrics["heldout_tokens"] = completion.tokens;
}

Eigen::MatrixXd assembleDocTopic(const FitData& data, const Eigen::MatrixXd& trainTheta, const FoldIn& foldIn,
                                 std::uint64_t seed) {
  if (data.trainDocuments.empty()) return trainTheta;  // the corpus is the full one
  return assembleDocTopic(
      data, trainTheta.cols(),
      [&](Eigen::MatrixXd& full, std::span<const std::int64_t> rows) {
        for (std::size_t d = 0; d < rows.size(); ++d) full.row(rows[d]) = trainTheta.row(static_cast<Eigen::Index>(d));
      },
      foldIn, seed);
}

template <typename Scalar>
Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic> assembleDocTopicAs(
    const FitData& data, Eigen::Index topics,
    const std::function<void(Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>&, std::span<const std::int64_t>)>&
        fillTrainRows,
    const FoldIn& foldIn, std::uint64_t seed, Communicator* group) {
  using Matrix = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>;
  // A process's held-out rows, one after the other, as they are sent to process 0.
  using Rows = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const auto K = topics;
  const bool spread = data.heldout != nullptr && spreadOver(data, group);
  if (group != nullptr && group->size() > 1 && group->rank() != 0) {
    if (!spread) return Matrix();
    const auto [first, end] = heldoutOfProcess(*data.share, group->rank());
    Rows mine(end - first, K);
    foldInHeldoutRows(*data.heldout, static_cast<std::size_t>(first), static_cast<std::size_t>(end), K, foldIn, seed,
                      [&](std::size_t i, const Eigen::VectorXd& theta) {
                        mine.row(static_cast<Eigen::Index>(i) - first) = theta.transpose().template cast<Scalar>();
                      });
    group->send(std::as_bytes(std::span<const Scalar>(mine.data(), static_cast<std::size_t>(mine.size()))), 0);
    return Matrix();
  }
  if (data.trainDocuments.empty()) {  // the corpus is the full one
    Matrix theta(static_cast<Eigen::Index>(data.corpus->documentCount()), K);
    fillTrainRows(theta, {});
    return theta;
  }
  Matrix full = Matrix::Zero(data.fullDocumentCount, K);
  fillTrainRows(full, data.trainDocuments);
  if (!data.heldout) return full;
  const auto& h = *data.heldout;
  // Process 0 folds in its own share where the documents are spread, else all of them.
  const auto [first, end] = spread ? heldoutOfProcess(*data.share, 0)
                                   : std::pair<std::int64_t, std::int64_t>{0, static_cast<std::int64_t>(h.size())};
  foldInHeldoutRows(h, static_cast<std::size_t>(first), static_cast<std::size_t>(end), K, foldIn, seed,
                    [&](std::size_t i, const Eigen::VectorXd& theta) {
                      full.row(h.documents[i]) = theta.transpose().template cast<Scalar>();
                    });
  if (!spread) return full;
  for (int q = 1; q < group->size(); ++q) {
    const auto [from, to] = heldoutOfProcess(*data.share, q);
    Rows theirs(to - from, K);
    group->receive(std::as_writable_bytes(std::span<Scalar>(theirs.data(), static_cast<std::size_t>(theirs.size()))),
                   q);
    for (std::int64_t i = from; i < to; ++i)
      full.row(h.documents[static_cast<std::size_t>(i)]) = theirs.row(static_cast<Eigen::Index>(i - from));
  }
  return full;
}

template Eigen::MatrixXd assembleDocTopicAs<double>(
    const FitData&, Eigen::Index, const std::function<void(Eigen::MatrixXd&, std::span<const std::int64_t>)>&,
    const FoldIn&, std::uint64_t, Communicator*);
template Eigen::MatrixXf assembleDocTopicAs<float>(
    const FitData&, Eigen::Index, const std::function<void(Eigen::MatrixXf&, std::span<const std::int64_t>)>&,
    const FoldIn&, std::uint64_t, Communicator*);

Eigen::MatrixXd assembleDocTopic(
    const FitData& data, Eigen::Index topics,
    const std::function<void(Eigen::MatrixXd&, std::span<const std::int64_t>)>& fillTrainRows, const FoldIn& foldIn,
    std::uint64_t seed) {
  return assembleDocTopicAs<double>(data, topics, fillTrainRows, foldIn, seed);
}

std::vector<std::vector<std::int32_t>> mostLikelyTopics(const Corpus& corpus, const Eigen::MatrixXd& topicWord,
                                                        const Eigen::MatrixXd& docTopic) {
  std::vector<std::vector<std::int32_t>> out(corpus.documentCount());
  // A word's topic is worked out once per document (a word recurs in a document), from the
  // document's proportions copied out of their strided row: this pass runs when a fit ends, also
  // when it is stopped. The products and their order are the ones of the definition.
  struct Scratch {
    std::vector<std::int32_t> topicOfWord;  // -1: not yet seen in this document
    std::vector<std::int32_t> seen;
    Eigen::ArrayXd theta;
  };
  tbb::enumerable_thread_specific<Scratch> scratch([&] {
    return Scratch{std::vector<std::int32_t>(static_cast<std::size_t>(topicWord.cols()), -1), {}, {}};
  });
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, corpus.documentCount(), 64), [&](const auto& range) {
    auto& own = scratch.local();
    for (std::size_t d = range.begin(); d != range.end(); ++d) {
      const auto words = corpus.document(d);
      auto& topics = out[d];
      topics.resize(words.size());
      own.theta = docTopic.row(static_cast<Eigen::Index>(d)).transpose().array();
      for (std::size_t i = 0; i < words.size(); ++i) {
        auto& known = own.topicOfWord[static_cast<std::size_t>(words[i])];
        if (known < 0) {
          Eigen::Index best = 0;
          (topicWord.col(words[i]).array() * own.theta).maxCoeff(&best);
          known = static_cast<std::int32_t>(best);
          own.seen.push_back(words[i]);
        }
        topics[i] = known;
      }
      for (const auto w : own.seen) own.topicOfWord[static_cast<std::size_t>(w)] = -1;
      own.seen.clear();
    }
  });
  return out;
}

}  // namespace latent::core::topic
