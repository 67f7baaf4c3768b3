// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/eval/response_evaluation.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <cmath>

namespace latent::core {
namespace {

// Sums over answers, per question, of one respondent or of all.
struct ResponseSums {
  std::vector<double> logLoss, correct, baselineLogLoss, baselineCorrect, answers;
  explicit ResponseSums(std::size_t questions)
      : logLoss(questions, 0.0),
        correct(questions, 0.0),
        baselineLogLoss(questions, 0.0),
        baselineCorrect(questions, 0.0),
        answers(questions, 0.0) {}
  void add(const ResponseSums& other) {
    for (std::size_t r = 0; r < answers.size(); ++r) {
      logLoss[r] += other.logLoss[r];
      correct[r] += other.correct[r];
      baselineLogLoss[r] += other.baselineLogLoss[r];
      baselineCorrect[r] += other.baselineCorrect[r];
      answers[r] += other.answers[r];
    }
  }
};

// The answer with the highest value among the question's answers (the first of equals).
std::int32_t mostProbable(const Eigen::VectorXd& logp, const std::vector<std::int32_t>& answers) {
  std::int32_t best = answers.front();
  for (const auto v : answers)
    if (logp[v] > logp[best]) best = v;
  return best;
}

ResponseScore scoreOf(const ResponseSums& sums, std::size_t r) {
  const double n = sums.answers[r];
  return {sums.logLoss[r] / n, sums.correct[r] / n, sums.baselineLogLoss[r] / n, sums.baselineCorrect[r] / n,
          static_cast<std::int64_t>(n)};
}

}  // namespace

ResponseScores scoreResponses(const HeldoutDocuments& heldout, const Corpus& train, const ResponseGroups& questions,
                              const LogPredictive& predictive, std::uint64_t seed) {
  const std::size_t R = questions.count();
  // The baseline: each question's answers by their training frequencies, plus one.
  Eigen::VectorXd frequency = Eigen::VectorXd::Ones(static_cast<Eigen::Index>(train.vocabularySize()));
  for (const auto v : train.tokens) frequency[v] += 1.0;
  Eigen::VectorXd baseline(frequency.size());
  for (std::size_t r = 0; r < R; ++r) {
    double total = 0.0;
    for (const auto v : questions.answersOfQuestion[r]) total += frequency[v];
    for (const auto v : questions.answersOfQuestion[r]) baseline[v] = std::log(frequency[v] / total);
  }

  std::vector<ResponseSums> perRespondent(heldout.size(), ResponseSums(R));
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, heldout.size(), 8), [&](const auto& range) {
    for (std::size_t d = range.begin(); d != range.end(); ++d) {
      const auto scored = heldout.scored.document(d);
      if (scored.empty()) continue;
      const Eigen::VectorXd logp =
          predictive(heldout.observed.document(d), seed ^ static_cast<std::uint64_t>(heldout.documents[d]));
      auto& sums = perRespondent[d];
      for (const auto v : scored) {
        const auto r = static_cast<std::size_t>(questions.questionOfWord[static_cast<std::size_t>(v)]);
        const auto& answers = questions.answersOfQuestion[r];
        sums.logLoss[r] -= logp[v];
        sums.correct[r] += mostProbable(logp, answers) == v ? 1.0 : 0.0;
        sums.baselineLogLoss[r] -= baseline[v];
        sums.baselineCorrect[r] += mostProbable(baseline, answers) == v ? 1.0 : 0.0;
        sums.answers[r] += 1.0;
      }
    }
  });
  ResponseSums total(R);
  for (const auto& sums : perRespondent) total.add(sums);

  ResponseScores out;
  ResponseSums all(1);
  for (std::size_t r = 0; r < R; ++r) {
    if (total.answers[r] == 0) continue;
    out.questions.push_back(questions.questions[r]);
    out.byQuestion.push_back(scoreOf(total, r));
    all.logLoss[0] += total.logLoss[r];
    all.correct[0] += total.correct[r];
    all.baselineLogLoss[0] += total.baselineLogLoss[r];
    all.baselineCorrect[0] += total.baselineCorrect[r];
    all.answers[0] += total.answers[r];
  }
  if (all.answers[0] > 0) out.overall = scoreOf(all, 0);
  return out;
}

void addResponseScores(nlohmann::json& metrics, const ResponseScores& scores) {
  if (scores.overall.answers == 0) return;
  metrics["heldout_log_loss"] = scores.overall.logLoss;
  metrics["heldout_accuracy"] = scores.overall.accuracy;
  metrics["baseline_log_loss"] = scores.overall.baselineLogLoss;
  metrics["baseline_accuracy"] = scores.overall.baselineAccuracy;
  metrics["heldout_answers"] = scores.overall.answers;
  nlohmann::json byQuestion = nlohmann::json::object();
  for (std::size_t i = 0; i < scores.questions.size(); ++i) {
    const auto& s = scores.byQuestion[i];
    byQuestion[scores.questions[i]] = {{"log_loss", s.logLoss},
                                       {"accuracy", s.accuracy},
                                       {"baseline_log_loss", s.baselineLogLoss},
                                       {"baseline_accuracy", s.baselineAccuracy},
                                       {"answers", s.answers}};
  }
  metrics["heldout_by_question"] = byQuestion;
}

}  // namespace latent::core
