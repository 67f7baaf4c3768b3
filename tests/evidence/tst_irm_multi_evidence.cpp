// SPDX-License-Identifier: GPL-3.0-or-later
// Evidence for the multi-relational IRM (issue 18): on Sampson's eight relations at T4 its shared
// partition agrees with Sampson's four groups (NMI, ARI) over several seeds, compared with the IRM
// on the like relation alone; group is never a feature.
#include <QtTest>

#include <algorithm>
#include <cstdio>

#include "core/eval/link_metrics.hpp"
#include "core/io/graph_import.hpp"
#include "core/models/fit_data.hpp"
#include "core/models/network/block_model_results.hpp"
#include "core/models/network/irm.hpp"
#include "core/models/network/mirm.hpp"
#include "quiet_observer.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;

namespace {

core::Graph sampsonAtT4() {
  core::GraphReadOptions options;
  options.nodes = test::sample("sampson/nodes.csv");
  options.directed = true;
  options.relationColumn = "relation";
  options.where = "wave=T4";
  return core::readGraph(test::sample("sampson/edges.csv"), options, core::ImportControl{});
}

struct MirmAgreement {
  double nmi = 0.0, ari = 0.0;
  int blocks = 0;
};

MirmAgreement mirmAgreement(const core::ModelDefinition& model, const core::Graph& graph, const nlohmann::json& options,
                            std::uint64_t seed) {
  const core::PreparedData prepared(graph, 0.0, seed);
  core::FitSettings settings;
  settings.options = core::resolveOptions(model.info(), options);
  settings.seed = seed;
  test::QuietObserver quiet;
  const auto result = model.make()->fit(prepared.data(), settings, quiet, {});
  return {result.finalMetrics["nmi"].get<double>(), result.finalMetrics["ari"].get<double>(),
          result.finalMetrics["blocks"].get<int>()};
}

double mirmMedian(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

struct MirmSummary {
  double nmi = 0.0, ari = 0.0, blocks = 0.0;
};

MirmSummary mirmOverSeeds(const char* label, const core::ModelDefinition& model, const core::Graph& graph,
                          const nlohmann::json& options) {
  std::vector<double> nmi, ari, blocks;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const auto a = mirmAgreement(model, graph, options, seed);
    nmi.push_back(a.nmi);
    ari.push_back(a.ari);
    blocks.push_back(a.blocks);
  }
  const MirmSummary s{mirmMedian(nmi), mirmMedian(ari), mirmMedian(blocks)};
  std::printf("%-34s median NMI %.3f  ARI %.3f  blocks %.1f  (NMI range %.3f-%.3f)\n", label, s.nmi, s.ari, s.blocks,
              *std::min_element(nmi.begin(), nmi.end()), *std::max_element(nmi.begin(), nmi.end()));
  return s;
}

}  // namespace

class IrmMultiEvidenceTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void sampsonRelationsAgainstGroups() {
    auto graph = sampsonAtT4();
    QCOMPARE(graph.relationCount(), std::size_t{8});
    const nlohmann::json sweeps = {{"iterations", 400}};
    auto all = sweeps, like = sweeps, withFeatures = sweeps;
    like["relations"] = "like";
    withFeatures["features"] = "cloisterville";
    const auto multi = mirmOverSeeds("irm-multi, 8 relations", core::irmMultiModel(), graph, all);
    const auto multiFeatures =
        mirmOverSeeds("irm-multi, 8 relations + cloisterville", core::irmMultiModel(), graph, withFeatures);
    const auto multiLike = mirmOverSeeds("irm-multi, like only", core::irmMultiModel(), graph, like);
    const auto irmLike = mirmOverSeeds("irm, like only", core::irmModel(), graph, sweeps);
    // The IRM of one relation and irm-multi restricted to it are the same model.
    QVERIFY(std::abs(multiLike.nmi - irmLike.nmi) < 0.1);
    // The eight relations together recover Sampson's groups better than liking alone.
    QVERIFY2(multi.nmi > irmLike.nmi + 0.05, qPrintable(QString("%1 vs %2").arg(multi.nmi).arg(irmLike.nmi)));
    QVERIFY2(multi.ari > irmLike.ari + 0.05, qPrintable(QString("%1 vs %2").arg(multi.ari).arg(irmLike.ari)));
    QVERIFY(multiFeatures.nmi > 0.5);
  }
};

LATENT_TEST_CASE(IrmMultiEvidenceTest)
#include "tst_irm_multi_evidence.moc"
