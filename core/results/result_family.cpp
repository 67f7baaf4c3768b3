// SPDX-License-Identifier: GPL-3.0-or-later
// The result families' declarations.
#include "core/results/result_family.hpp"

#include "core/results/block_results.hpp"
#include "core/results/embedding_results.hpp"
#include "core/results/factor_results.hpp"
#include "core/results/hidden_results.hpp"
#include "core/results/topic_results.hpp"

namespace latent::core {
namespace {

constexpr const char* kPerplexityName = "held-out perplexity, document completion (000 eq. 27.29)";
constexpr const char* kRmseName = "held-out RMSE (000 eq. 27.84)";

}  // namespace

const ResultFamilyInfo& resultFamily(ResultFamily family) {
  static const ResultFamilyInfo families[] = {
      {ResultFamily::Topics,
       "topics",
       {topic::kTopicWord},
       {topic::kDocTopic, topic::kAlpha, topic::kMixingWeights, topic::kInitialTokenTopics, topic::kClassWord,
        topic::kClassTransitions, topic::kClassStart, topic::kLabelScores},
       {},
       {{topic::kHeldoutPerplexity, kPerplexityName}}},
      {ResultFamily::Blocks,
       "blocks",
       {kMemberships, kBlockMatrix},
       {kBlocks, kNodeOrder, kDegreeFactor, kBlockRates, kLinkScale, kNodeType},
       {},
       {{kHeldoutLinkPerplexity, "held-out link perplexity (001 eq. 8)"}}},
      {ResultFamily::Factors,
       "factors",
       {kUserFactors, kItemFactors},
       {kUserBias, kItemBias, kGlobalMean, kRatingRange, kRegularization, kItemImplicit},
       {},
       {{kHeldoutRmse, kRmseName}}},
      {ResultFamily::HiddenUnits,
       "hidden units",
       {hidden::kWeights, hidden::kVisibleBias, hidden::kHiddenBias},
       {hidden::kHiddenActivations, hidden::kRatingLevels},
       {hidden::kRatingWeights, hidden::kRatingVisibleBias, hidden::kHiddenBias},
       {{topic::kHeldoutPerplexity, kPerplexityName},
        {hidden::kHeldoutPseudoNll,
         "held-out negative pseudo-log-likelihood per case, a document or a row (nats, Besag 1975)"},
        {kHeldoutRmse, kRmseName}}},
      {ResultFamily::Embeddings,
       "embeddings",
       {embedding::kWordVectors, embedding::kSingularValues},
       {embedding::kDocVectors, embedding::kTermWeights, embedding::kWordBias, embedding::kLabelWeights,
        embedding::kLabelBias, embedding::kLatentCovariance},
       {},
       {{embedding::kHeldoutResidual,
         "held-out residual share: the held-out documents' squared norm outside the subspace (weighted as in "
         "training)"},
        {topic::kHeldoutPerplexity, kPerplexityName},
        {embedding::kHeldoutLabelLogLoss,
         "held-out label log loss: the mean over held-out documents' labels of -log p(label | words) (nats)"}}},
  };
  return families[static_cast<int>(family)];
}

const HeldoutMetric* findHeldoutMetric(const ResultFamilyInfo& family, std::string_view key) {
  for (const auto& metric : family.heldout)
    if (metric.key == key) return &metric;
  return nullptr;
}

}  // namespace latent::core
