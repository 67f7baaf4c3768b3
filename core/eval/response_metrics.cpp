// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/eval/response_metrics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

namespace latent::core {
namespace {

// F1 from true positives, false positives and false negatives (0 when all three are 0).
double responseF1(double tp, double fp, double fn) {
  const double denominator = 2.0 * tp + fp + fn;
  return denominator > 0.0 ? 2.0 * tp / denominator : 0.0;
}

// The index of the largest entry of a row (the first of equals).
Eigen::Index responseArgmax(const Eigen::MatrixXd& m, Eigen::Index row) {
  Eigen::Index best = 0;
  for (Eigen::Index c = 1; c < m.cols(); ++c)
    if (m(row, c) > m(row, best)) best = c;
  return best;
}

// Mean of the per-column AUCs that are defined (NaN when none is).
double responseMacroAuc(const Eigen::MatrixXd& scores, const std::vector<Eigen::Index>& rows,
                        const std::vector<std::vector<bool>>& positives) {
  double sum = 0.0;
  int defined = 0;
  std::vector<double> column(rows.size());
  for (Eigen::Index c = 0; c < scores.cols(); ++c) {
    for (std::size_t i = 0; i < rows.size(); ++i) column[i] = scores(rows[i], c);
    const double auc = rocAuc(column, positives[static_cast<std::size_t>(c)]);
    if (std::isnan(auc)) continue;
    sum += auc;
    ++defined;
  }
  return defined > 0 ? sum / defined : std::numeric_limits<double>::quiet_NaN();
}

std::string responseKey(std::string_view key, std::string_view baselineName) {
  if (baselineName.empty()) return "heldout_" + std::string(key);
  return "baseline_" + std::string(key) + "_" + std::string(baselineName);
}

}  // namespace

NumericScores scoreNumeric(std::span<const double> predicted, std::span<const double> truth) {
  NumericScores s;
  double sse = 0.0, sae = 0.0, sum = 0.0;
  const std::size_t n = std::min(predicted.size(), truth.size());
  for (std::size_t d = 0; d < n; ++d) {
    if (std::isnan(truth[d])) continue;
    const double e = predicted[d] - truth[d];
    sse += e * e;
    sae += std::abs(e);
    sum += truth[d];
    ++s.count;
  }
  if (s.count == 0) return s;
  const double count = static_cast<double>(s.count);
  const double mean = sum / count;
  double sst = 0.0;
  for (std::size_t d = 0; d < n; ++d)
    if (!std::isnan(truth[d])) sst += (truth[d] - mean) * (truth[d] - mean);
  s.rmse = std::sqrt(sse / count);
  s.mae = sae / count;
  s.r2 = sst > 0.0 ? 1.0 - sse / sst : (sse == 0.0 ? 1.0 : 0.0);
  return s;
}

double rocAuc(std::span<const double> scores, const std::vector<bool>& positive) {
  const std::size_t n = std::min(scores.size(), positive.size());
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return scores[a] < scores[b]; });
  // Mann-Whitney: the sum of the positives' ranks, equal scores sharing their mean rank.
  double rankSum = 0.0, positives = 0.0;
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i;
    while (j < n && scores[order[j]] == scores[order[i]]) ++j;
    const double meanRank = 0.5 * static_cast<double>(i + 1 + j);  // ranks i+1 .. j
    for (std::size_t k = i; k < j; ++k)
      if (positive[order[k]]) {
        rankSum += meanRank;
        positives += 1.0;
      }
    i = j;
  }
  const double negatives = static_cast<double>(n) - positives;
  if (positives == 0.0 || negatives == 0.0) return std::numeric_limits<double>::quiet_NaN();
  return (rankSum - positives * (positives + 1.0) / 2.0) / (positives * negatives);
}

ClassScores scoreClasses(const Eigen::MatrixXd& probabilities, std::span<const std::int32_t> truth) {
  ClassScores s;
  const Eigen::Index classes = probabilities.cols();
  std::vector<Eigen::Index> rows;
  for (std::size_t d = 0; d < truth.size() && static_cast<Eigen::Index>(d) < probabilities.rows(); ++d)
    if (truth[d] >= 0 && truth[d] < classes) rows.push_back(static_cast<Eigen::Index>(d));
  s.count = static_cast<std::int64_t>(rows.size());
  if (rows.empty()) return s;

  std::vector<double> tp(static_cast<std::size_t>(classes), 0.0), fp(tp), fn(tp);
  std::vector<std::vector<bool>> positives(static_cast<std::size_t>(classes), std::vector<bool>(rows.size()));
  double correct = 0.0, logLoss = 0.0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Eigen::Index d = rows[i];
    const auto given = static_cast<std::size_t>(truth[static_cast<std::size_t>(d)]);
    const auto predicted = static_cast<std::size_t>(responseArgmax(probabilities, d));
    positives[given][i] = true;
    if (predicted == given) {
      correct += 1.0;
      tp[given] += 1.0;
    } else {
      fp[predicted] += 1.0;
      fn[given] += 1.0;
    }
    const double p = std::clamp(probabilities(d, static_cast<Eigen::Index>(given)), 1e-15, 1.0);
    logLoss -= std::log(p);
  }
  double f1Sum = 0.0;
  int f1Classes = 0;
  for (std::size_t c = 0; c < tp.size(); ++c) {
    if (tp[c] + fp[c] + fn[c] == 0.0) continue;  // neither given nor predicted
    f1Sum += responseF1(tp[c], fp[c], fn[c]);
    ++f1Classes;
  }
  const double n = static_cast<double>(rows.size());
  s.accuracy = correct / n;
  s.macroF1 = f1Classes > 0 ? f1Sum / f1Classes : 0.0;
  s.logLoss = logLoss / n;
  s.auc = responseMacroAuc(probabilities, rows, positives);
  return s;
}

