// SPDX-License-Identifier: GPL-3.0-or-later
// Held-out evaluation of models of categorical responses (survey answers): each held-out
// respondent's answers are split as documents are (core/eval/heldout.hpp); the model is fitted to
// the observed half and predicts the answer to each question of the other half. Reported per
// question and over all answers: the log loss (mean -log p of the answer given) and the accuracy
// (the most probable answer is the one given), beside the same for the training answers'
// frequencies, the baseline any model must beat.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/data/corpus.hpp"
#include "core/data/response_groups.hpp"
#include "core/eval/heldout.hpp"
#include "core/eval/topic_evaluation.hpp"

namespace latent::core {

struct ResponseScore {
  double logLoss = 0.0;
  double accuracy = 0.0;
  double baselineLogLoss = 0.0;
  double baselineAccuracy = 0.0;
  std::int64_t answers = 0;
};

struct ResponseScores {
  std::vector<std::string> questions;
  std::vector<ResponseScore> byQuestion;
  ResponseScore overall;
};

// `predictive` gives log probabilities that sum to one within each question's answers. The
// baseline predicts each question by its answers' frequencies among the training answers
// (plus one). Parallel over respondents; the result does not depend on the thread count.
ResponseScores scoreResponses(const HeldoutDocuments& heldout, const Corpus& train, const ResponseGroups& questions,
                              const LogPredictive& predictive, std::uint64_t seed);

// heldout_log_loss, heldout_accuracy, baseline_log_loss, baseline_accuracy, heldout_answers, and
// heldout_by_question: {question: {log_loss, accuracy, baseline_log_loss, baseline_accuracy, answers}}.
void addResponseScores(nlohmann::json& metrics, const ResponseScores& scores);

}  // namespace latent::core
