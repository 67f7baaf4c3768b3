// SPDX-License-Identifier: GPL-3.0-or-later
// The multi-relational IRM: its joint against a brute-force enumeration over every relation and the
// feature matrix (000 eq. 27.82 summed over relations), counts kept exact by its moves, a planted
// partition shared by three relations and planted feature clusters recovered, and its options.
#include <QtTest>

#include <tbb/task_arena.h>

#include <cmath>
#include <map>
#include <set>

#include "core/data/synthetic_multi_relational.hpp"
#include "core/eval/link_metrics.hpp"
#include "core/models/fit_data.hpp"
#include "core/models/model.hpp"
#include "core/models/network/block_model_results.hpp"
#include "core/models/network/mirm.hpp"
#include "core/models/network/mirm_input.hpp"
#include "core/models/network/mirm_sampler.hpp"
#include "core/util/errors.hpp"
#include "core/util/random.hpp"
#include "quiet_observer.hpp"
#include "result_matrix.hpp"
#include "test_case.hpp"

using namespace latent;

namespace {

double mirmTestLogBeta(double x, double y) { return std::lgamma(x) + std::lgamma(y) - std::lgamma(x + y); }

double mirmTestLogCrp(const std::vector<int>& labels, double alpha) {
  if (labels.empty()) return 0.0;
  std::map<int, int> sizes;
  for (const int l : labels) ++sizes[l];
  double sum = static_cast<double>(sizes.size()) * std::log(alpha) + std::lgamma(alpha) -
               std::lgamma(alpha + static_cast<double>(labels.size()));
  for (const auto& [label, size] : sizes) sum += std::lgamma(size);
  return sum;
}

// log p(relations, features, z, w) by enumerating every pair of every relation and every
// node-feature entry: written independently of the sampler.
double mirmBruteLogJoint(const core::Graph& g, const std::set<std::pair<int, int>>& heldout,
                         const core::network::MirmData& data, const std::vector<int>& z, const std::vector<int>& w,
                         const core::network::MirmPriors& priors) {
  const int n = static_cast<int>(g.nodeCount());
  double sum = mirmTestLogCrp(z, priors.concentration) + mirmTestLogCrp(w, priors.featureConcentration);
  const auto cellsLog = [&](const std::map<std::pair<int, int>, std::pair<int, int>>& cells) {
    double s = 0.0;
    for (const auto& [key, c] : cells)
      s += mirmTestLogBeta(priors.a + c.first, priors.b + c.second) - mirmTestLogBeta(priors.a, priors.b);
    return s;
  };
  for (std::size_t r = 0; r < g.relationCount(); ++r) {
    std::set<std::pair<int, int>> linked;
    for (const auto& e : g.relationEdges(r)) linked.insert({e.source, e.target});
    std::map<std::pair<int, int>, std::pair<int, int>> cells;
    for (int i = 0; i < n; ++i)
      for (int j = g.directed ? 0 : i + 1; j < n; ++j) {
        if (i == j) continue;
        if (r == 0 && (heldout.count({i, j}) || (!g.directed && heldout.count({j, i})))) continue;
        const auto key =
            g.directed ? std::make_pair(z[i], z[j]) : std::make_pair(std::min(z[i], z[j]), std::max(z[i], z[j]));
        (linked.count({i, j}) ? cells[key].first : cells[key].second) += 1;
      }
    sum += cellsLog(cells);
  }
  std::map<std::pair<int, int>, std::pair<int, int>> cells;
  for (int i = 0; i < n; ++i)
    for (int f = 0; f < data.features; ++f) {
      const auto value = data.feature(i, f);
      if (value < 0) continue;
      (value == 1 ? cells[{z[i], w[f]}].first : cells[{z[i], w[f]}].second) += 1;
    }
  return sum + cellsLog(cells);
}

// Two relations over 9 nodes, three features of which one has a missing value.
core::Graph mirmSmallGraph(bool directed, std::uint64_t seed) {
  core::Rng rng(seed);
  core::Graph g;
  g.directed = directed;
  for (int v = 0; v < 9; ++v) g.nodeIds.push_back("n" + std::to_string(v));
  g.nodeNames = g.nodeIds;
  g.relationNames = {"a", "b"};
  g.furtherRelations.resize(1);
  for (int r = 0; r < 2; ++r) {
    auto& edges = r == 0 ? g.edges : g.furtherRelations[0];
    for (int i = 0; i < 9; ++i)
      for (int j = directed ? 0 : i + 1; j < 9; ++j)
        if (i != j && rng.uniform() < (r == 0 ? 0.4 : 0.25)) edges.push_back({i, j, 1.0});
  }
  g.attributeNames = {"x", "colour"};
  g.attributes = {{"1", "0", "1", "1", "0", "", "1", "0", "0"},
                  {"red", "blue", "red", "green", "blue", "red", "green", "", "blue"}};
  return g;
}

std::vector<int> mirmBlocksOf(const core::FitResult& result) {
  const auto& b = test::resultMatrix(result, core::kBlocks);
  std::vector<int> out(static_cast<std::size_t>(b.rows()));
  for (Eigen::Index v = 0; v < b.rows(); ++v) out[static_cast<std::size_t>(v)] = static_cast<int>(b(v, 0));
  return out;
}

core::FitResult mirmFit(const core::Graph& graph, const nlohmann::json& options, std::uint64_t seed,
                        double heldout = 0.0) {
  const core::PreparedData prepared(graph, heldout, seed);
  core::FitSettings settings;
  settings.options = core::resolveOptions(core::irmMultiModel().info(), options);
  settings.seed = seed;
  test::QuietObserver observer;
  return core::irmMultiModel().make()->fit(prepared.data(), settings, observer, {});
}

// Counts the chain's reports and snapshots; asks to stop after `stopAfter` chain reports.
class MirmCounting final : public core::TrainingObserver {
 public:
  bool onReport(const core::IterationReport& r) override {
    if (!r.inChain()) return true;
    ++reports;
    objectives.push_back(r.trainObjective);
    return stopAfter <= 0 || reports < stopAfter;
  }
  void onSnapshot(std::shared_ptr<const core::ModelSnapshot> s) override { snapshots.push_back(std::move(s)); }
  int reports = 0;
  int stopAfter = 0;
  std::vector<double> objectives;
  std::vector<std::shared_ptr<const core::ModelSnapshot>> snapshots;
};

core::FitResult mirmFitObserved(const core::Graph& graph, const nlohmann::json& options, std::uint64_t seed,
                                core::TrainingObserver& observer, std::stop_token stop = {}) {
  const core::PreparedData prepared(graph, 0.1, seed);
  core::FitSettings settings;
  settings.options = core::resolveOptions(core::irmMultiModel().info(), options);
  settings.seed = seed;
  return core::irmMultiModel().make()->fit(prepared.data(), settings, observer, stop);
}

std::string mirmUsageError(const std::function<void()>& f) {
  try {
    f();
  } catch (const core::UsageError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

class IrmMultiTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void registeredInTheCatalogue() {
    const auto model = core::createModel("irm-multi");
    QCOMPARE(model->info().name, std::string("irm-multi"));
    QVERIFY(model->info().kind == core::DataKind::Graph);
  }

  void featuresFromAttributes() {
    const auto g = mirmSmallGraph(false, 1);
    const auto split = core::splitDyads(g, 0.0, 1);
    const auto input = core::network::buildMirmInput(g, split, "all", "x,colour");
    QCOMPARE(input.relationNames, (std::vector<std::string>{"a", "b"}));
    QCOMPARE(input.featureNames, (std::vector<std::string>{"x", "colour=red", "colour=blue", "colour=green"}));
    QCOMPARE(int(input.data.feature(0, 0)), 1);
    QCOMPARE(int(input.data.feature(5, 0)), -1);  // no value
    QCOMPARE(int(input.data.feature(3, 3)), 1);
    QCOMPARE(int(input.data.feature(3, 1)), 0);
    QCOMPARE(int(input.data.feature(7, 2)), -1);
    // Only the first relation is fitted when the list leaves it out.
    const auto first = core::network::buildMirmInput(g, split, "a", "");
    QCOMPARE(first.relationNames, (std::vector<std::string>{"a"}));
    QCOMPARE(first.data.features, 0);
  }

  void logJointMatchesEnumeration_data() {
    QTest::addColumn<bool>("directed");
    QTest::newRow("undirected") << false;
    QTest::newRow("directed") << true;
  }

  // After assignments, Gibbs sweeps and split-merge moves the sampler's joint equals the enumeration:
  // its counts stay exact, held-out pairs of the first relation left out.
  void logJointMatchesEnumeration() {
    QFETCH(bool, directed);
    const auto g = mirmSmallGraph(directed, directed ? 7 : 3);
    const auto split = core::splitDyads(g, 0.15, 5);
    QVERIFY(!split.heldout.empty());
    std::set<std::pair<int, int>> heldout;
    for (const auto& d : split.heldout) heldout.insert({d.source, d.target});
    const auto input = core::network::buildMirmInput(g, split, "all", "x,colour");
    const core::network::MirmPriors priors{0.7, 1.3, 0.5, 2.0};
    core::network::MirmSampler sampler(input.data, priors);
    core::Rng rng(9);
    const std::vector<int> z{0, 0, 1, 1, 2, 2, 0, 1, 2}, w{0, 1, 1, 0};
    sampler.assign(z, w);
    QVERIFY(std::abs(sampler.logJoint() - mirmBruteLogJoint(g, heldout, input.data, z, w, priors)) < 1e-9);
    for (int s = 0; s < 20; ++s) {
      QVERIFY(sampler.gibbsSweep(rng, {}));
      sampler.splitMerge(rng, 3, 2, {});
      const double brute = mirmBruteLogJoint(g, heldout, input.data, sampler.labels(), sampler.featureLabels(), priors);
      QVERIFY2(std::abs(sampler.logJoint() - brute) < 1e-9, qPrintable(QString::number(s)));
    }
  }

  // Each node's conditional (what a Gibbs move samples from) is the joint, enumerated by brute force
  // for every place the node could go, normalised: the moves' likelihood gains are exact.
  void conditionalMatchesEnumeration() {
    QFETCH(bool, directed);
    const auto g = mirmSmallGraph(directed, directed ? 11 : 13);
    const auto split = core::splitDyads(g, 0.15, 6);
    std::set<std::pair<int, int>> heldout;
    for (const auto& d : split.heldout) heldout.insert({d.source, d.target});
    const auto input = core::network::buildMirmInput(g, split, "all", "x,colour");
    const core::network::MirmPriors priors{0.8, 1.1, 0.7, 1.6};
    core::network::MirmSampler sampler(input.data, priors);
    const std::vector<int> z{0, 1, 1, 2, 0, 2, 1, 0, 3}, w{0, 1, 0, 1};
    for (std::int32_t i = 0; i < 9; ++i) {
      sampler.assign(z, w);
      const auto candidates = sampler.conditional(i);
      const auto labels = sampler.labels();
      std::vector<double> logJoint;
      for (const auto& c : candidates) {
        auto placed = labels;
        int member = -1;
        for (std::int32_t u = 0; u < 9 && c.block >= 0; ++u)
          if (u != i && sampler.blockOf(u) == c.block) member = u;
        placed[static_cast<std::size_t>(i)] = c.block >= 0 ? labels[static_cast<std::size_t>(member)] : 100;
        logJoint.push_back(mirmBruteLogJoint(g, heldout, input.data, placed, sampler.featureLabels(), priors));
      }
      const double top = *std::max_element(logJoint.begin(), logJoint.end());
      double total = 0.0;
      for (const double l : logJoint) total += std::exp(l - top);
      for (std::size_t c = 0; c < candidates.size(); ++c)
        QVERIFY2(std::abs(candidates[c].probability - std::exp(logJoint[c] - top) / total) < 1e-9,
                 qPrintable(QString("node %1, candidate %2").arg(i).arg(c)));
      // The state is as it was.
      QCOMPARE(sampler.labels(), labels);
    }
  }
  void conditionalMatchesEnumeration_data() { logJointMatchesEnumeration_data(); }

  // The same for each feature's cluster.
  void featureConditionalMatchesEnumeration() {
    const auto g = mirmSmallGraph(true, 17);
    const auto split = core::splitDyads(g, 0.0, 6);
    const auto input = core::network::buildMirmInput(g, split, "all", "x,colour");
    const core::network::MirmPriors priors{0.8, 0.6, 0.7, 1.6};
    core::network::MirmSampler sampler(input.data, priors);
    const std::vector<int> z{0, 1, 1, 2, 0, 2, 1, 0, 2}, w{0, 1, 0, 2};
    for (std::int32_t f = 0; f < input.data.features; ++f) {
      sampler.assign(z, w);
      const auto candidates = sampler.featureConditional(f);
      const auto labels = sampler.featureLabels();
      std::vector<double> logJoint;
      for (const auto& c : candidates) {
        auto placed = labels;
        int member = -1;
        for (std::int32_t u = 0; u < input.data.features && c.block >= 0; ++u)
          if (u != f && sampler.featureBlockOf(u) == c.block) member = u;
        placed[static_cast<std::size_t>(f)] = c.block >= 0 ? labels[static_cast<std::size_t>(member)] : 100;
        logJoint.push_back(mirmBruteLogJoint(g, {}, input.data, sampler.labels(), placed, priors));
      }
      const double top = *std::max_element(logJoint.begin(), logJoint.end());
      double total = 0.0;
      for (const double l : logJoint) total += std::exp(l - top);
      for (std::size_t c = 0; c < candidates.size(); ++c)
        QVERIFY2(std::abs(candidates[c].probability - std::exp(logJoint[c] - top) / total) < 1e-9,
                 qPrintable(QString("feature %1, candidate %2").arg(f).arg(c)));
      QCOMPARE(sampler.featureLabels(), labels);
    }
  }

  // A planted partition of 36 nodes into 3 blocks shared by 3 relations of different densities,
  // none of which separates all three blocks alone, and 12 features in 3 planted clusters: the
  // partition (ARI near 1), its number of blocks and the feature clusters come back.
  void recoversPlantedPartitionAndFeatures() {
    Eigen::MatrixXd B0 = Eigen::MatrixXd::Constant(3, 3, 0.05), B1 = B0, B2 = B0;
    B0(0, 0) = B0(1, 1) = 0.7;  // blocks 0 and 1 dense inside; block 2 looks like a mix of sparse nodes
    B1(2, 2) = 0.6;             // block 2 dense inside
    B1(0, 1) = B1(1, 0) = 0.5;  // blocks 0 and 1 linked across
    B2.setConstant(0.3);        // a uniform relation: no information
    Eigen::MatrixXd F(3, 3);
    F << 0.9, 0.1, 0.1,  //
        0.1, 0.9, 0.1,   //
        0.1, 0.1, 0.9;
    int perfect = 0;
    for (const std::uint64_t seed : {1u, 2u, 3u}) {
      const auto planted = core::generateMultiRelationalGraph({14, 12, 10}, {B0, B1, B2}, false, {4, 4, 4}, F, seed);
      std::string features;
      for (const auto& f : planted.features) features += (features.empty() ? "" : ",") + f;
      const auto result = mirmFit(planted.graph, {{"iterations", 60}, {"features", features}}, seed);
      const auto blocks = mirmBlocksOf(result);
      const double ari = core::adjustedRandIndex(blocks, planted.blocks);
      QVERIFY2(ari > 0.9, qPrintable(QString("seed %1: ARI %2").arg(seed).arg(ari)));
      QCOMPARE(result.finalMetrics["blocks"].get<int>(), 3);
      QCOMPARE(result.finalMetrics["relations"].size(), std::size_t{3});
      const auto& fb = test::resultMatrix(result, core::kFeatureBlocks);
      std::vector<int> featureBlocks;
      for (Eigen::Index f = 0; f < fb.rows(); ++f) featureBlocks.push_back(static_cast<int>(fb(f, 0)));
      QCOMPARE(core::adjustedRandIndex(featureBlocks, planted.featureBlocks), 1.0);
      QCOMPARE(result.finalMetrics["feature_blocks"].get<int>(), 3);
      // Every relation's block matrix is K x K, stacked.
      const auto& stacked = test::resultMatrix(result, core::kRelationBlockMatrices);
      QCOMPARE(stacked.rows(), Eigen::Index{9});
      QCOMPARE(stacked.cols(), Eigen::Index{3});
      QCOMPARE(test::resultMatrix(result, core::kFeatureBlockMatrix).rows(), Eigen::Index{3});
      if (ari == 1.0) ++perfect;
    }
    QVERIFY(perfect >= 2);
  }

  // The first relation alone cannot tell block 2 from the rest; with the others the model can.
  void moreRelationsFindWhatOneMisses() {
    Eigen::MatrixXd B0 = Eigen::MatrixXd::Constant(3, 3, 0.05), B1 = B0;
    B0(0, 0) = B0(1, 1) = B0(2, 2) = B0(1, 2) = B0(2, 1) = 0.6;  // blocks 1 and 2 alike in r0
    B1(2, 2) = 0.7;
    const auto planted = core::generateMultiRelationalGraph({12, 12, 12}, {B0, B1}, false, {}, {}, 4);
    const auto all = mirmFit(planted.graph, {{"iterations", 60}}, 4);
    const auto first = mirmFit(planted.graph, {{"iterations", 60}, {"relations", "r0"}}, 4);
    QCOMPARE(all.finalMetrics["blocks"].get<int>(), 3);
    QCOMPARE(first.finalMetrics["blocks"].get<int>(), 2);
    QVERIFY(core::adjustedRandIndex(mirmBlocksOf(all), planted.blocks) > 0.9);
  }

  void heldoutScoresOfTheFirstRelation() {
    Eigen::MatrixXd B = Eigen::MatrixXd::Constant(2, 2, 0.05);
    B.diagonal().setConstant(0.7);
    const auto planted = core::generateMultiRelationalGraph({15, 15}, {B, B}, true, {}, {}, 8);
    const auto result = mirmFit(planted.graph, {{"iterations", 30}}, 8, 0.1);
    const auto split = core::splitDyads(planted.graph, 0.1, 8);
    QCOMPARE(result.finalMetrics["heldout_pairs"].get<std::int64_t>(), static_cast<std::int64_t>(split.heldout.size()));
    QVERIFY(result.finalMetrics["heldout_auc"].get<double>() > 0.8);
    QCOMPARE(result.finalMetrics["label_attribute"].get<std::string>(), std::string("block"));
    QVERIFY(result.finalMetrics["nmi"].get<double>() > 0.9);
  }

  // The same seed gives the same chain and results whatever the number of threads (the restarts
  // run in parallel, each on its own stream); snapshots carry every relation's block matrix.
  void sameSeedSameResultAndSnapshots() {
    Eigen::MatrixXd B = Eigen::MatrixXd::Constant(2, 2, 0.05);
    B.diagonal().setConstant(0.6);
    const auto planted =
        core::generateMultiRelationalGraph({10, 10}, {B, B}, true, {2}, Eigen::MatrixXd::Constant(2, 1, 0.5), 3);
    std::vector<core::FitResult> results;
    std::vector<std::vector<double>> objectives;
    for (const int threads : {1, 2, 1}) {
      tbb::task_arena arena(threads);
      MirmCounting observer;
      arena.execute([&] {
        results.push_back(mirmFitObserved(
            planted.graph, {{"iterations", 20}, {"snapshot_every", 5}, {"features", "f0,f1"}}, 5, observer));
      });
      objectives.push_back(observer.objectives);
      QCOMPARE(observer.snapshots.size(), std::size_t{4});
      const auto& last = observer.snapshots.back()->matrices;
      QCOMPARE(last.size(), std::size_t{3});
      QCOMPARE(last[2].name, std::string(core::kRelationBlockMatrices));
      QCOMPARE(last[2].values.rows(), 2 * last[0].values.cols());
    }
    for (std::size_t run = 1; run < results.size(); ++run) {
      QCOMPARE(objectives[run], objectives[0]);
      QCOMPARE(results[run].finalMetrics.dump(), results[0].finalMetrics.dump());
      for (std::size_t m = 0; m < results[0].matrices.size(); ++m)
        QCOMPARE(results[run].matrices[m].values, results[0].matrices[m].values);
    }
  }

  void stopsWhenAsked() {
    Eigen::MatrixXd B = Eigen::MatrixXd::Constant(2, 2, 0.1);
    const auto planted = core::generateMultiRelationalGraph({10, 10}, {B, B}, false, {}, {}, 2);
    {
      std::stop_source stop;
      stop.request_stop();
      MirmCounting observer;
      const auto result = mirmFitObserved(planted.graph, nlohmann::json::object(), 1, observer, stop.get_token());
      QVERIFY(result.status == core::FitStatus::Cancelled);
      QCOMPARE(observer.reports, 0);
    }
    MirmCounting observer;
    observer.stopAfter = 3;
    const auto result = mirmFitObserved(planted.graph, nlohmann::json::object(), 1, observer);
    QVERIFY(result.status == core::FitStatus::Cancelled);
    QCOMPARE(result.iterations, std::int64_t{3});
    // A stopped run still has its results.
    QCOMPARE(test::resultMatrix(result, core::kBlocks).rows(), Eigen::Index{20});
  }

  void rejectsBadOptions() {
    const auto g = mirmSmallGraph(false, 1);
    QVERIFY(mirmUsageError([&] {
              mirmFit(g, {{"relations", "a,nope"}}, 1);
            }).find("no relation 'nope'") != std::string::npos);
    QVERIFY(mirmUsageError([&] {
              mirmFit(g, {{"features", "size"}}, 1);
            }).find("no attribute 'size'") != std::string::npos);
    auto labelled = g;
    labelled.attributeNames.push_back("group");
    labelled.attributes.push_back(std::vector<std::string>(9, "g"));
    QVERIFY(mirmUsageError([&] {
              mirmFit(labelled, {{"features", "x,group"}}, 1);
            }).find("scored against") != std::string::npos);
  }
};

LATENT_TEST_CASE(IrmMultiTest)
#include "tst_irm_multi.moc"
