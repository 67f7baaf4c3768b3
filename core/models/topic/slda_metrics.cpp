// SPDX-License-Identifier: GPL-3.0-or-later
// Stand-in response scores for sLDA (see the header).
#include "core/models/topic/slda_metrics.hpp"

#include <algorithm>
#include <cmath>

namespace latent::core::topic {

void addSldaNumericScores(nlohmann::json& metrics, const Eigen::Ref<const Eigen::VectorXd>& predicted,
                          std::span<const double> truth) {
  double sse = 0.0, sae = 0.0, sum = 0.0, squares = 0.0, count = 0.0;
  for (std::size_t d = 0; d < truth.size(); ++d) {
    if (std::isnan(truth[d])) continue;
    const double e = predicted[static_cast<Eigen::Index>(d)] - truth[d];
    sse += e * e;
    sae += std::abs(e);
    sum += truth[d];
    squares += truth[d] * truth[d];
    count += 1.0;
  }
  if (count <= 0.0) return;
  const double spread = squares - sum * sum / count;
  metrics["heldout_response_rmse"] = std::sqrt(sse / count);
  metrics["heldout_response_mae"] = sae / count;
  metrics["heldout_response_r2"] = spread > 0.0 ? 1.0 - sse / spread : 0.0;
  metrics["heldout_responses"] = static_cast<std::int64_t>(count);
}

void addSldaClassScores(nlohmann::json& metrics, const Eigen::MatrixXd& probabilities,
                        std::span<const std::int32_t> truth) {
  const auto C = probabilities.cols();
  std::vector<double> truePositive(static_cast<std::size_t>(C), 0.0), predictedCount(truePositive),
      actualCount(truePositive);
  double correct = 0.0, logLoss = 0.0, count = 0.0;
  for (std::size_t d = 0; d < truth.size(); ++d) {
    const auto y = truth[d];
    if (y < 0 || y >= C) continue;
    Eigen::Index best = 0;
    probabilities.row(static_cast<Eigen::Index>(d)).maxCoeff(&best);
    correct += best == y ? 1.0 : 0.0;
    logLoss -= std::log(std::max(1e-15, probabilities(static_cast<Eigen::Index>(d), y)));
    truePositive[static_cast<std::size_t>(y)] += best == y ? 1.0 : 0.0;
    predictedCount[static_cast<std::size_t>(best)] += 1.0;
    actualCount[static_cast<std::size_t>(y)] += 1.0;
    count += 1.0;
  }
  if (count <= 0.0) return;
  // Macro F1 over the classes that occur in the truth or the predictions.
  double f1 = 0.0, classes = 0.0;
  for (std::size_t c = 0; c < truePositive.size(); ++c) {
    if (actualCount[c] + predictedCount[c] <= 0.0) continue;
    f1 += 2.0 * truePositive[c] / (actualCount[c] + predictedCount[c]);
    classes += 1.0;
  }
  metrics["heldout_accuracy"] = correct / count;
  metrics["heldout_macro_f1"] = classes > 0.0 ? f1 / classes : 0.0;
  metrics["heldout_log_loss"] = logLoss / count;
  metrics["heldout_responses"] = static_cast<std::int64_t>(count);
}

}  // namespace latent::core::topic
