// SPDX-License-Identifier: GPL-3.0-or-later
// Held-out dyads and ratings, link scores, partition agreement and the planted-graph generators,
// checked against hand-computed values and scikit-learn's figures for the same inputs.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <set>

#include "core/data/synthetic_graph.hpp"
#include "core/eval/dyad_split.hpp"
#include "core/eval/link_metrics.hpp"
#include "core/eval/rating_split.hpp"
#include "core/models/network/block_model_results.hpp"
#include "core/models/network/block_model_support.hpp"
#include "core/models/ratings/factor_model_results.hpp"
#include "test_case.hpp"

using namespace latent;

namespace {

core::Graph ring(int n, bool directed) {
  core::Graph g;
  g.directed = directed;
  for (int v = 0; v < n; ++v) {
    g.nodeIds.push_back(std::to_string(v));
    g.nodeNames.push_back(g.nodeIds.back());
  }
  for (int v = 0; v + 1 < n; ++v) g.edges.push_back({v, v + 1, 1.0});
  return g;
}

}  // namespace

class GraphRatingsEvaluationTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void aucCountsTiesAsHalf() {
    // sklearn.metrics.roc_auc_score([1,0,1,0,1], [0.9,0.1,0.4,0.4,0.35]) = 0.75
    const double scores[] = {0.9, 0.1, 0.4, 0.4, 0.35};
    const std::uint8_t positive[] = {1, 0, 1, 0, 1};
    QCOMPARE(core::rocAuc(scores, positive), 0.75);
    const std::uint8_t none[] = {0, 0, 0, 0, 0};
    QCOMPARE(core::rocAuc(scores, none), 0.5);
  }

  void partitionAgreementMatchesScikitLearn() {
    const int a[] = {0, 0, 1, 1, 2, 2};
    const int b[] = {0, 0, 1, 2, 2, 2};
    // adjusted_rand_score = 0.4444..., normalized_mutual_info_score(geometric) = 0.74029994...
    QVERIFY(std::abs(core::adjustedRandIndex(a, b) - 0.4444444444444444) < 1e-12);
    QVERIFY(std::abs(core::normalizedMutualInformation(a, b) - 0.7402999407999732) < 1e-12);
    const int renamed[] = {5, 5, 3, 3, 9, 9};
    QCOMPARE(core::normalizedMutualInformation(a, renamed), 1.0);
    QCOMPARE(core::adjustedRandIndex(a, renamed), 1.0);
    // Unlabelled items (-1) are left out of both.
    const int partial[] = {0, 0, 1, 1, -1, -1};
    const int other[] = {1, 1, 0, 0, 0, 1};
    QCOMPARE(core::normalizedMutualInformation(partial, other), 1.0);
  }

  void linkPerplexityIsTheGeometricMeanOfPairProbabilities() {
    const std::vector<core::HeldoutDyad> pairs = {{0, 1, true}, {0, 2, false}, {1, 2, false}, {2, 3, true}};
    // p = 0.5 everywhere: every pair has probability 1/2, perplexity exactly 2.
    auto half = core::scoreHeldoutLinks(pairs, [](std::int32_t, std::int32_t) { return 0.5; });
    QVERIFY(std::abs(half.perplexity - 2.0) < 1e-12);
    QCOMPARE(half.auc, 0.5);
    // A perfect ranking: edges at 0.8, non-edges at 0.2: log-lik = 4 log 0.8, AUC 1.
    auto good = core::scoreHeldoutLinks(
        pairs, [](std::int32_t i, std::int32_t j) { return (i == 0 && j == 1) || (i == 2 && j == 3) ? 0.8 : 0.2; });
    QVERIFY(std::abs(good.logLikelihood - 4 * std::log(0.8)) < 1e-12);
    QVERIFY(std::abs(good.perplexity - 1.25) < 1e-12);
    QCOMPARE(good.auc, 1.0);
  }

  void dyadSplitHoldsOutEdgesAndNonEdgesAtTheFraction() {
    const auto planted = core::generateAssortativeSbm(300, 3, 10.0, 8.0, false, 5);
    const auto& g = planted.graph;
    const auto split = core::splitDyads(g, 0.2, 11);
    const double pairs = 300.0 * 299.0 / 2.0;
    const auto E = static_cast<std::int64_t>(g.edges.size());
    QCOMPARE(split.heldoutEdges, std::llround(0.2 * double(E)));
    QCOMPARE(static_cast<std::int64_t>(split.heldout.size()),
             split.heldoutEdges + std::llround(0.2 * (pairs - double(E))));
    QCOMPARE(static_cast<std::int64_t>(split.train.edges.size()), E - split.heldoutEdges);
    // Every held-out pair is recognised in either order, held-out edges are gone from training,
    // and non-edges really are non-edges.
    std::set<std::pair<int, int>> edges;
    for (const auto& e : g.edges) edges.insert({e.source, e.target});
    std::set<std::pair<int, int>> train;
    for (const auto& e : split.train.edges) train.insert({e.source, e.target});
    std::set<std::pair<int, int>> seen;
    for (const auto& d : split.heldout) {
      QVERIFY(d.source < d.target);
      QVERIFY(split.isHeldout(d.source, d.target) && split.isHeldout(d.target, d.source));
      QCOMPARE(edges.count({d.source, d.target}) == 1, d.edge);
      QVERIFY(!train.count({d.source, d.target}));
      QVERIFY(seen.insert({d.source, d.target}).second);  // no pair twice
    }
    QVERIFY(!split.isHeldout(split.train.edges[0].source, split.train.edges[0].target));
    // Same seed, same split; another seed, another one.
    const auto again = core::splitDyads(g, 0.2, 11);
    QVERIFY(again.sortedKeys == split.sortedKeys);
    QVERIFY(core::splitDyads(g, 0.2, 12).sortedKeys != split.sortedKeys);
  }

  void directedSplitKeepsDirection() {
    const auto g = ring(30, true);
    const auto split = core::splitDyads(g, 0.5, 3);
    // Ordered pairs: (i, j) held out says nothing about (j, i).
    std::set<std::pair<int, int>> held;
    for (const auto& d : split.heldout) held.insert({d.source, d.target});
    for (int i = 0; i < 30; ++i)
      for (int j = 0; j < 30; ++j)
        if (i != j) QCOMPARE(split.isHeldout(i, j), held.count({i, j}) == 1);
    QVERIFY(std::any_of(split.heldout.begin(), split.heldout.end(), [&](const auto& d) {
      return !held.count({d.target, d.source});
    }));
    QVERIFY(core::splitDyads(g, 0.0, 3).heldout.empty());
    QVERIFY_THROWS_EXCEPTION(std::exception, core::splitDyads(g, 1.0, 3));
  }

  void plantedSbmHasTheRequestedDensity() {
    Eigen::MatrixXd B(2, 2);
    B << 0.3, 0.02, 0.02, 0.1;
    const auto planted = core::generateSbmGraph({200, 300}, B, false, 9);
    double within0 = 0, within1 = 0, across = 0;
    for (const auto& e : planted.graph.edges) {
      QVERIFY(e.source < e.target);
      const int a = planted.blocks[e.source], b = planted.blocks[e.target];
      (a != b ? across : a == 0 ? within0 : within1) += 1;
    }
    // Expected counts with a 5-sigma allowance for binomial noise.
    const auto near = [](double got, double pairs, double p) {
      return std::abs(got - pairs * p) < 5 * std::sqrt(pairs * p * (1 - p));
    };
    QVERIFY(near(within0, 200.0 * 199 / 2, 0.3));
    QVERIFY(near(within1, 300.0 * 299 / 2, 0.1));
    QVERIFY(near(across, 200.0 * 300, 0.02));
    QVERIFY(std::is_sorted(planted.graph.edges.begin(), planted.graph.edges.end(), [](const auto& x, const auto& y) {
      return x.source != y.source ? x.source < y.source : x.target < y.target;
    }));
  }

  void linkPredictorCombinesMembershipsAndBlocks() {
    Eigen::MatrixXd m(2, 2), B(2, 2);
    m << 1, 0, 0.5, 0.5;
    B << 0.8, 0.1, 0.1, 0.4;
    std::vector<core::NamedMatrix> stored = {{core::kMemberships, m}, {core::kBlockMatrix, B}};
    const core::LinkPredictor p(stored);
    QVERIFY(std::abs(p.probability(0, 1) - (0.5 * 0.8 + 0.5 * 0.1)) < 1e-12);
    QVERIFY(std::abs(p.probability(1, 1) - (0.25 * (0.8 + 0.1 + 0.1 + 0.4))) < 1e-12);
    stored.push_back({core::kLinkScale, Eigen::MatrixXd::Constant(1, 1, 0.5)});
    QVERIFY(std::abs(core::LinkPredictor(stored).probability(0, 1) - 0.225) < 1e-12);
    QVERIFY_THROWS_EXCEPTION(std::exception, core::LinkPredictor({{core::kMemberships, m}}));
  }

  void snapshotAlignmentUndoesALabelSwap() {
    Eigen::MatrixXd previous(4, 3);
    previous << 1, 0, 0, 0, 1, 0, 0, 0, 1, 0.5, 0.5, 0;
    std::vector<int> swap = {2, 0, 1};
    const Eigen::MatrixXd shuffled = core::network::relabelColumns(previous, swap);
    const auto relabel = core::network::alignBlocks(previous, shuffled);
    QVERIFY((core::network::relabelColumns(shuffled, relabel) - previous).norm() < 1e-12);
    const auto order = core::network::nodeOrderByBlock(previous, core::network::modalBlocks(previous));
    QCOMPARE(order(0, 0), 0.0);  // node 0 (sure of block 0) before node 3 (split between 0 and 1)
    QCOMPARE(order(1, 0), 3.0);
  }

  void ratingSplitNeverStrandsAUserOrItem() {
    core::Ratings r;
    for (int u = 0; u < 50; ++u) r.userIds.push_back("u" + std::to_string(u));
    for (int i = 0; i < 20; ++i) r.itemIds.push_back("i" + std::to_string(i));
    for (int u = 0; u < 50; ++u)
      for (int i = 0; i < 20; ++i)
        if ((u * 7 + i * 3) % 5 != 0 || u == 49) r.ratings.push_back({u, i, double((u + i) % 5 + 1), 0});
    r.ratings.push_back({0, 0, 3.0, 0});  // user 0 / item 0 already present: fine for the split
    const auto split = core::splitRatings(r, 0.3, 4);
    QCOMPARE(split.train.size() + split.test.size(), r.ratings.size());
    QCOMPARE(static_cast<double>(split.test.size()), std::round(0.3 * double(r.ratings.size())));
    std::vector<int> userTrain(50, 0), itemTrain(20, 0);
    for (const auto& x : split.train) ++userTrain[x.user], ++itemTrain[x.item];
    for (const auto& x : split.test) QVERIFY(userTrain[x.user] > 0 && itemTrain[x.item] > 0);
    QVERIFY(core::splitRatings(r, 0.3, 4).test == split.test);
    const std::vector<double> predictions(split.test.size(), 3.0);
    double sum = 0;
    for (const auto& x : split.test) sum += (x.value - 3.0) * (x.value - 3.0);
    QVERIFY(std::abs(core::rootMeanSquaredError(split.test, predictions) - std::sqrt(sum / double(split.test.size()))) <
            1e-12);
  }
};

LATENT_TEST_CASE(GraphRatingsEvaluationTest)
#include "tst_graph_ratings_evaluation.moc"