LabelSetScores scoreLabelSets(const Eigen::MatrixXd& scores, const std::vector<std::vector<std::int32_t>>& truth) {
  LabelSetScores s;
  const Eigen::Index labels = scores.cols();
  std::vector<Eigen::Index> rows;
  for (std::size_t d = 0; d < truth.size() && static_cast<Eigen::Index>(d) < scores.rows(); ++d)
    if (!truth[d].empty()) rows.push_back(static_cast<Eigen::Index>(d));
  s.count = static_cast<std::int64_t>(rows.size());
  if (rows.empty() || labels == 0) return s;

  std::vector<double> tp(static_cast<std::size_t>(labels), 0.0), fp(tp), fn(tp);
  std::vector<std::vector<bool>> positives(static_cast<std::size_t>(labels), std::vector<bool>(rows.size()));
  std::vector<bool> predicted(static_cast<std::size_t>(labels));
  double topHits = 0.0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Eigen::Index d = rows[i];
    for (const auto l : truth[static_cast<std::size_t>(d)])
      if (l >= 0 && l < labels) positives[static_cast<std::size_t>(l)][i] = true;
    const auto top = static_cast<std::size_t>(responseArgmax(scores, d));
    bool any = false;
    for (Eigen::Index l = 0; l < labels; ++l) {
      predicted[static_cast<std::size_t>(l)] = scores(d, l) >= 0.5;
      any = any || predicted[static_cast<std::size_t>(l)];
    }
    if (!any) predicted[top] = true;
    if (positives[top][i]) topHits += 1.0;
    for (std::size_t l = 0; l < predicted.size(); ++l) {
      const bool given = positives[l][i];
      if (given && predicted[l]) tp[l] += 1.0;
      if (!given && predicted[l]) fp[l] += 1.0;
      if (given && !predicted[l]) fn[l] += 1.0;
    }
  }
  double f1Sum = 0.0, tpAll = 0.0, fpAll = 0.0, fnAll = 0.0;
  int f1Labels = 0;
  for (std::size_t l = 0; l < tp.size(); ++l) {
    tpAll += tp[l];
    fpAll += fp[l];
    fnAll += fn[l];
    if (tp[l] + fp[l] + fn[l] == 0.0) continue;
    f1Sum += responseF1(tp[l], fp[l], fn[l]);
    ++f1Labels;
  }
  s.macroF1 = f1Labels > 0 ? f1Sum / f1Labels : 0.0;
  s.microF1 = responseF1(tpAll, fpAll, fnAll);
  s.auc = responseMacroAuc(scores, rows, positives);
  s.precisionAt1 = topHits / static_cast<double>(rows.size());
  return s;
}

void addScores(nlohmann::json& metrics, const NumericScores& s, std::string_view baselineName) {
  metrics[responseKey("response_rmse", baselineName)] = s.rmse;
  metrics[responseKey("response_mae", baselineName)] = s.mae;
  metrics[responseKey("response_r2", baselineName)] = s.r2;
  if (baselineName.empty()) metrics["heldout_responses"] = s.count;
}

void addScores(nlohmann::json& metrics, const ClassScores& s, std::string_view baselineName) {
  metrics[responseKey("accuracy", baselineName)] = s.accuracy;
  metrics[responseKey("macro_f1", baselineName)] = s.macroF1;
  metrics[responseKey("log_loss", baselineName)] = s.logLoss;
  if (!std::isnan(s.auc)) metrics[responseKey("auc", baselineName)] = s.auc;
  if (baselineName.empty()) metrics["heldout_responses"] = s.count;
}

void addScores(nlohmann::json& metrics, const LabelSetScores& s, std::string_view baselineName) {
  metrics[responseKey("macro_f1", baselineName)] = s.macroF1;
  metrics[responseKey("micro_f1", baselineName)] = s.microF1;
  if (!std::isnan(s.auc)) metrics[responseKey("auc", baselineName)] = s.auc;
  metrics[responseKey("precision_at_1", baselineName)] = s.precisionAt1;
  if (baselineName.empty()) metrics["heldout_responses"] = s.count;
}

}  // namespace latent::core
