// SPDX-License-Identifier: GPL-3.0-or-later
// The SBM sampler against a brute-force enumeration of the joint on tiny graphs, and the model's
// contract: options, shapes, reports, snapshots, determinism, cancel, held-out pairs as missing.
#include <QtTest>

#include <tbb/task_arena.h>

#include <chrono>
#include <cmath>
#include <numeric>
#include <thread>

#include "core/data/synthetic_graph.hpp"
#include "core/models/fit_data.hpp"
#include "core/models/network/block_model_results.hpp"
#include "core/models/network/sbm.hpp"
#include "core/models/network/sbm_sampler.hpp"
#include "core/models/network/sbm_search.hpp"
#include "core/util/errors.hpp"
#include "test_case.hpp"

using namespace latent;
using core::network::SbmGraph;
using core::network::SbmPriors;
using core::network::SbmSampler;

namespace {

class SbmObserver final : public core::TrainingObserver {
 public:
  // The chain's reports in `reports`; the progress of the starts (FitPhase::Restarts) apart.
  bool onReport(const core::IterationReport& r) override {
    if (!r.inChain()) {
      startReports.push_back(r);
      return true;
    }
    reports.push_back(r);
    return stopAfter == 0 || r.iteration < stopAfter;
  }
  void onSnapshot(std::shared_ptr<const core::ModelSnapshot> s) override { snapshots.push_back(std::move(s)); }
  std::vector<core::IterationReport> reports;
  std::vector<core::IterationReport> startReports;
  std::vector<std::shared_ptr<const core::ModelSnapshot>> snapshots;
  std::int64_t stopAfter = 0;
};

// Six nodes, two triangles-ish joined by a bridge; directed variant with some reciprocated links.
core::Graph tinyGraph(bool directed) {
  core::Graph g;
  g.directed = directed;
  for (int i = 0; i < 6; ++i) {
    g.nodeIds.push_back("n" + std::to_string(i));
    g.nodeNames.push_back(g.nodeIds.back());
  }
  const std::vector<std::pair<int, int>> undirected = {{0, 1}, {0, 2}, {1, 2}, {1, 4}, {2, 3}, {3, 4}, {3, 5}, {4, 5}};
  const std::vector<std::pair<int, int>> arcs = {{0, 1}, {0, 2}, {1, 4}, {2, 1}, {2, 3},
                                                 {3, 4}, {4, 3}, {4, 5}, {5, 3}};
  for (const auto& [s, t] : directed ? arcs : undirected) g.edges.push_back({s, t, 1.0});
  std::sort(g.edges.begin(), g.edges.end(), [](const core::Edge& a, const core::Edge& b) {
    return std::make_pair(a.source, a.target) < std::make_pair(b.source, b.target);
  });
  return g;
}

// Held out by hand: the edge 0-2 (0->2) and the non-edges 1-5 and 0-5 (1->5 and 5->0).
core::DyadSplit handSplit(const core::Graph& full, bool withHeldout) {
  core::DyadSplit split;
  split.directed = full.directed;
  split.nodeCount = full.nodeCount();
  split.train = full;
  if (!withHeldout) return split;
  split.heldout = {
      {0, 2, true}, {1, 5, false}, full.directed ? core::HeldoutDyad{5, 0, false} : core::HeldoutDyad{0, 5, false}};
  split.heldoutEdges = 1;
  std::erase_if(split.train.edges, [](const core::Edge& e) { return e.source == 0 && e.target == 2; });
  return split;
}

// log P(A, z) by enumerating every pair of nodes: an independent account of the sampler's
// block-pair algebra (sbm_sampler.hpp). Held-out pairs are skipped.
double bruteLogJoint(const core::Graph& train, const core::DyadSplit& split, const std::vector<std::int32_t>& z, int K,
                     const SbmPriors& p) {
  const int N = static_cast<int>(train.nodeCount());
  std::vector<std::vector<int>> A(N, std::vector<int>(N, 0)), H(N, std::vector<int>(N, 0));
  for (const auto& e : train.edges) {
    A[e.source][e.target] = 1;
    if (!train.directed) A[e.target][e.source] = 1;
  }
  for (const auto& d : split.heldout) {
    H[d.source][d.target] = 1;
    if (!train.directed) H[d.target][d.source] = 1;
  }
  std::vector<double> n(K, 0.0);
  for (const int k : z) n[k] += 1;
  double lp = std::lgamma(K * p.alpha) - std::lgamma(N + K * p.alpha);
  for (int k = 0; k < K; ++k) lp += std::lgamma(n[k] + p.alpha) - std::lgamma(p.alpha);

  std::vector<double> degree(N, 0.0), kappa(K, 0.0), theta(N, 0.0);
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) degree[i] += A[i][j] + (train.directed ? A[j][i] : 0);
  for (int i = 0; i < N; ++i) kappa[z[i]] += degree[i];
  for (int i = 0; i < N; ++i) theta[i] = kappa[z[i]] > 0 ? degree[i] / kappa[z[i]] : 0.0;

