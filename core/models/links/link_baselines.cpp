// SPDX-License-Identifier: GPL-3.0-or-later
// LDA-by-cosine and MMSB-on-links baselines for link prediction, fitted through the registry.
#include "core/models/links/link_baselines.hpp"

#include <algorithm>
#include <string>

#include "core/results/block_results.hpp"
#include "core/results/topic_results.hpp"

namespace latent::core {
namespace {

// Baselines report nothing to the run's curves; they only stop when the run is stopped.
class QuietObserver final : public TrainingObserver {
 public:
  explicit QuietObserver(std::stop_token stop) : m_stop(std::move(stop)) {}
  bool onReport(const IterationReport&) override { return !m_stop.stop_requested(); }

 private:
  std::stop_token m_stop;
};

FitResult fitRegistered(const std::string& name, const FitData& data, const nlohmann::json& options,
                        const LinkBaselineSettings& settings, std::stop_token stop) {
  auto model = createModel(name);
  FitSettings fit;
  fit.options = resolveOptions(model->info(), options);
  fit.seed = settings.seed;
  fit.threads = settings.threads;
  fit.evalEvery = 0;  // held-out words are not what the baseline is for
  QuietObserver observer(stop);
  return model->fit(data, fit, observer, stop);
}

bool usable(const FitResult& r) { return r.status == FitStatus::Converged || r.status == FitStatus::MaxIterations; }

// The training links as an undirected graph over the training documents, with the hidden pairs
// held out (missing data to MMSB, as for any block model with --heldout).
struct LinkGraph {
  Graph graph;
  DyadSplit dyads;
};

LinkGraph linkGraph(const LinkSplit& split) {
  LinkGraph g;
  const auto n = split.trainDocuments;
  g.graph.directed = false;
  for (std::int32_t d = 0; d < n; ++d) {
    g.graph.nodeIds.push_back(std::to_string(d));
    g.graph.nodeNames.push_back(std::to_string(d));
  }
  for (std::int32_t a = 0; a < n; ++a)
    for (const auto b : split.neighbours[static_cast<std::size_t>(a)])
      if (a < b) g.graph.edges.push_back({a, b, 1.0});
  g.dyads.train = g.graph;
  g.dyads.directed = false;
  g.dyads.nodeCount = static_cast<std::uint64_t>(n);
  for (const auto& p : split.hidden) {
    g.dyads.heldout.push_back({p.a, p.b, p.linked});
    if (p.linked) ++g.dyads.heldoutEdges;
  }
  g.dyads.sortedKeys = split.hiddenKeys;  // both are min * n + max
  return g;
}

}  // namespace

double rowCosine(const Eigen::MatrixXd& a, Eigen::Index i, const Eigen::MatrixXd& b, Eigen::Index j) {
  const double norms = a.row(i).norm() * b.row(j).norm();
  return norms > 0.0 ? a.row(i).dot(b.row(j)) / norms : 0.0;
}

LinkBaselineScores fitLinkBaselines(const FitData& data, const LinkBaselineSettings& settings, std::stop_token stop) {
  LinkBaselineScores out;
  if (!data.links || !data.corpus) return out;
  const LinkSplit& split = *data.links;
  const auto trainRow = [&](std::int32_t t) -> Eigen::Index {
    return data.trainDocuments.empty() ? t
                                       : static_cast<Eigen::Index>(data.trainDocuments[static_cast<std::size_t>(t)]);
  };

  const FitResult lda =
      fitRegistered("lda-gibbs", data, {{"k", settings.topics}, {"iterations", settings.iterations}, {"restarts", 0}},
                    settings, stop);
  if (usable(lda)) {
    if (const auto* theta = findMatrix(lda.matrices, topic::kDocTopic)) {
      out.ldaHidden = scoreHiddenLinks(
          split, [&](std::int32_t a, std::int32_t b) { return rowCosine(*theta, trainRow(a), *theta, trainRow(b)); });
      if (data.heldout && !data.heldout->empty() && theta->rows() == data.fullDocumentCount) {
        const auto& heldoutRows = data.heldout->documents;
        out.ldaNew = scoreNewDocumentLinks(
            split, static_cast<std::int32_t>(heldoutRows.size()), [&](std::int32_t h, std::int32_t t) {
              return rowCosine(*theta, heldoutRows[static_cast<std::size_t>(h)], *theta, trainRow(t));
            });
      }
    }
  }
  if (!settings.blockModel || stop.stop_requested() || split.trainDocuments < 2) return out;

  const LinkGraph links = linkGraph(split);
  FitData graphData;
  graphData.graph = &links.graph;
  graphData.dyads = &links.dyads;
  const FitResult mmsb =
      fitRegistered("mmsb", graphData, {{"k", settings.topics}, {"iterations", settings.iterations}, {"restarts", 1}},
                    settings, stop);
  if (usable(mmsb)) {
    const auto* theta = findMatrix(mmsb.matrices, kMemberships);
    const auto* blocks = findMatrix(mmsb.matrices, kBlockMatrix);
    if (theta && blocks) {
      const Eigen::MatrixXd thetaB = *theta * *blocks;
      out.mmsbHidden =
          scoreHiddenLinks(split, [&](std::int32_t a, std::int32_t b) { return thetaB.row(a).dot(theta->row(b)); });
    }
  }
  return out;
}

void addLinkBaselineMetrics(nlohmann::json& metrics, const LinkBaselineScores& baselines) {
  if (baselines.ldaHidden)
    addLinkBaselineMetrics(metrics, "lda_cosine", *baselines.ldaHidden,
                           baselines.ldaNew ? &*baselines.ldaNew : nullptr);
  if (baselines.mmsbHidden) addLinkBaselineMetrics(metrics, "mmsb", *baselines.mmsbHidden, nullptr);
}

}  // namespace latent::core
