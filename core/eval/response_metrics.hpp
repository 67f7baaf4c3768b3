// SPDX-License-Identifier: GPL-3.0-or-later
// Scores of held-out predictions of a document's response (a number), class (one category) or
// labels (a set), the same for every model and for the baselines beside it
// (core/eval/linear_baselines.hpp), and the final --json keys that report them (DESIGN §6).
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <span>
#include <string_view>
#include <vector>

namespace latent::core {

struct NumericScores {
  double rmse = 0, mae = 0, r2 = 0;
  std::int64_t count = 0;
};

// Documents whose truth is NaN are skipped. r2 = 1 - SSE / SS around the truth's mean (scikit-learn's
// r2_score: 1 for a perfect prediction of a constant truth, 0 for any other).
NumericScores scoreNumeric(std::span<const double> predicted, std::span<const double> truth);
inline NumericScores scoreNumeric(const Eigen::VectorXd& predicted, std::span<const double> truth) {
  return scoreNumeric(std::span<const double>(predicted.data(), static_cast<std::size_t>(predicted.size())), truth);
}

// An area under the ROC curve is NaN where it is undefined (no class, or no label, with both a
// document in it and one outside it); addScores then leaves its key out.
struct ClassScores {
  double accuracy = 0, macroF1 = 0, logLoss = 0, auc = std::numeric_limits<double>::quiet_NaN();
  std::int64_t count = 0;
};

// probabilities: documents x classes (rows sum to 1); truth codes, -1 skipped. The predicted class
// is the most probable (the first of equals). Macro F1 averages over the classes given or predicted
// (scikit-learn's f1_score, average="macro"); the log loss clips probabilities at 1e-15; the AUC is
// the macro average of one-vs-rest ROC AUCs over the classes with both a document in them and one
// outside (for two classes, the binary ROC AUC); tied scores count half (Mann-Whitney).
ClassScores scoreClasses(const Eigen::MatrixXd& probabilities, std::span<const std::int32_t> truth);

struct LabelSetScores {
  double macroF1 = 0, microF1 = 0, auc = std::numeric_limits<double>::quiet_NaN(), precisionAt1 = 0;
  std::int64_t count = 0;
};

// scores: documents x labels (higher = more likely); a document's predicted set is its labels with
// probability-like score >= 0.5, or its top one when none reaches it. Empty truth skipped. Macro F1
// averages over the labels given or predicted; micro F1 pools every decision; the AUC is the macro
// average over labels with both classes present; precision at 1: the top label (the first of
// equals) is among the document's.
LabelSetScores scoreLabelSets(const Eigen::MatrixXd& scores, const std::vector<std::vector<std::int32_t>>& truth);

// The area under the ROC curve of `scores` for telling `positive` documents from the others (NaN
// when either group is empty); tied scores count half.
double rocAuc(std::span<const double> scores, const std::vector<bool>& positive);

// Adds the keys (DESIGN §6), with prefix "heldout_", or with baselineName the baseline keys
// "baseline_<key>_<name>":
//   numeric: heldout_response_rmse, heldout_response_mae, heldout_response_r2, heldout_responses;
//            baseline_response_rmse_<name>, baseline_response_mae_<name>, baseline_response_r2_<name>
//   classes: heldout_accuracy, heldout_macro_f1, heldout_log_loss, heldout_auc, heldout_responses;
//            baseline_accuracy_<name>, baseline_macro_f1_<name>, baseline_log_loss_<name>,
//            baseline_auc_<name>
//   label sets: heldout_macro_f1, heldout_micro_f1, heldout_auc, heldout_precision_at_1,
//            heldout_responses; baseline_macro_f1_<name>, baseline_micro_f1_<name>,
//            baseline_auc_<name>, baseline_precision_at_1_<name>
// The count is a model's key only (a baseline scores the same documents). An undefined AUC is left out.
void addScores(nlohmann::json& metrics, const NumericScores& s, std::string_view baselineName = {});
void addScores(nlohmann::json& metrics, const ClassScores& s, std::string_view baselineName = {});
void addScores(nlohmann::json& metrics, const LabelSetScores& s, std::string_view baselineName = {});

}  // namespace latent::core
