// SPDX-License-Identifier: GPL-3.0-or-later
// What the models of linked documents store beside the topics family's matrices (and beside
// "predicted_links", eval/link_prediction.hpp): their link parameters. lda-mmsb's block matrix is
// block_results.hpp's kBlockMatrix (K x K, B_pq the probability of a link between topics p and q).
#pragma once

namespace latent::core::topic {

// link-lda: each topic's distribution over the documents its links point to, K x D in corpus order
// (rows sum to one; held-out documents' columns are 0: no training link may point to them).
inline constexpr const char* kTopicDocument = "topic_document";

}  // namespace latent::core::topic
