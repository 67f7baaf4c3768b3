// SPDX-License-Identifier: GPL-3.0-or-later
// Scores of label-set predictions, labeled-lda's own small version until the shared module
// core/eval/response_metrics.hpp (scoreLabelSets, addScores) is on this branch: the same rule
// for a predicted set and the same final keys, so the numbers will not change when it replaces this.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include <Eigen/Core>
#include <nlohmann/json.hpp>

namespace latent::core::llda {

struct LabelPredictionScores {
  double macroF1 = 0.0, microF1 = 0.0, precisionAt1 = 0.0;
  std::int64_t count = 0;  // documents scored (those with at least one true label)
};

// scores: documents x labels, higher = more likely, read as a probability: a document's
// predicted set is the labels scoring at least 0.5, or its best one when none does. Documents
// whose truth is empty are skipped. Macro-F1 averages F1 over the labels that are true or
// predicted for some scored document; precision@1: how often the best-scored label is true.
LabelPredictionScores scoreLabelPredictions(const Eigen::MatrixXd& scores,
                                            const std::vector<std::vector<std::int32_t>>& truth);

// heldout_macro_f1, heldout_micro_f1, heldout_precision_at_1, heldout_responses; with a
// baseline name baseline_macro_f1_<name>, ... instead.
void addLabelPredictionScores(nlohmann::json& metrics, const LabelPredictionScores& scores,
                              std::string_view baselineName = {});

// The "frequency" baseline: every document scored by the share of training documents that carry
// each label (documents x labels, the same row for each of `documents`).
Eigen::MatrixXd labelFrequencyScores(const std::vector<std::vector<std::int32_t>>& trainingTruth, int labels,
                                     std::size_t documents);

}  // namespace latent::core::llda