  std::vector<std::vector<double>> e(K, std::vector<double>(K, 0.0)), non(K, std::vector<double>(K, 0.0)),
      T(K, std::vector<double>(K, 0.0));
  for (int i = 0; i < N; ++i)
    for (int j = train.directed ? 0 : i + 1; j < N; ++j) {
      if (i == j || H[i][j]) continue;
      int k = z[i], l = z[j];
      if (!train.directed && k > l) std::swap(k, l);
      T[k][l] += theta[i] * theta[j];
      if (A[i][j]) {
        e[k][l] += 1;
        if (p.degreeCorrected) lp += std::log(theta[i] * theta[j]);
      } else {
        non[k][l] += 1;
      }
    }
  const auto lnB = [](double x, double y) { return std::lgamma(x) + std::lgamma(y) - std::lgamma(x + y); };
  for (int k = 0; k < K; ++k)
    for (int l = train.directed ? 0 : k; l < K; ++l) {
      if (p.degreeCorrected) {
        const double s = p.rateShape, r = p.rateRate;
        lp += std::lgamma(e[k][l] + s) - std::lgamma(s) + s * std::log(r) - (e[k][l] + s) * std::log(T[k][l] + r);
      } else {
        lp += lnB(e[k][l] + p.densityA, non[k][l] + p.densityB) - lnB(p.densityA, p.densityB);
      }
    }
  return lp;
}

std::vector<double> softmax(std::vector<double> v) {
  const double top = *std::max_element(v.begin(), v.end());
  double total = 0.0;
  for (auto& x : v) total += (x = std::exp(x - top));
  for (auto& x : v) x /= total;
  return v;
}

core::FitResult fitSbm(const core::Graph& graph, const nlohmann::json& options, SbmObserver& observer,
                       std::uint64_t seed = 1, double heldout = 0.0, std::stop_token stop = {}, int evalEvery = 10) {
  const core::PreparedData prepared(graph, heldout, seed);
  const core::FitData& data = prepared.data();
  core::FitSettings settings;
  settings.options = core::resolveOptions(core::sbmModel().info(), options);
  settings.seed = seed;
  settings.evalEvery = evalEvery;
  return core::sbmModel().make()->fit(data, settings, observer, stop);
}

const Eigen::MatrixXd& matrixOrEmpty(const core::FitResult& r, const std::string& name) {
  for (const auto& m : r.matrices)
    if (m.name == name) return m.values;
  static const Eigen::MatrixXd none;
  return none;
}

void expectUsageError(const nlohmann::json& options, const std::string& phrase) {
  try {
    core::resolveOptions(core::sbmModel().info(), options);
    QFAIL(("no error for " + options.dump()).c_str());
  } catch (const core::UsageError& e) {
    const std::string what = e.what();
    QVERIFY2(what.find(phrase) != std::string::npos, what.c_str());
    QVERIFY2(what.find("sbm") != std::string::npos, what.c_str());
  }
}

}  // namespace

class SbmTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void logGammaMatchesTheLibrary() {
    for (const double x : {1e-3, 0.3, 1.0, 2.5, 9.99, 10.0, 17.25, 123.4, 1e6, 3e9}) {
      const double want = std::lgamma(x);
      QVERIFY2(std::abs(core::network::sbmLogGamma(x) - want) <= 1e-12 * std::max(1.0, std::abs(want)),
               std::to_string(x).c_str());
    }
  }

  // Path 0 - 1 - 2, K = 2, alpha = a = b = 1, z = (0, 0, 1). Node 2 taken out leaves block 0 with
  // nodes 0, 1 and their edge (e = 1, m = 0), block 1 empty.
  //   block 0: (n_0 + alpha) B(1 + 1 + 1, 0 + 1 + 1) / B(2, 1) = 3 * (1/12) / (1/2) = 1/2
  //            (node 2 brings one edge, to 1, and one non-edge, to 0)
  //   block 1: (0 + alpha) B(1 + 1, 1 + 1) / B(1, 1) = 1 * (1/6) = 1/6  (pair (0, 1) gets 1 and 1)
  // so P(z_2 = 0) = 3/4 and P(z_2 = 1) = 1/4.
  void conditionalByHand() {
    core::Graph g;
    g.nodeIds = g.nodeNames = {"a", "b", "c"};
    g.edges = {{0, 1, 1.0}, {1, 2, 1.0}};
    const auto split = handSplit(g, false);
    const SbmGraph graph(split.train, split);
    SbmPriors priors;
    priors.alpha = 1.0;
    SbmSampler sampler(graph, 2, priors);
    const std::vector<std::int32_t> z = {0, 0, 1};
    sampler.assign(z);
    std::vector<double> w(2);
    sampler.conditional(2, w);
    const auto p = softmax(w);
    QVERIFY(std::abs(p[0] - 0.75) < 1e-12);
    QVERIFY(std::abs(p[1] - 0.25) < 1e-12);
    // The state is left as it was.
    QCOMPARE(sampler.blocks()[2], 1);
    QCOMPARE(sampler.edges(0, 1), std::int64_t{1});
    QCOMPARE(sampler.edges(0, 0), std::int64_t{1});
  }

  void conditionalMatchesEnumeration_data() {
    QTest::addColumn<bool>("directed");
    QTest::addColumn<bool>("degreeCorrected");
    QTest::addColumn<bool>("heldout");
    for (const bool directed : {false, true})
      for (const bool dc : {false, true})
        for (const bool held : {false, true})
          QTest::newRow(
              (std::string(directed ? "directed" : "undirected") + (dc ? " dc" : " plain") + (held ? " held-out" : ""))
                  .c_str())
              << directed << dc << held;
  }

  // For every node and block, P(z_i = k | rest) from the sampler equals the normalised joint
  // of an enumeration over all pairs; logPosterior and mergeDelta likewise.
  void conditionalMatchesEnumeration() {
    QFETCH(bool, directed);
    QFETCH(bool, degreeCorrected);
    QFETCH(bool, heldout);
    const auto full = tinyGraph(directed);
    const auto split = handSplit(full, heldout);
    const SbmGraph graph(split.train, split);
    SbmPriors priors;
    priors.alpha = 0.7;
    priors.densityA = 0.5;
    priors.densityB = 2.0;
    priors.degreeCorrected = degreeCorrected;
    const int K = 3;
    SbmSampler sampler(graph, K, priors);
    const std::vector<std::int32_t> z = {0, 0, 1, 2, 2, 1};
    sampler.assign(z);
    QVERIFY(std::abs(sampler.logPosterior() - bruteLogJoint(split.train, split, z, K, priors)) < 1e-9);
    for (std::int32_t i = 0; i < 6; ++i) {
      std::vector<double> w(K), brute(K);
      sampler.conditional(i, w);
      for (int k = 0; k < K; ++k) {
        auto zk = z;
        zk[static_cast<std::size_t>(i)] = k;
        brute[static_cast<std::size_t>(k)] = bruteLogJoint(split.train, split, zk, K, priors);
      }
      const auto p = softmax(w), q = softmax(brute);
      for (int k = 0; k < K; ++k)
        QVERIFY2(std::abs(p[static_cast<std::size_t>(k)] - q[static_cast<std::size_t>(k)]) < 1e-10,
                 ("node " + std::to_string(i) + " block " + std::to_string(k)).c_str());
    }
    const double here = bruteLogJoint(split.train, split, z, K, priors);
    for (int a = 0; a < K; ++a)
      for (int b = 0; b < K; ++b) {
        if (a == b) continue;
        auto merged = z;
        for (auto& x : merged)
          if (x == b) x = a;
        QVERIFY(std::abs(sampler.mergeDelta(a, b) - (bruteLogJoint(split.train, split, merged, K, priors) - here)) <
                1e-9);
      }
    // Moving nodes one by one keeps the counts what a rebuild gives.
    core::Rng rng(5);
    std::vector<std::int32_t> order = {3, 1, 5, 0, 2, 4};
    for (int s = 0; s < 5; ++s) sampler.sweep(order, 1.0, rng, {});
    const std::vector<std::int32_t> after(sampler.blocks().begin(), sampler.blocks().end());
    QVERIFY(std::abs(sampler.logPosterior() - bruteLogJoint(split.train, split, after, K, priors)) < 1e-9);
  }

  // Undirected, z = (0, 0, 0, 1, 1, 1), 0-2 and 1-5 and 0-5 held out. Block pair (0, 0): pairs
  // 01, 02, 12 minus the held-out 02 leaves 2 observed, both edges (01, 12); (0, 1): 9 pairs, 1-5
  // and 0-5 held out, 7 observed, edges 1-4 and 2-3; (1, 1): 3 pairs, all edges.
  void heldoutPairsAreMissing() {
    const auto full = tinyGraph(false);
    const auto split = handSplit(full, true);
    const SbmGraph graph(split.train, split);
    QCOMPARE(graph.edgeCount(), std::int64_t{7});
    QCOMPARE(graph.observedPairs(), 15.0 - 3.0);
    SbmSampler sampler(graph, 2, SbmPriors{});
    sampler.assign(std::vector<std::int32_t>{0, 0, 0, 1, 1, 1});
    QCOMPARE(sampler.edges(0, 0), std::int64_t{2});
    QCOMPARE(sampler.observedPairs(0, 0), 2.0);
    QCOMPARE(sampler.heldoutPairs(0, 1), std::int64_t{2});
    QCOMPARE(sampler.observedPairs(0, 1), 7.0);
    QCOMPARE(sampler.edges(0, 1), std::int64_t{2});
    QCOMPARE(sampler.edges(1, 1), std::int64_t{3});
    QCOMPARE(sampler.observedPairs(1, 1), 3.0);
    // Posterior mean density of (0, 0) with a = b = 1: (2 + 1) / (2 + 2); had 0-2 counted as a
    // non-edge it would be 3 / 5.
    QVERIFY(std::abs(sampler.densities()(0, 0) - 0.75) < 1e-12);

    // Through the model: the training edges and observed pairs leave the held-out ones out.
    const auto planted = core::generateAssortativeSbm(60, 2, 6, 8, false, 3);
    SbmObserver observer;
    const auto result = fitSbm(planted.graph, {{"k", 2}, {"iterations", 4}, {"restarts", 1}}, observer, 9, 0.2);
    const auto heldEdges = result.finalMetrics["heldout_edges"].get<std::int64_t>();
    const auto heldPairs = result.finalMetrics["heldout_pairs"].get<std::int64_t>();
    QCOMPARE(heldEdges, static_cast<std::int64_t>(std::llround(0.2 * static_cast<double>(planted.graph.edgeCount()))));
    QCOMPARE(result.finalMetrics["train_edges"].get<std::int64_t>(),
             static_cast<std::int64_t>(planted.graph.edgeCount()) - heldEdges);
    QCOMPARE(result.finalMetrics["observed_pairs"].get<double>(), 60.0 * 59.0 / 2.0 - static_cast<double>(heldPairs));
  }

  void mergeSplitRepairsAMergedBlock() {
    // Three planted groups; start with groups 0 and 1 in one block and group 2 split over two.
    const auto planted = core::generateAssortativeSbm(90, 3, 12, 20, false, 4);
    const auto split = handSplit(planted.graph, false);
    const SbmGraph graph(split.train, split);
    SbmSampler sampler(graph, 3, SbmPriors{});
    std::vector<std::int32_t> z(90);
    for (int i = 0; i < 90; ++i)
      z[static_cast<std::size_t>(i)] = planted.blocks[static_cast<std::size_t>(i)] < 2 ? 0 : 1 + (i % 2);
    sampler.assign(z);
    const double before = sampler.logPosterior();
    core::Rng rng(1);
    QVERIFY(core::network::tryMergeSplit(sampler, 20, rng, {}));
    QVERIFY(sampler.logPosterior() > before);
    const std::vector<int> found(sampler.blocks().begin(), sampler.blocks().end());
    // Up to renaming, the planted groups: every pair of nodes together exactly when planted so.
    for (int i = 0; i < 90; ++i)
      for (int j = i + 1; j < 90; ++j)
        QCOMPARE(found[static_cast<std::size_t>(i)] == found[static_cast<std::size_t>(j)],
                 planted.blocks[static_cast<std::size_t>(i)] == planted.blocks[static_cast<std::size_t>(j)]);
  }

  void optionsAreChecked() {
    expectUsageError({{"k", 0}}, "--k");
    expectUsageError({{"degree_corrected", "yes"}}, "must be true or false");
    expectUsageError({{"alpha", 0.0}}, "--alpha");
    expectUsageError({{"density_b", -1.0}}, "--density-b");
    expectUsageError({{"restarts", 0}}, "--restarts");
    expectUsageError({{"iterations", 2.5}}, "whole number");
    const auto defaults = core::resolveOptions(core::sbmModel().info(), nlohmann::json::object());
    QCOMPARE(defaults["k"].get<std::int64_t>(), std::int64_t{4});
    QCOMPARE(defaults["degree_corrected"].get<bool>(), false);
    QCOMPARE(defaults["alpha"].get<double>(), 5.0);
  }

  void resultShapesReportsAndSnapshots_data() {
    QTest::addColumn<bool>("directed");
    QTest::addColumn<bool>("degreeCorrected");
    QTest::newRow("undirected") << false << false;
    QTest::newRow("undirected dc") << false << true;
    QTest::newRow("directed") << true << false;
    QTest::newRow("directed dc") << true << true;
  }

  void resultShapesReportsAndSnapshots() {
    QFETCH(bool, directed);
    QFETCH(bool, degreeCorrected);
    const auto planted = core::generateAssortativeSbm(80, 3, 8, 10, directed, 2);
    SbmObserver observer;
    const auto result = fitSbm(
        planted.graph,
        {{"k", 3}, {"iterations", 20}, {"restarts", 2}, {"snapshot_every", 5}, {"degree_corrected", degreeCorrected}},
        observer, 3, 0.1, {}, 10);
    QVERIFY(result.status == core::FitStatus::MaxIterations);
    QCOMPARE(result.iterations, std::int64_t{20});
    const auto& memberships = matrixOrEmpty(result, core::kMemberships);
    QCOMPARE(memberships.rows(), Eigen::Index{80});
    QCOMPARE(memberships.cols(), Eigen::Index{3});
    for (Eigen::Index i = 0; i < 80; ++i) QVERIFY(std::abs(memberships.row(i).sum() - 1.0) < 1e-12);
    const auto& blocks = matrixOrEmpty(result, core::kBlocks);
    for (Eigen::Index i = 0; i < 80; ++i) {
      Eigen::Index best = 0;
      memberships.row(i).maxCoeff(&best);
      QCOMPARE(blocks(i, 0), static_cast<double>(best));
    }
    auto order = matrixOrEmpty(result, core::kNodeOrder);
    std::vector<double> sorted(order.data(), order.data() + order.size());
    std::sort(sorted.begin(), sorted.end());
    for (int i = 0; i < 80; ++i) QCOMPARE(sorted[static_cast<std::size_t>(i)], static_cast<double>(i));
    const auto& B = matrixOrEmpty(result, core::kBlockMatrix);
    QCOMPARE(B.rows(), Eigen::Index{3});
    QVERIFY((B.array() > 0).all() && (B.array() < 1).all());
    if (!directed) QVERIFY((B - B.transpose()).norm() < 1e-12);
    QCOMPARE(matrixOrEmpty(result, core::kDegreeFactor).rows(), degreeCorrected ? Eigen::Index{80} : Eigen::Index{0});
    QCOMPARE(matrixOrEmpty(result, core::kBlockRates).rows(), degreeCorrected ? Eigen::Index{3} : Eigen::Index{0});
    if (degreeCorrected) {
      // theta sums to 1 within each block of every sample, so over all nodes to the blocks used.
      QVERIFY(std::abs(matrixOrEmpty(result, core::kDegreeFactor).sum() - 3.0) < 1e-9);
    }
    // One report per sweep, held-out perplexity at 10 and 20, snapshots at 5, 10, 15, 20.
    QCOMPARE(observer.reports.size(), std::size_t{20});
    for (const auto& r : observer.reports) {
      QVERIFY(std::isfinite(r.trainObjective) && r.trainObjective < 0);
      QCOMPARE(r.heldout.has_value(), r.iteration % 10 == 0);
    }
    QCOMPARE(observer.snapshots.size(), std::size_t{4});
    for (const auto& s : observer.snapshots) {
      QCOMPARE(s->matrices.size(), std::size_t{2});
      QCOMPARE(s->matrices[0].name, std::string(core::kMemberships));
      QCOMPARE(s->matrices[1].name, std::string(core::kBlockMatrix));
    }
    const auto& m = result.finalMetrics;
    // One progress report per start, once the starts have run, with its log posterior; the
    // chosen start is the one with the highest.
    QCOMPARE(observer.startReports.size(), std::size_t{2});
    for (std::size_t s = 0; s < 2; ++s) {
      const auto& r = observer.startReports[s];
      QVERIFY(r.phase == core::FitPhase::Restarts);
      QCOMPARE(r.start, static_cast<std::int64_t>(s) + 1);
      QVERIFY(r.iteration > 0);
      QCOMPARE(r.trainObjective, m["start_log_posteriors"][s].get<double>());
    }
    const auto chosen = m["chosen_start"].get<std::size_t>();
    for (std::size_t s = 0; s < 2; ++s)
      QVERIFY(s < chosen
                  ? m["start_log_posteriors"][s].get<double>() < m["start_log_posteriors"][chosen].get<double>()
                  : m["start_log_posteriors"][s].get<double>() <= m["start_log_posteriors"][chosen].get<double>());
    QCOMPARE(m["train_objective"].get<double>(), observer.reports.back().trainObjective);
    QCOMPARE(m["heldout_link_perplexity"].get<double>(), *observer.reports.back().heldout);
    QVERIFY(m["heldout_auc"].get<double>() > 0.6);
    QVERIFY(m.contains("icl") && m.contains("nmi") && m.contains("ari"));
    QVERIFY(m["nmi"].get<double>() > 0.8);
    // The stored matrices predict links.
    const core::LinkPredictor predictor(result.matrices);
    const double p = predictor.probability(0, 1);
    QVERIFY(p > 0 && p < 1);
  }

  void sameSeedSameResultOnAnyThreadCount() {
    const auto planted = core::generateAssortativeSbm(120, 4, 8, 6, false, 8);
    const nlohmann::json options = {{"k", 4}, {"iterations", 30}, {"restarts", 3}, {"degree_corrected", true}};
    core::FitResult one, two, other;
    {
      tbb::task_arena arena(1);
      SbmObserver observer;
      arena.execute([&] { one = fitSbm(planted.graph, options, observer, 11, 0.1); });
    }
    {
      tbb::task_arena arena(2);
      SbmObserver observer;
      arena.execute([&] { two = fitSbm(planted.graph, options, observer, 11, 0.1); });
    }
    SbmObserver observer;
    other = fitSbm(planted.graph, options, observer, 12, 0.1);
    QCOMPARE(one.matrices.size(), two.matrices.size());
    for (std::size_t m = 0; m < one.matrices.size(); ++m) QVERIFY(one.matrices[m].values == two.matrices[m].values);
    QCOMPARE(one.finalMetrics["train_objective"].get<double>(), two.finalMetrics["train_objective"].get<double>());
    QVERIFY(one.finalMetrics["train_objective"].get<double>() != other.finalMetrics["train_objective"].get<double>());
  }

  void stopBeforeStartIsCancelled() {
    const auto planted = core::generateAssortativeSbm(50, 2, 6, 8, false, 1);
    SbmObserver observer;
    std::stop_source stop;
    stop.request_stop();
    const auto result = fitSbm(planted.graph, {{"k", 2}}, observer, 1, 0.0, stop.get_token());
    QVERIFY(result.status == core::FitStatus::Cancelled);
    QVERIFY(observer.reports.empty() && observer.startReports.empty());
    QVERIFY(result.matrices.empty());
  }

  void observerCanStopItWithTheStateReached() {
    const auto planted = core::generateAssortativeSbm(50, 2, 6, 8, false, 1);
    SbmObserver observer;
    observer.stopAfter = 3;
    const auto result = fitSbm(planted.graph, {{"k", 2}, {"iterations", 50}}, observer);
    QVERIFY(result.status == core::FitStatus::Cancelled);
    QCOMPARE(result.iterations, std::int64_t{3});
    QCOMPARE(observer.reports.size(), std::size_t{3});
    QCOMPARE(matrixOrEmpty(result, core::kMemberships).rows(), Eigen::Index{50});
  }

  // A stop request from another thread, in the middle of the starts of a larger graph, is
  // honoured promptly (the model checks every 256 nodes).
  void stopFromAnotherThreadIsPrompt() {
    const auto planted = core::generateAssortativeSbm(20000, 10, 20, 10, false, 5);
    SbmObserver observer;
    std::stop_source stop;
    std::chrono::steady_clock::time_point requested;
    std::thread stopper([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      requested = std::chrono::steady_clock::now();
      stop.request_stop();
    });
    const auto result = fitSbm(planted.graph, {{"k", 10}}, observer, 1, 0.0, stop.get_token());
    const auto finished = std::chrono::steady_clock::now();
    stopper.join();
    QVERIFY(result.status == core::FitStatus::Cancelled);
    const double latency = std::chrono::duration<double>(finished - requested).count();
    // 200 ms in the normal build; the bound leaves room for sanitiser builds.
    QVERIFY2(latency < 1.5, std::to_string(latency).c_str());
  }
};

LATENT_TEST_CASE(SbmTest)
#include "tst_sbm.moc"
