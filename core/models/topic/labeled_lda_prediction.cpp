// SPDX-License-Identifier: GPL-3.0-or-later
// Labeled LDA's fold-ins: label prediction and held-out perplexity.
#include "core/models/topic/labeled_lda_prediction.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "core/models/topic/topic_model_support.hpp"

namespace latent::core::llda {
namespace {

// Seeds of the label predictions' fold-ins, one stream per document.
constexpr std::uint64_t kLldaPredictStream = 0x4C4C444150524544ULL;  // "LLDAPRED"

}  // namespace

Eigen::VectorXd restrictedAlpha(int topics, double alpha, std::span<const std::int32_t> allowed) {
  Eigen::VectorXd prior = Eigen::VectorXd::Zero(topics);
  for (const auto k : allowed) prior[k] = alpha;
  return prior;
}

DocumentFoldIn restrictedFoldIn(const Eigen::MatrixXd& topicWord, const AllowedTopics& allowed, double alpha) {
  return [&topicWord, &allowed, alpha](std::size_t d, std::span<const std::int32_t> words, std::uint64_t seed,
                                       Eigen::Ref<Eigen::VectorXd> theta) {
    // A fold-in per document: its prior differs. Building it costs O(K), nothing beside a document's tokens.
    const auto topics = static_cast<int>(topicWord.rows());
    gibbsFoldIn(topicWord, restrictedAlpha(topics, alpha, allowed.of(d)))(words, seed, theta);
  };
}

Eigen::MatrixXd predictLabelShares(const Corpus& documents, const Eigen::MatrixXd& topicWord, double alpha, int labels,
                                   std::uint64_t seed) {
  const auto K = topicWord.rows();
  const FoldIn foldIn = gibbsFoldIn(topicWord, Eigen::VectorXd::Constant(K, alpha));
  Eigen::MatrixXd shares = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(documents.documentCount()), labels);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, documents.documentCount(), 16), [&](const auto& range) {
    Eigen::VectorXd theta(K);
    for (std::size_t d = range.begin(); d != range.end(); ++d) {
      const auto row = static_cast<Eigen::Index>(d);
      if (documents.documentLength(d) == 0) {
        shares.row(row).setConstant(1.0 / labels);  // no words: nothing to tell the labels apart
        continue;
      }
      foldIn(documents.document(d), seed ^ (kLldaPredictStream + d), theta);
      const double labelMass = theta.head(labels).sum();
      shares.row(row) = theta.head(labels).transpose() / labelMass;
    }
  });
  return shares;
}

std::optional<double> restrictedHeldoutPerplexity(const HeldoutDocuments* heldout, const AllowedTopics& allowed,
                                                  const Eigen::MatrixXd& topicWord, double alpha, std::uint64_t seed) {
  if (!heldout || heldout->empty()) return std::nullopt;
  return scoreHeldoutByDocument(*heldout, topicWord, restrictedFoldIn(topicWord, allowed, alpha),
                                HeldoutProtocol::DocumentCompletion, seed)
      .perplexity;
}

void addLabeledHeldoutMetrics(nlohmann::json& metrics, const HeldoutDocuments& heldout, const AllowedTopics& allowed,
                              const Eigen::MatrixXd& topicWord, double alpha, std::uint64_t seed) {
  if (heldout.empty()) return;
  const DocumentFoldIn restricted = restrictedFoldIn(topicWord, allowed, alpha);
  topic::addHeldoutScores(
      metrics, scoreHeldoutByDocument(heldout, topicWord, restricted, HeldoutProtocol::DocumentCompletion, seed),
      scoreHeldoutByDocument(heldout, topicWord, restricted, HeldoutProtocol::FullFoldingIn, seed));
  metrics["heldout_topics_allowed"] = "the document's own labels and the background topics";
  const FoldIn unrestricted = gibbsFoldIn(topicWord, Eigen::VectorXd::Constant(topicWord.rows(), alpha));
  const auto open = scoreHeldout(heldout, topicWord, unrestricted, HeldoutProtocol::DocumentCompletion, seed);
  metrics["heldout_perplexity_unrestricted"] = open.perplexity;
  metrics["heldout_perplexity_unrestricted_per_token"] = open.perplexityPerToken;
}

Eigen::MatrixXd assembleRestrictedDocTopic(const Eigen::MatrixXd& trainTheta,
                                           std::span<const std::int64_t> trainDocuments, std::int64_t fullDocumentCount,
                                           const HeldoutDocuments* heldout, const AllowedTopics& heldoutAllowed,
                                           const Eigen::MatrixXd& topicWord, double alpha, std::uint64_t seed) {
  const auto K = trainTheta.cols();
  if (trainDocuments.empty()) return trainTheta;  // the corpus is the full one
  Eigen::MatrixXd full = Eigen::MatrixXd::Zero(fullDocumentCount, K);
  for (std::size_t d = 0; d < trainDocuments.size(); ++d)
    full.row(trainDocuments[d]) = trainTheta.row(static_cast<Eigen::Index>(d));
  if (!heldout) return full;
  const auto& h = *heldout;
  const DocumentFoldIn foldIn = restrictedFoldIn(topicWord, heldoutAllowed, alpha);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, h.size(), 8), [&](const auto& range) {
    Eigen::VectorXd theta(K);
    std::vector<std::int32_t> words;
    for (std::size_t i = range.begin(); i != range.end(); ++i) {
      const auto a = h.observed.document(i), b = h.scored.document(i);
      words.assign(a.begin(), a.end());
      words.insert(words.end(), b.begin(), b.end());
      foldIn(i, words, seed + static_cast<std::uint64_t>(h.documents[i]), theta);
      full.row(h.documents[i]) = theta.transpose();
    }
  });
  return full;
}

}  // namespace latent::core::llda
