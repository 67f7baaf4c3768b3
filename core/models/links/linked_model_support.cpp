// SPDX-License-Identifier: GPL-3.0-or-later
// Options, link scores, predicted links and baselines of the linked-document models.
#include "core/models/links/linked_model_support.hpp"

#include <algorithm>

#include "core/models/links/link_baselines.hpp"
#include "core/util/clock.hpp"

namespace latent::core::links {

OptionSpec baselinesOption() {
  return booleanOption("baselines",
                       "Also fit LDA (topics compared by cosine) and MMSB (links alone) with the same K and score "
                       "them on the same held-out pairs, for comparison (costs two more fits).");
}

Eigen::MatrixXd heldoutRows(const Eigen::MatrixXd& fullDocTopic, const FitData& data) {
  if (!data.heldout || data.heldout->empty() || fullDocTopic.rows() != data.fullDocumentCount) return {};
  const auto& documents = data.heldout->documents;
  Eigen::MatrixXd rows(static_cast<Eigen::Index>(documents.size()), fullDocTopic.cols());
  for (std::size_t i = 0; i < documents.size(); ++i)
    rows.row(static_cast<Eigen::Index>(i)) = fullDocTopic.row(documents[i]);
  return rows;
}

void addLinkResults(FitResult& result, const FitData& data, const PairScore& trainPair, const PairScore& newPair) {
  if (!data.links) return;
  const LinkSplit& split = *data.links;
  const auto heldout = static_cast<std::int32_t>(data.heldout ? data.heldout->size() : 0);
  const LinkPredictionScores hidden = scoreHiddenLinks(split, trainPair);
  const LinkPredictionScores fresh = scoreNewDocumentLinks(split, heldout, newPair);
  addLinkMetrics(result.finalMetrics, hidden, fresh);
  result.matrices.push_back(predictedLinksMatrix(topPredictedLinks(split, trainPair), data.trainDocuments));
}

void addLinkBaselines(FitResult& result, const FitData& data, std::int64_t topics, std::int64_t iterations,
                      const FitSettings& settings, std::stop_token stop) {
  if (!data.links) return;
  const Stopwatch clock;
  LinkBaselineSettings baseline;
  baseline.topics = topics;
  baseline.iterations = std::min<std::int64_t>(iterations, 200);
  baseline.seed = settings.seed;
  baseline.threads = settings.threads;
  const LinkBaselineScores scores = fitLinkBaselines(data, baseline, stop);
  if (stop.stop_requested()) {
    result.status = FitStatus::Cancelled;
    return;
  }
  addLinkBaselineMetrics(result.finalMetrics, scores);
  result.finalMetrics["baseline_seconds"] = clock.seconds();
}

}  // namespace latent::core::links
