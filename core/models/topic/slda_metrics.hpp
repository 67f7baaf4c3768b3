// SPDX-License-Identifier: GPL-3.0-or-later
// Stand-in scores of sLDA's response predictions, under the keys of the shared response metrics
// (core/eval/response_metrics.hpp on the `responses` branch; DESIGN §6): to be replaced by
// scoreNumeric / scoreClasses / addScores once that module is on this branch.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <Eigen/Core>
#include <nlohmann/json.hpp>

namespace latent::core::topic {

// heldout_response_rmse, heldout_response_mae, heldout_response_r2 (1 - SSE / SS around the truth's
// mean), heldout_responses; documents whose truth is NaN are skipped.
void addSldaNumericScores(nlohmann::json& metrics, const Eigen::Ref<const Eigen::VectorXd>& predicted,
                          std::span<const double> truth);

// heldout_accuracy, heldout_macro_f1, heldout_log_loss, heldout_responses; probabilities D x C,
// truth codes (-1 skipped).
void addSldaClassScores(nlohmann::json& metrics, const Eigen::MatrixXd& probabilities,
                        std::span<const std::int32_t> truth);

}  // namespace latent::core::topic
