// SPDX-License-Identifier: GPL-3.0-or-later
// Macro- and micro-F1 and precision@1 of label-set predictions (labeled-lda's interim version).
#include "core/models/topic/labeled_lda_scores.hpp"

#include <algorithm>
#include <string>

namespace latent::core::llda {

LabelPredictionScores scoreLabelPredictions(const Eigen::MatrixXd& scores,
                                            const std::vector<std::vector<std::int32_t>>& truth) {
  const auto L = static_cast<std::size_t>(scores.cols());
  std::vector<std::int64_t> truePositive(L, 0), falsePositive(L, 0), falseNegative(L, 0);
  LabelPredictionScores out;
  std::int64_t hits = 0;
  for (std::size_t d = 0; d < truth.size(); ++d) {
    if (truth[d].empty()) continue;
    ++out.count;
    const auto row = scores.row(static_cast<Eigen::Index>(d));
    Eigen::Index best = 0;
    row.maxCoeff(&best);
    const auto isTrue = [&](std::size_t l) {
      return std::binary_search(truth[d].begin(), truth[d].end(), static_cast<std::int32_t>(l));
    };
    if (isTrue(static_cast<std::size_t>(best))) ++hits;
    for (std::size_t l = 0; l < L; ++l) {
      const bool predicted = row[static_cast<Eigen::Index>(l)] >= 0.5 || static_cast<Eigen::Index>(l) == best;
      const bool actual = isTrue(l);
      truePositive[l] += predicted && actual;
      falsePositive[l] += predicted && !actual;
      falseNegative[l] += !predicted && actual;
    }
  }
  if (out.count == 0) return out;
  double f1Sum = 0.0;
  std::int64_t labelsSeen = 0, tp = 0, fp = 0, fn = 0;
  for (std::size_t l = 0; l < L; ++l) {
    tp += truePositive[l];
    fp += falsePositive[l];
    fn += falseNegative[l];
    const auto denominator = 2 * truePositive[l] + falsePositive[l] + falseNegative[l];
    if (denominator == 0) continue;  // neither true nor predicted anywhere
    ++labelsSeen;
    f1Sum += 2.0 * static_cast<double>(truePositive[l]) / static_cast<double>(denominator);
  }
  out.macroF1 = labelsSeen > 0 ? f1Sum / static_cast<double>(labelsSeen) : 0.0;
  out.microF1 = 2 * tp + fp + fn > 0 ? 2.0 * static_cast<double>(tp) / static_cast<double>(2 * tp + fp + fn) : 0.0;
  out.precisionAt1 = static_cast<double>(hits) / static_cast<double>(out.count);
  return out;
}

void addLabelPredictionScores(nlohmann::json& metrics, const LabelPredictionScores& scores,
                              std::string_view baselineName) {
  const auto key = [&](const std::string& name) {
    return baselineName.empty() ? "heldout_" + name : "baseline_" + name + "_" + std::string(baselineName);
  };
  metrics[key("macro_f1")] = scores.macroF1;
  metrics[key("micro_f1")] = scores.microF1;
  metrics[key("precision_at_1")] = scores.precisionAt1;
  if (baselineName.empty()) metrics["heldout_responses"] = scores.count;
}

Eigen::MatrixXd labelFrequencyScores(const std::vector<std::vector<std::int32_t>>& trainingTruth, int labels,
                                     std::size_t documents) {
  Eigen::RowVectorXd frequency = Eigen::RowVectorXd::Zero(labels);
  for (const auto& set : trainingTruth)
    for (const auto l : set) frequency[l] += 1.0;
  if (!trainingTruth.empty()) frequency /= static_cast<double>(trainingTruth.size());
  return frequency.replicate(static_cast<Eigen::Index>(documents), 1);
}

}  // namespace latent::core::llda
