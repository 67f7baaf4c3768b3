// SPDX-License-Identifier: GPL-3.0-or-later
// What labeled LDA says about documents it did not train on: their labels from their words
// alone (every label topic allowed, the topics fixed), and held-out perplexity by document
// completion with each document's topics restricted to its own labels (the labels are side
// information known at test time) or, for comparison, to none.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include "core/data/corpus.hpp"
#include "core/eval/heldout.hpp"
#include "core/eval/topic_evaluation.hpp"
#include "core/models/topic/labeled_lda_sampler.hpp"

namespace latent::core::llda {

// alpha on the allowed topics and zero elsewhere: LDA's Gibbs fold-in (gibbsFoldIn) with it
// draws among the allowed topics only, as the model's prior Dir(alpha 1_{Lambda_d}) does.
Eigen::VectorXd restrictedAlpha(int topics, double alpha, std::span<const std::int32_t> allowed);

// Document d of a HeldoutDocuments (or of any list of documents) folded in among allowed.of(d).
DocumentFoldIn restrictedFoldIn(const Eigen::MatrixXd& topicWord, const AllowedTopics& allowed, double alpha);

// Each document's label shares from its words alone: folded in (Gibbs, the topics fixed) with
// every topic allowed, then theta's label topics (0 .. labels - 1; the background ones left out)
// normalised to sum to one. documents x labels. Parallel over documents; seeded per document.
Eigen::MatrixXd predictLabelShares(const Corpus& documents, const Eigen::MatrixXd& topicWord, double alpha, int labels,
                                   std::uint64_t seed);

// The held-out perplexity reported while training: document completion, each held-out document
// restricted to `allowed` (its own labels and the background). nullopt when nothing is held out.
std::optional<double> restrictedHeldoutPerplexity(const HeldoutDocuments* heldout, const AllowedTopics& allowed,
                                                  const Eigen::MatrixXd& topicWord, double alpha, std::uint64_t seed);

// The final held-out perplexity keys of every topic model (topic_model_support.hpp
// addHeldoutScores) with the documents restricted to `allowed`, and the same estimator with
// every topic allowed under heldout_perplexity_unrestricted(_per_token).
void addLabeledHeldoutMetrics(nlohmann::json& metrics, const HeldoutDocuments& heldout, const AllowedTopics& allowed,
                              const Eigen::MatrixXd& topicWord, double alpha, std::uint64_t seed);

// doc_topic in corpus order (fullDocumentCount x K): training rows given, held-out rows folded
// in on the whole document among its allowed topics.
Eigen::MatrixXd assembleRestrictedDocTopic(const Eigen::MatrixXd& trainTheta,
                                           std::span<const std::int64_t> trainDocuments, std::int64_t fullDocumentCount,
                                           const HeldoutDocuments* heldout, const AllowedTopics& heldoutAllowed,
                                           const Eigen::MatrixXd& topicWord, double alpha, std::uint64_t seed);

}  // namespace latent::core::llda
