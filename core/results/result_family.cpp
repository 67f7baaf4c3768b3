// SPDX-License-Identifier: GPL-3.0-or-later
// The result families' declarations.
#include "core/results/result_family.hpp"

#include "core/results/block_results.hpp"
#include "core/results/factor_results.hpp"
#include "core/results/topic_results.hpp"

namespace latent::core {

const ResultFamilyInfo& resultFamily(ResultFamily family) {
  static const ResultFamilyInfo families[] = {
      {ResultFamily::Topics,
       "topics",
       {topic::kTopicWord},
       {topic::kDocTopic, topic::kAlpha, topic::kMixingWeights, topic::kInitialTokenTopics},
       topic::kHeldoutPerplexity,
       "held-out perplexity, document completion (000 eq. 27.29)"},
      {ResultFamily::Blocks,
       "blocks",
       {kMemberships, kBlockMatrix},
       {kBlocks, kNodeOrder, kDegreeFactor, kBlockRates, kLinkScale, kNodeType},
       kHeldoutLinkPerplexity,
       "held-out link perplexity (001 eq. 8)"},
      {ResultFamily::Factors,
       "factors",
       {kUserFactors, kItemFactors},
       {kUserBias, kItemBias, kGlobalMean, kRatingRange, kRegularization, kItemImplicit},
       kHeldoutRmse,
       "held-out RMSE (000 eq. 27.84)"},
  };
  return families[static_cast<int>(family)];
}

}  // namespace latent::core
