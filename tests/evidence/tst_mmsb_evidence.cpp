// SPDX-License-Identifier: GPL-3.0-or-later
// MMSB evidence (issue 4): planted memberships recovered on generated mixed-membership graphs;
// Sampson's monks (T4 liking, directed) with K = 3: the three factions in three blocks for every
// seed and the waverers more mixed; sampled non-edges keep link probabilities on the graph's scale.
#include <QtTest>

#include <cmath>
#include <cstdio>
#include <map>

#include "core/data/synthetic_graph.hpp"
#include "core/eval/dyad_split.hpp"
#include "core/eval/link_metrics.hpp"
#include "core/eval/topic_matching.hpp"
#include "core/io/graph_import.hpp"
#include "core/models/fit_data.hpp"
#include "core/models/network/block_model_results.hpp"
#include "core/models/network/block_model_support.hpp"
#include "core/models/network/mmsb.hpp"
#include "quiet_observer.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;

namespace {

core::FitResult fitMmsb(const core::Graph& graph, const nlohmann::json& options, std::uint64_t seed,
                        double heldout = 0.0) {
  const core::PreparedData prepared(graph, heldout, seed);
  const core::FitData& data = prepared.data();
  core::FitSettings settings;
  settings.options = core::resolveOptions(core::mmsbModel().info(), options);
  settings.seed = seed;
  test::QuietObserver quiet;
  return core::mmsbModel().make()->fit(data, settings, quiet, {});
}

Eigen::MatrixXd matrix(const core::FitResult& r, const char* name) {
  for (const auto& m : r.matrices)
    if (m.name == name) return m.values;
  return {};
}

// The sample as the app imports it: the T4 liking nominations, directed (resources/samples/sampson).
core::Graph sampson() {
  core::GraphReadOptions options;
  options.format = core::GraphFormat::EdgeList;
  options.nodes = test::sample("sampson/nodes.csv");
  options.directed = true;
  return core::readGraph(test::sample("sampson/like_t4.csv"), options, {});
}

double entropy(const Eigen::RowVectorXd& p) {
  double h = 0.0;
  for (Eigen::Index k = 0; k < p.size(); ++k)
    if (p[k] > 0) h -= p[k] * std::log(p[k]);
  return h;
}

}  // namespace

class MmsbEvidenceTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void plantedMembershipsRecovered_data() {
    QTest::addColumn<int>("nodes");
    QTest::addColumn<bool>("directed");
    QTest::addColumn<int>("seed");
    QTest::addColumn<double>("mixedBound");
    // Undirected graphs give each node half as many dyads (N - 1 instead of 2(N - 1)), so its
    // mixed memberships are estimated from half the draws.
    QTest::newRow("directed N150") << 150 << true << 1 << 0.2;
    QTest::newRow("undirected N120") << 120 << false << 2 << 0.3;
  }

  void plantedMembershipsRecovered() {
    QFETCH(int, nodes);
    QFETCH(bool, directed);
    QFETCH(int, seed);
    QFETCH(double, mixedBound);
    // theta_i ~ Dir(0.1) over K = 3 blocks: most nodes lean on one block, about a fifth are
    // clearly mixed. Dense inside blocks (0.6), sparse across (0.03).
    Eigen::MatrixXd B = Eigen::MatrixXd::Constant(3, 3, 0.03);
    B.diagonal().setConstant(0.6);
    const auto planted = core::generateMmsbGraph(nodes, B, 0.1, directed, static_cast<std::uint64_t>(seed));
    const auto r = fitMmsb(planted.graph, {{"k", 3}}, static_cast<std::uint64_t>(seed));
    QCOMPARE(r.finalMetrics["non_edges"].get<std::string>(), std::string("exact"));
    const auto theta = matrix(r, core::kMemberships);
    QCOMPARE(theta.rows(), Eigen::Index(nodes));
    // Blocks aligned by the Hungarian method on shared membership.
    const auto assign = core::minimumCostAssignment(-(theta.transpose() * planted.memberships));
    double error = 0.0, mixedError = 0.0, mixedModalError = 0.0;
    int mixed = 0;
    for (int v = 0; v < nodes; ++v) {
      double e = 0.0, modal = 0.0;
      Eigen::Index top = 0;
      theta.row(v).maxCoeff(&top);
      for (int k = 0; k < 3; ++k) {
        const double truth = planted.memberships(v, assign[static_cast<std::size_t>(k)]);
        e += std::abs(theta(v, k) - truth);
        modal += std::abs((k == top ? 1.0 : 0.0) - truth);
      }
      error += e;
      if (planted.memberships.row(v).maxCoeff() < 0.8) {
        ++mixed;
        mixedError += e;
        mixedModalError += modal;
      }
    }
    error /= nodes;
    mixedError /= mixed;
    mixedModalError /= mixed;
    std::printf("  mean L1 %.3f; %d mixed nodes (max theta < 0.8): L1 %.3f, their modal block alone %.3f\n", error,
                mixed, mixedError, mixedModalError);
    QVERIFY2(mixed >= nodes / 8, "the planted graph should have mixed nodes to recover");
    QVERIFY2(error < 0.15, qPrintable(QString("mean L1 error of theta %1").arg(error)));
    // The mixed nodes themselves are recovered as mixed, far better than by their modal block.
    QVERIFY2(mixedError < mixedBound, qPrintable(QString("L1 on mixed nodes %1").arg(mixedError)));
    QVERIFY(mixedError < 0.5 * mixedModalError);
  }

  void sampsonFactionsAndWaverers() {
    // Defaults (K = 3 asked for): over seeds 1-800 all three conditions held in 799 runs; in the
    // other (seed 315) the chain wandered from a good start into a split that merges two
    // factions. Seeds 1-10 are asserted here.
    const auto graph = sampson();
    QCOMPARE(graph.nodeCount(), std::size_t(18));
    QCOMPARE(graph.edgeCount(), std::size_t(56));
    QVERIFY(graph.directed);
    const auto& group = graph.attributes[*graph.attributeIndex("group")];
    for (std::uint64_t seed = 1; seed <= 10; ++seed) {
      const auto r = fitMmsb(graph, {{"k", 3}}, seed);  // every other option at its default
      const auto theta = matrix(r, core::kMemberships);
      // Each faction's block: the majority of its members' modal blocks.
      std::map<std::string, std::map<int, int>> votes;
      for (std::size_t v = 0; v < 18; ++v) {
        Eigen::Index top = 0;
        theta.row(static_cast<Eigen::Index>(v)).maxCoeff(&top);
        ++votes[group[v]][static_cast<int>(top)];
      }
      const auto majority = [&](const std::string& g) {
        int best = -1, count = 0;
        for (const auto& [block, n] : votes[g])
          if (n > count) best = block, count = n;
        return best;
      };
      const int youngTurks = majority("Young Turks"), loyal = majority("Loyal Opposition"),
                outcasts = majority("Outcasts");
      double waverers = 0.0, members = 0.0, lowestTop = 1.0;
      int w = 0, m = 0;
      for (std::size_t v = 0; v < 18; ++v) {
        const Eigen::RowVectorXd row = theta.row(static_cast<Eigen::Index>(v));
        if (group[v] == "Waverers") {
          waverers += entropy(row);
          lowestTop = std::min(lowestTop, row.maxCoeff());
          ++w;
        } else {
          members += entropy(row);
          ++m;
        }
      }
      QCOMPARE(w, 3);  // Victor, Romauld, Amand (README: group "Waverers")
      waverers /= w;
      members /= m;
      std::printf(
          "  seed %d: blocks YT %d LO %d OC %d; entropy waverers %.2f, faction members %.2f; least-committed waverer "
          "%.2f\n",
          int(seed), youngTurks, loyal, outcasts, waverers, members, lowestTop);
      QVERIFY2(youngTurks != loyal && loyal != outcasts && youngTurks != outcasts,
               qPrintable(QString("seed %1").arg(seed)));
      QVERIFY2(waverers > members, qPrintable(QString("seed %1").arg(seed)));
      QVERIFY2(lowestTop <= 0.7, qPrintable(QString("seed %1: every waverer above 0.7").arg(seed)));
    }
  }

  void sampledNonEdgesKeepTheScale() {
    // 1000 nodes, 4 blocks, mean degree 20, 10 times denser inside blocks; 10% of pairs held
    // out. Non-edges sampled (auto would be exact here): each drawn one stands for about 50.
    // Default options but 200 sweeps (over seeds 1-10 all recovered the blocks, NMI 1).
    const auto planted = core::generateAssortativeSbm(1000, 4, 20.0, 10.0, true, 7);
    const auto r = fitMmsb(planted.graph, {{"k", 4}, {"non_edges", "sampled"}, {"iterations", 200}}, 7, 0.1);
    const auto& m = r.finalMetrics;
    QCOMPARE(m["non_edges"].get<std::string>(), std::string("sampled"));
    QVERIFY(m["non_edge_weight"].get<double>() > 30.0);
    QVERIFY2(m["nmi"].get<double>() >= 0.95, qPrintable(QString::fromStdString(m.dump())));
    // The expected number of links under the fit, sum over training pairs of P(i -> j), matches
    // the training edges: without the weight w it would be about w times too many.
    const core::LinkPredictor predictor(r.matrices);
    const Eigen::MatrixXd theta = matrix(r, core::kMemberships), B = matrix(r, core::kBlockMatrix);
    const Eigen::VectorXd total = theta.colwise().sum().transpose();
    double expected = total.dot(B * total);
    for (Eigen::Index i = 0; i < theta.rows(); ++i) expected -= theta.row(i).dot(B * theta.row(i).transpose());
    const double edges = static_cast<double>(planted.graph.edgeCount());
    std::printf("  expected links %.0f, edges %.0f\n", expected, edges);
    QVERIFY(std::abs(expected / edges - 1.0) < 0.05);
    // Held-out link perplexity within 1% of the planted model's own on the same pairs.
    const auto split = core::splitDyads(planted.graph, 0.1, 7);
    const auto truth = core::scoreHeldoutLinks(split.heldout, [&](std::int32_t i, std::int32_t j) {
      return planted.blockMatrix(planted.blocks[static_cast<std::size_t>(i)],
                                 planted.blocks[static_cast<std::size_t>(j)]);
    });
    const double perplexity = m[core::network::kHeldoutLinkKey].get<double>();
    std::printf("  held-out link perplexity %.5f, planted model %.5f; %.3f s per sweep\n", perplexity, truth.perplexity,
                m["seconds_per_sweep"].get<double>());
    QVERIFY(perplexity < truth.perplexity * 1.01);
  }
};

LATENT_TEST_CASE(MmsbEvidenceTest)
#include "tst_mmsb_evidence.moc"
