// SPDX-License-Identifier: GPL-3.0-or-later
// The two baselines a model of linked documents is reported beside (DESIGN §6): LDA topics compared
// by cosine similarity (text alone), and MMSB on the training links alone (links alone). Both are
// the registered models, fitted on the same training documents and links and scored on the same
// held-out pairs, so a linked model's gain over them is measured, not assumed.
#pragma once

#include <cstdint>
#include <optional>
#include <stop_token>

#include <nlohmann/json.hpp>

#include "core/eval/link_prediction.hpp"
#include "core/models/model.hpp"

namespace latent::core {

struct LinkBaselineSettings {
  std::int64_t topics = 10;       // K of both: topics for LDA, blocks for MMSB
  std::int64_t iterations = 200;  // sweeps of each
  std::uint64_t seed = 1;
  int threads = 1;
  bool blockModel = true;  // MMSB too; it visits every pair of training documents per sweep
};

struct LinkBaselineScores {
  std::optional<LinkPredictionScores> ldaHidden;   // lda_cosine
  std::optional<LinkPredictionScores> ldaNew;      // lda_cosine on new documents
  std::optional<LinkPredictionScores> mmsbHidden;  // mmsb (cannot place a document without links)
};

// Fits both (LDA alone without blockModel) and scores them on data.links (hidden pairs; new
// documents for LDA). Needs a linked corpus (data.links). Returns what was reached when `stop` is
// requested (a baseline not fitted stays empty).
LinkBaselineScores fitLinkBaselines(const FitData& data, const LinkBaselineSettings& settings, std::stop_token stop);

// baseline_auc_lda_cosine, baseline_auc_mmsb and their precision at 10 (link_prediction.hpp).
void addLinkBaselineMetrics(nlohmann::json& metrics, const LinkBaselineScores& baselines);

// The cosine similarity of two rows of a matrix (0 when either is all zeros).
double rowCosine(const Eigen::MatrixXd& a, Eigen::Index i, const Eigen::MatrixXd& b, Eigen::Index j);

}  // namespace latent::core
