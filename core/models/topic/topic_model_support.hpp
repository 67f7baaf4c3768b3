// SPDX-License-Identifier: GPL-3.0-or-later
// What the topic models share: their common options, held-out metrics under the protocols of 003,
// and the layout of results (topic_word, doc_topic, per-token topics) the views and exports read.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include "core/eval/topic_evaluation.hpp"
#include "core/models/model.hpp"
#include "core/models/option_specs.hpp"
#include "core/results/topic_results.hpp"

namespace latent::core::topic {

// Options with the same name, meaning and help text in every topic model.
OptionSpec topicsOption();                             // "k"
OptionSpec iterationsOption(const std::string& help);  // "iterations"
OptionSpec alphaOption();          // symmetric document-topic prior (the start value when optimised)
OptionSpec betaOption();           // symmetric topic-word prior
OptionSpec optimizeEveryOption();  // re-estimate alpha and beta every N iterations; 0 = never
OptionSpec snapshotEveryOption();  // write topic_word to the project every N iterations
// Stop once the objective per token changes by less than this; 0 never stops early.
OptionSpec toleranceOption();
// "baselines" of the models that predict a document field from the words (slda, labeled-lda,
// dcatpca): the regression on the words fitted and scored beside the model's prediction.
OptionSpec wordBaselinesOption();

// The held-out perplexity reported during training: document completion, 000 eq. 27.29.
// std::nullopt when the run holds nothing out.
std::optional<double> heldoutPerplexity(const FitData& data, const Eigen::MatrixXd& topicWord, const FoldIn& foldIn,
                                        std::uint64_t seed);
std::optional<double> heldoutPerplexity(const FitData& data, const Eigen::MatrixXf& topicWord, const FoldIn& foldIn,
                                        std::uint64_t seed);
// The same with the topics in any form (topic_columns.hpp). Collective in a distributed corpus fit
// (`group` of more than one process, data.share planned its held-out documents): each process
// scores its own held-out documents, and process 0 combines their terms in document order, so
// the perplexity is the one process 0 would compute alone, to the bit; std::nullopt on the others.
std::optional<double> heldoutPerplexity(const FitData& data, const TopicColumns& topicWord, const FoldIn& foldIn,
                                        std::uint64_t seed, Communicator* group);

// Adds the final held-out metrics under both protocols, each named as such:
//   heldout_perplexity, heldout_perplexity_per_token, heldout_protocol ("document-completion"),
//   heldout_perplexity_full_folding_in, heldout_perplexity_full_folding_in_per_token,
//   heldout_documents, heldout_tokens.
// Nothing when the run holds nothing out.
void addFinalHeldoutMetrics(nlohmann::json& metrics, const FitData& data, const Eigen::MatrixXd& topicWord,
                            const FoldIn& foldIn, std::uint64_t seed);
void addFinalHeldoutMetrics(nlohmann::json& metrics, const FitData& data, const Eigen::MatrixXf& topicWord,
                            const FoldIn& foldIn, std::uint64_t seed);
// With the topics in any form; collective in a distributed corpus fit, as heldoutPerplexity above:
// each process scores its own held-out documents under both protocols and process 0 adds the
// metrics it would compute alone, to the bit; the others add nothing.
void addFinalHeldoutMetrics(nlohmann::json& metrics, const FitData& data, const TopicColumns& topicWord,
                            const FoldIn& foldIn, std::uint64_t seed, Communicator* group = nullptr);

// The same keys from scores computed by the model itself (scoreHeldout with its own predictive).
void addHeldoutScores(nlohmann::json& metrics, const TopicHeldoutScore& completion, const TopicHeldoutScore& full);

// doc_topic in corpus order (fullDocumentCount x K): training rows from `trainTheta` (one row per
// document of data.corpus), held-out rows folded in on all of each document's tokens.
Eigen::MatrixXd assembleDocTopic(const FitData& data, const Eigen::MatrixXd& trainTheta, const FoldIn& foldIn,
                                 std::uint64_t seed);
// The same with the training rows written by fillTrainRows(full, data.trainDocuments) straight
// into the result (rows[d] for training document d; d itself when the span is empty), so that no
// second D x K matrix is held at once.
Eigen::MatrixXd assembleDocTopic(
    const FitData& data, Eigen::Index topics,
    const std::function<void(Eigen::MatrixXd&, std::span<const std::int64_t>)>& fillTrainRows, const FoldIn& foldIn,
    std::uint64_t seed);
// The same into a matrix of doubles or of floats (a large doc_topic is held as floats,
// matrix_precision.hpp), the folded-in rows rounded once: assembleDocTopicAs<float>(...).
// Collective in a distributed corpus fit (`group` of more than one process, data.share planned its
// held-out documents): each process folds in its own held-out documents and sends their rows to
// process 0, which alone fills the training rows and returns the matrix, the same to the bit as
// alone; the others return an empty one.
template <typename Scalar>
Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic> assembleDocTopicAs(
    const FitData& data, Eigen::Index topics,
    const std::function<void(Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>&, std::span<const std::int64_t>)>&
        fillTrainRows,
    const FoldIn& foldIn, std::uint64_t seed, Communicator* group = nullptr);
extern template Eigen::MatrixXd assembleDocTopicAs<double>(
    const FitData&, Eigen::Index, const std::function<void(Eigen::MatrixXd&, std::span<const std::int64_t>)>&,
    const FoldIn&, std::uint64_t, Communicator*);
extern template Eigen::MatrixXf assembleDocTopicAs<float>(
    const FitData&, Eigen::Index, const std::function<void(Eigen::MatrixXf&, std::span<const std::int64_t>)>&,
    const FoldIn&, std::uint64_t, Communicator*);

// For models without sampled assignments (VB, EM): each token's most responsible topic,
// argmax_k theta_dk phi_kw. One vector per document of `corpus`.
std::vector<std::vector<std::int32_t>> mostLikelyTopics(const Corpus& corpus, const Eigen::MatrixXd& topicWord,
                                                        const Eigen::MatrixXd& docTopic);

}  // namespace latent::core::topic
