// SPDX-License-Identifier: GPL-3.0-or-later
// The IRM against hand computations and brute-force enumeration of its joint (000 eq. 27.82), and
// its contract: types, held-out pairs, results, snapshots, determinism and cancellation.
#include <QtTest>

#include <tbb/task_arena.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <map>
#include <set>
#include <thread>

#include "core/data/synthetic_graph.hpp"
#include "core/eval/link_metrics.hpp"
#include "core/models/fit_data.hpp"
#include "core/models/network/block_model_results.hpp"
#include "core/models/network/irm.hpp"
#include "core/models/network/irm_partitions.hpp"
#include "core/models/network/irm_relation.hpp"
#include "core/models/network/irm_sampler.hpp"
#include "core/util/clock.hpp"
#include "core/util/errors.hpp"
#include "core/util/random.hpp"
#include "test_case.hpp"

using namespace latent;
using core::network::IrmSampler;

namespace {

class Collecting final : public core::TrainingObserver {
 public:
  // The chain's reports in `reports`; the progress of the restarts (FitPhase::Restarts) apart.
  bool onReport(const core::IterationReport& r) override {
    if (!r.inChain()) {
      startReports.push_back(r);
      return true;
    }
    reports.push_back(r);
    return stopAfter <= 0 || static_cast<int>(reports.size()) < stopAfter;
  }
  void onSnapshot(std::shared_ptr<const core::ModelSnapshot> s) override { snapshots.push_back(std::move(s)); }
  std::vector<core::IterationReport> reports;
  std::vector<core::IterationReport> startReports;
  std::vector<std::shared_ptr<const core::ModelSnapshot>> snapshots;
  int stopAfter = 0;
};

core::Graph makeGraph(int nodes, bool directed, std::vector<core::Edge> edges) {
  core::Graph g;
  g.directed = directed;
  for (int v = 0; v < nodes; ++v) {
    g.nodeIds.push_back("v" + std::to_string(v));
    g.nodeNames.push_back("node " + std::to_string(v));
  }
  std::sort(edges.begin(), edges.end(), [](const auto& a, const auto& b) {
    return a.source != b.source ? a.source < b.source : a.target < b.target;
  });
  g.edges = std::move(edges);
  return g;
}

void setTypes(core::Graph& g, std::vector<std::string> types) {
  g.attributeNames.push_back("type");
  g.attributes.push_back(std::move(types));
}

// A random graph on n nodes; with `types`, only pairs of different types may link.
core::Graph randomGraph(int n, bool directed, double p, const std::vector<std::uint8_t>* types, std::uint64_t seed) {
  core::Rng rng(seed);
  std::vector<core::Edge> edges;
  for (int i = 0; i < n; ++i)
    for (int j = directed ? 0 : i + 1; j < n; ++j) {
      if (i == j || (types && (*types)[i] == (*types)[j])) continue;
      if (rng.uniform() < p) edges.push_back({i, j, 1.0});
    }
  return makeGraph(n, directed, edges);
}

double logBetaRef(double x, double y) { return std::lgamma(x) + std::lgamma(y) - std::lgamma(x + y); }

// log p(links, z) by plain enumeration of every pair: written independently of the sampler.
double bruteLogJoint(const core::Graph& g, const std::set<std::pair<int, int>>& heldout, const std::vector<int>& labels,
                     const std::vector<std::uint8_t>& types, bool twoTypes, double alpha, double a, double b) {
  const int n = static_cast<int>(g.nodeCount());
  std::set<std::pair<int, int>> linked;
  for (const auto& e : g.edges) linked.insert({e.source, e.target});
  double prior = 0.0;
  for (int t = 0; t < (twoTypes ? 2 : 1); ++t) {
    std::map<int, int> sizes;
    int total = 0;
    for (int v = 0; v < n; ++v)
      if (!twoTypes || types[v] == t) {
        ++sizes[labels[v]];
        ++total;
      }
    if (total == 0) continue;
    prior += static_cast<double>(sizes.size()) * std::log(alpha) + std::lgamma(alpha) - std::lgamma(alpha + total);
    for (const auto& [label, size] : sizes) prior += std::lgamma(size);
  }
  std::map<std::pair<int, int>, std::pair<int, int>> cells;  // (links, non-links)
  for (int i = 0; i < n; ++i)
    for (int j = g.directed ? 0 : i + 1; j < n; ++j) {
      if (i == j || (twoTypes && types[i] == types[j])) continue;
      if (heldout.count({i, j}) || (!g.directed && heldout.count({j, i}))) continue;
      const auto key = g.directed ? std::make_pair(labels[i], labels[j])
                                  : std::make_pair(std::min(labels[i], labels[j]), std::max(labels[i], labels[j]));
      const bool link = linked.count({i, j}) > 0;
      (link ? cells[key].first : cells[key].second) += 1;
    }
  double likelihood = 0.0;
  for (const auto& [key, c] : cells) likelihood += logBetaRef(a + c.first, b + c.second) - logBetaRef(a, b);
  return prior + likelihood;
}

const Eigen::MatrixXd& matrixOf(const std::vector<core::NamedMatrix>& matrices, const std::string& name) {
  for (const auto& m : matrices)
    if (m.name == name) return m.values;
  qFatal("no matrix %s", name.c_str());
}

core::FitResult fit(const core::Graph& graph, const nlohmann::json& options, std::uint64_t seed, Collecting& observer,
                    double heldout = 0.0, std::stop_token stop = {}) {
  const core::PreparedData prepared(graph, heldout, seed);
  const core::FitData& data = prepared.data();
  core::FitSettings settings;
  settings.options = core::resolveOptions(core::irmModel().info(), options);
  settings.seed = seed;
  settings.evalEvery = 5;
  return core::irmModel().make()->fit(data, settings, observer, stop);
}

std::string usageError(const std::function<void()>& f) {
  try {
    f();
  } catch (const core::UsageError& e) {
    return e.what();
  }
  return "no error";
}

// Three clear blocks of 10 nodes, undirected: dense inside, sparse across.
core::PlantedGraph threeBlocks(std::uint64_t seed, bool directed = false) {
  Eigen::MatrixXd B = Eigen::MatrixXd::Constant(3, 3, 0.05);
  B.diagonal().setConstant(0.8);
  return core::generateSbmGraph({10, 10, 10}, B, directed, seed);
}

}  // namespace

class IrmTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void registeredInTheCatalogue() {
    const auto model = core::createModel("irm");
    QCOMPARE(model->info().name, std::string("irm"));
    QVERIFY(model->info().kind == core::DataKind::Graph);
    const auto options = core::resolveOptions(core::irmModel().info(), nlohmann::json::object());
    QCOMPARE(options["concentration"].get<double>(), 1.0);
    QCOMPARE(options["types"].get<std::string>(), std::string("auto"));
    QVERIFY(!options.contains("k"));  // the number of blocks is inferred
    QVERIFY(usageError([] {
              core::resolveOptions(core::irmModel().info(), {{"concentration", 0}});
            }).find("--concentration") != std::string::npos);
    QVERIFY(usageError([] {
              core::resolveOptions(core::irmModel().info(), {{"types", "three"}});
            }).find("auto, one, two") != std::string::npos);
  }

  // Nodes 0, 1, 2 with one link 0-1; node 1 in block A, node 2 in block B, node 0 resampled.
  // With alpha = a = b = 1 (B(x, y) the Beta function):
  //   A:   prior 1; cell AA gains a link: B(2,1)/B(1,1) = 1/2; cell AB (1 non-link) gains one:
  //        B(1,3)/B(1,2) = 2/3; weight 1/3.
  //   B:   prior 1; cell AB gains a link: B(2,2)/B(1,2) = 1/3; cell BB gains a non-link: 1/2; weight 1/6.
  //   new: prior alpha = 1; a link with A: 1/2, a non-link with B: 1/2; weight 1/4.
  // Normalised: 4/9, 2/9, 3/9.
  void conditionalByHand() {
    const auto g = makeGraph(3, false, {{0, 1, 1.0}});
    const auto relation = core::network::buildIrmRelation(g, {}, core::network::detectIrmTypes(g, "one"));
    IrmSampler sampler(relation, {});
    sampler.assign(std::vector<int>{7, 3, 5});
    const auto candidates = sampler.conditional(0);
    QCOMPARE(candidates.size(), std::size_t{3});
    std::map<int, double> p;
    for (const auto& c : candidates) p[c.block] = c.probability;
    QVERIFY(std::abs(p[sampler.blockOf(1)] - 4.0 / 9.0) < 1e-12);
    QVERIFY(std::abs(p[sampler.blockOf(2)] - 2.0 / 9.0) < 1e-12);
    QVERIFY(std::abs(p[-1] - 3.0 / 9.0) < 1e-12);
    // The state is left as it was.
    QCOMPARE(sampler.blockCount(), 3);
    QCOMPARE(sampler.links(sampler.blockOf(0), sampler.blockOf(1)), std::int64_t{1});
    QCOMPARE(sampler.nonLinks(sampler.blockOf(1), sampler.blockOf(2)), std::int64_t{1});
  }

  void conditionalMatchesEnumeration_data() {
    QTest::addColumn<bool>("directed");
    QTest::addColumn<bool>("twoTypes");
    QTest::addColumn<bool>("withHeldout");
    for (const bool directed : {false, true})
      for (const bool two : {false, true})
        for (const bool held : {false, true})
          QTest::addRow("%s, %s types%s", directed ? "directed" : "undirected", two ? "two" : "one",
                        held ? ", held-out pairs" : "")
              << directed << two << held;
  }

  // P(z_i = k | z_-i) is p(links, z with z_i = k) normalised over k: checked against the joint
  // enumerated pair by pair, for every node, with priors away from 1.
  void conditionalMatchesEnumeration() {
    QFETCH(bool, directed);
    QFETCH(bool, twoTypes);
    QFETCH(bool, withHeldout);
    const int n = 11;
    std::vector<std::uint8_t> types(n, 0);
    for (int v = 0; v < n; ++v) types[v] = twoTypes && v % 3 == 0 ? 1 : 0;
    auto g = randomGraph(n, directed, 0.4, twoTypes ? &types : nullptr, 42);
    if (twoTypes) {
      std::vector<std::string> names;
      for (int v = 0; v < n; ++v) names.push_back(types[v] ? "event" : "person");
      setTypes(g, names);
    }
    // Held out: two edges and two non-edges (some within a type, which two types ignore).
    std::vector<core::HeldoutDyad> heldout;
    std::set<std::pair<int, int>> heldoutSet;
    core::Graph train = g;
    if (withHeldout) {
      for (int e : {0, 3}) {
        const auto edge = g.edges[static_cast<std::size_t>(e)];
        heldout.push_back({edge.source, edge.target, true});
        heldoutSet.insert({edge.source, edge.target});
      }
      train.edges.erase(train.edges.begin() + 3);
      train.edges.erase(train.edges.begin());
      std::set<std::pair<int, int>> linked;
      for (const auto& e : g.edges) linked.insert({e.source, e.target});
      int added = 0;
      for (int i = 0; i < n && added < 3; ++i)
        for (int j = i + 1; j < n && added < 3; ++j)
          if (!linked.count({i, j}) && !linked.count({j, i})) {
            heldout.push_back({i, j, false});
            heldoutSet.insert({i, j});
            ++added;
          }
    }
    const auto relation =
        core::network::buildIrmRelation(train, heldout, core::network::detectIrmTypes(g, twoTypes ? "two" : "one"));
    QCOMPARE(relation.twoTypes(), twoTypes);
    const core::network::IrmPriors priors{0.7, 1.5, 2.5};
    IrmSampler sampler(relation, priors);
    std::vector<int> labels(n);
    for (int v = 0; v < n; ++v) labels[v] = (types[v] ? 10 : 0) + v % 3;
    labels[5] = 20 + types[5] * 10;  // a singleton: its block disappears when the node leaves
    sampler.assign(labels);
    const double joint = bruteLogJoint(train, heldoutSet, labels, types, twoTypes, 0.7, 1.5, 2.5);
    QVERIFY2(std::abs(sampler.logJoint() - joint) < 1e-9,
             qPrintable(QString("%1 vs %2").arg(sampler.logJoint()).arg(joint)));

    for (int i = 0; i < n; ++i) {
      const auto candidates = sampler.conditional(i);
      std::vector<double> logWeights;
      for (const auto& c : candidates) {
        auto moved = labels;
        if (c.block < 0) {
          moved[i] = 1000;  // a label no other node has
        } else {
          int member = -1;
          for (int v = 0; v < n && member < 0; ++v)
            if (v != i && sampler.blockOf(v) == c.block) member = v;
          QVERIFY(member >= 0);
          QCOMPARE(types[member], types[i]);
          moved[i] = labels[member];
        }
        logWeights.push_back(bruteLogJoint(train, heldoutSet, moved, types, twoTypes, 0.7, 1.5, 2.5));
      }
      const double top = *std::max_element(logWeights.begin(), logWeights.end());
      double total = 0.0;
      for (const double w : logWeights) total += std::exp(w - top);
      for (std::size_t c = 0; c < candidates.size(); ++c) {
        const double expected = std::exp(logWeights[c] - top) / total;
        QVERIFY2(std::abs(candidates[c].probability - expected) < 1e-10,
                 qPrintable(QString("node %1: %2 vs %3").arg(i).arg(candidates[c].probability).arg(expected)));
      }
      // Candidates are the blocks of i's type (without i) and a new one.
      std::set<int> others;
      for (int v = 0; v < n; ++v)
        if (v != i && types[v] == types[i]) others.insert(labels[v]);
      QCOMPARE(
          candidates.size(),
          (twoTypes ? others.size() : std::set<int>(labels.begin(), labels.end()).size() - (labels[i] == 20 ? 1 : 0)) +
              1);
    }
    QVERIFY(std::abs(sampler.logJoint() - joint) < 1e-9);
  }

  // Sweeps and split-merge moves keep the incremental counts equal to counts from scratch.
  void movesKeepCountsExact() {
    const int n = 30;
    std::vector<std::uint8_t> types(n, 0);
    for (int v = 0; v < n; ++v) types[v] = v % 4 == 0;
    for (const bool two : {false, true}) {
      auto g = randomGraph(n, true, 0.2, two ? &types : nullptr, 9);
      const std::set<std::pair<int, int>> heldoutSet = {{1, 2}, {2, 1}, {4, 5}, {3, 8}};
      std::vector<core::HeldoutDyad> heldout;
      for (const auto& [i, j] : heldoutSet) heldout.push_back({i, j, false});
      std::erase_if(g.edges, [&](const core::Edge& e) { return heldoutSet.count({e.source, e.target}) > 0; });
      std::vector<std::string> names;
      for (int v = 0; v < n; ++v) names.push_back(types[v] ? "b" : "a");
      setTypes(g, names);
      const auto relation =
          core::network::buildIrmRelation(g, heldout, core::network::detectIrmTypes(g, two ? "two" : "one"));
      IrmSampler sampler(relation, {2.0, 0.5, 0.5});
      core::Rng rng(3);
      sampler.assignRandom(rng, 6);
      QVERIFY(std::abs(sampler.logJoint() - bruteLogJoint(g, heldoutSet, sampler.labels(), types, two, 2.0, 0.5, 0.5)) <
              1e-8);
      for (int s = 0; s < 20; ++s) {
        QVERIFY(sampler.gibbsSweep(rng, {}));
        sampler.splitMerge(rng, 5, 2, {});
        const double joint = bruteLogJoint(g, heldoutSet, sampler.labels(), types, two, 2.0, 0.5, 0.5);
        QVERIFY2(std::abs(sampler.logJoint() - joint) < 1e-8 * std::abs(joint),
                 qPrintable(QString("sweep %1: %2 vs %3").arg(s).arg(sampler.logJoint()).arg(joint)));
      }
    }
  }

  // A held-out pair is neither a link nor a non-link: the same state whether the hidden pair was
  // linked or not, and it is not among the block pair's non-links.
  void heldoutPairsAreNotCounted() {
    // Path 0-1-2-3; (0, 2) is not linked, (1, 2) is. Blocks {0, 1} and {2, 3}.
    const auto full = makeGraph(4, false, {{0, 1, 1.0}, {1, 2, 1.0}, {2, 3, 1.0}});
    const auto withoutLink = makeGraph(4, false, {{0, 1, 1.0}, {2, 3, 1.0}});
    const auto types = core::network::detectIrmTypes(full, "auto");
    // Hiding the link (1, 2) and hiding the non-link (0, 2) of the graph without it.
    const auto hideLink =
        core::network::buildIrmRelation(withoutLink, std::vector<core::HeldoutDyad>{{1, 2, true}}, types);
    const auto hideNone =
        core::network::buildIrmRelation(withoutLink, std::vector<core::HeldoutDyad>{{1, 2, false}}, types);
    IrmSampler a(hideLink, {}), b(hideNone, {});
    a.assign(std::vector<int>{0, 0, 1, 1});
    b.assign(std::vector<int>{0, 0, 1, 1});
    QCOMPARE(a.logJoint(), b.logJoint());
    const int x = a.blockOf(0), y = a.blockOf(2);
    // Between the blocks: 4 pairs, (1, 2) held out, no training link: 3 non-links.
    QCOMPARE(a.links(x, y), std::int64_t{0});
    QCOMPARE(a.missing(x, y), std::int64_t{1});
    QCOMPARE(a.nonLinks(x, y), std::int64_t{3});
    // Without hiding, the full graph has the link and 3 non-links; hiding (0, 2) leaves 2 non-links.
    const auto hideOther = core::network::buildIrmRelation(full, std::vector<core::HeldoutDyad>{{0, 2, false}}, types);
    IrmSampler c(hideOther, {});
    c.assign(std::vector<int>{0, 0, 1, 1});
    QCOMPARE(c.links(c.blockOf(0), c.blockOf(2)), std::int64_t{1});
    QCOMPARE(c.nonLinks(c.blockOf(0), c.blockOf(2)), std::int64_t{2});
    // log B(1 + 0, 1 + 3) - log B(1, 1) = log(1/4) for the cross pair, log B(2, 1) = log(1/2) for
    // each block's inner link, and Ewens' formula for two blocks of two: log(1^2 * 1! * 1! / 4!).
    const double expected = std::log(0.25) + 2 * std::log(0.5) + std::log(1.0 / 24.0);
    QVERIFY(std::abs(a.logJoint() - expected) < 1e-12);
    // The sampler's conditionals do not depend on the hidden pair either.
    for (int i = 0; i < 4; ++i) {
      const auto pa = a.conditional(i), pb = b.conditional(i);
      QCOMPARE(pa.size(), pb.size());
      for (std::size_t k = 0; k < pa.size(); ++k) QCOMPARE(pa[k].probability, pb[k].probability);
    }
  }

  void detectsTypes() {
    // Two people and two clubs; every link joins a person to a club.
    auto g = makeGraph(4, false, {{0, 2, 1.0}, {0, 3, 1.0}, {1, 3, 1.0}});
    setTypes(g, {"person", "person", "club", "club"});
    auto t = core::network::detectIrmTypes(g, "auto");
    QVERIFY(t.twoTypes);
    QCOMPARE(t.names, (std::vector<std::string>{"person", "club"}));
    QCOMPARE(t.nodeType, (std::vector<std::uint8_t>{0, 0, 1, 1}));
    QVERIFY(!core::network::detectIrmTypes(g, "one").twoTypes);
    QVERIFY(core::network::detectIrmTypes(g, "two").twoTypes);

    // A link between two people: auto falls back to one type, two says why it cannot.
    auto within = g;
    within.edges.insert(within.edges.begin(), {0, 1, 1.0});
    QVERIFY(!core::network::detectIrmTypes(within, "auto").twoTypes);
    QCOMPARE(
        usageError([&] { core::network::detectIrmTypes(within, "two"); }),
        std::string("irm --types two: the link between 'node 0' and 'node 1' joins two nodes of type 'person', but in "
                    "a two-type relation every link joins a node of one type to one of the other"));

    auto three = g;
    three.attributes[0][3] = "event";
    QVERIFY(!core::network::detectIrmTypes(three, "auto").twoTypes);
    QCOMPARE(
        usageError([&] { core::network::detectIrmTypes(three, "two"); }),
        std::string("irm --types two: the attribute 'type' has 3 different values ('person', 'club', 'event') but two "
                    "types need exactly two"));

    auto missing = g;
    missing.attributes[0][2] = "";
    QVERIFY(!core::network::detectIrmTypes(missing, "auto").twoTypes);
    QCOMPARE(usageError([&] { core::network::detectIrmTypes(missing, "two"); }),
             std::string("irm --types two: node 'node 2' has no value for the attribute 'type'"));

    const auto plain = makeGraph(3, false, {{0, 1, 1.0}});
    QVERIFY(!core::network::detectIrmTypes(plain, "auto").twoTypes);
    QVERIFY(usageError([&] { core::network::detectIrmTypes(plain, "two"); }).find("this graph has none") !=
            std::string::npos);

    // Through the model: --types two on a graph that is not bipartite is refused before any work.
    Collecting observer;
    QVERIFY(usageError([&] {
              fit(within, {{"types", "two"}}, 1, observer);
            }).find("joins two nodes of type 'person'") != std::string::npos);
    QVERIFY(observer.reports.empty());
  }

  void twoTypeResults() {
    // 6 people in two groups, 4 clubs in two groups: people 0-2 join clubs 6-7, people 3-5 clubs 8-9.
    std::vector<core::Edge> edges;
    for (int p = 0; p < 6; ++p)
      for (int c = 6; c < 10; ++c)
        if ((p < 3) == (c < 8)) edges.push_back({p, c, 1.0});
    auto g = makeGraph(10, false, edges);
    setTypes(g, {"person", "person", "person", "person", "person", "person", "club", "club", "club", "club"});
    Collecting observer;
    const auto result = fit(g, {{"iterations", 40}}, 3, observer);
    QCOMPARE(result.finalMetrics["types"].get<int>(), 2);
    QCOMPARE(result.finalMetrics["blocks_rows"].get<int>(), 2);
    QCOMPARE(result.finalMetrics["blocks_columns"].get<int>(), 2);
    QCOMPARE(result.finalMetrics["blocks"].get<int>(), 4);
    QCOMPARE(result.finalMetrics["type_values"], nlohmann::json({"person", "club"}));
    const auto& type = matrixOf(result.matrices, core::kNodeType);
    for (int v = 0; v < 10; ++v) QCOMPARE(type(v, 0), v < 6 ? 0.0 : 1.0);
    // Blocks of both types numbered together, people's first; zero within a type; the density of
    // a full block pair is (a + 6) / (a + b + 6) = 7/8 and of an empty one 1/8.
    const auto& B = matrixOf(result.matrices, core::kBlockMatrix);
    QCOMPARE(B.rows(), Eigen::Index{4});
    const auto& blocks = matrixOf(result.matrices, core::kBlocks);
    QCOMPARE(blocks(0, 0), blocks(2, 0));
    QVERIFY(blocks(0, 0) != blocks(3, 0));
    for (int v = 0; v < 6; ++v) QVERIFY(blocks(v, 0) < 2);
    const int p0 = static_cast<int>(blocks(0, 0)), p1 = static_cast<int>(blocks(3, 0));
    const int c0 = static_cast<int>(blocks(8, 0)), c1 = static_cast<int>(blocks(6, 0));
    QCOMPARE(B(p0, p1), 0.0);
    QCOMPARE(B(c0, c1), 0.0);
    QVERIFY(std::abs(B(p0, c1) - 7.0 / 8.0) < 1e-12);
    QVERIFY(std::abs(B(p0, c0) - 1.0 / 8.0) < 1e-12);
    QVERIFY(std::abs(B(p1, c0) - 7.0 / 8.0) < 1e-12);
    QCOMPARE(B(c1, p0), B(p0, c1));
    // Reports say how many blocks of each type the chain holds (it keeps exploring: the results
    // are over the best state it visited).
    for (const auto& r : observer.reports) {
      std::map<std::string, double> named(r.extras.begin(), r.extras.end());
      QVERIFY(named.count("blocks_rows") && named.count("blocks_columns"));
      QCOMPARE(named["blocks_rows"] + named["blocks_columns"], named["blocks"]);
    }
  }

  void resultsAndReports() {
    const auto truth = threeBlocks(5);
    Collecting observer;
    const auto result = fit(truth.graph, {{"iterations", 30}, {"snapshot_every", 5}}, 11, observer, 0.1);
    QVERIFY(result.status == core::FitStatus::MaxIterations);
    QCOMPARE(result.iterations, std::int64_t{30});
    QCOMPARE(observer.reports.size(), std::size_t{30});
    const int K = result.finalMetrics["blocks"].get<int>();
    QCOMPARE(K, 3);
    const auto& M = matrixOf(result.matrices, core::kMemberships);
    QCOMPARE(M.rows(), Eigen::Index{30});
    QCOMPARE(M.cols(), Eigen::Index{K});
    for (Eigen::Index v = 0; v < M.rows(); ++v) QVERIFY(std::abs(M.row(v).sum() - 1.0) < 1e-12);
    const auto& B = matrixOf(result.matrices, core::kBlockMatrix);
    QCOMPARE(B.rows(), Eigen::Index{K});
    QVERIFY((B - B.transpose()).norm() < 1e-15);
    const auto& order = matrixOf(result.matrices, core::kNodeOrder);
    std::set<int> seen;
    for (Eigen::Index v = 0; v < order.rows(); ++v) seen.insert(static_cast<int>(order(v, 0)));
    QCOMPARE(seen.size(), std::size_t{30});
    QCOMPARE(result.finalMetrics["nmi"].get<double>(), 1.0);
    // Held-out perplexity at evaluation iterations only (every 5 and the last), and the final one
    // from the stored matrices and the same seeded split.
    for (const auto& r : observer.reports) QCOMPARE(r.heldout.has_value(), r.iteration % 5 == 0);
    const auto split = core::splitDyads(truth.graph, 0.1, 11);
    const core::LinkPredictor predictor(result.matrices);
    const auto scores =
        core::scoreHeldoutLinks(split.heldout, [&](int i, int j) { return predictor.probability(i, j); });
    QVERIFY(std::abs(result.finalMetrics["heldout_link_perplexity"].get<double>() - scores.perplexity) < 1e-12);
    QCOMPARE(result.finalMetrics["heldout_pairs"].get<std::int64_t>(), static_cast<std::int64_t>(split.heldout.size()));
    // Every report has the number of blocks, the objective is the chain's log joint.
    for (const auto& r : observer.reports) {
      QCOMPARE(r.extras.front().first, std::string("blocks"));
      QVERIFY(std::isfinite(r.trainObjective) && r.trainObjective < 0);
    }
    QCOMPARE(result.finalMetrics["train_objective"].get<double>(), observer.reports.back().trainObjective);
    QVERIFY(result.finalMetrics["best_log_joint"].get<double>() >= observer.reports.back().trainObjective);
    // One progress report per restart (4 by default), once they have run, with its log joint; the
    // kept restart is the first with the highest.
    const auto& restartLogJoints = result.finalMetrics["restart_log_joints"];
    QCOMPARE(observer.startReports.size(), std::size_t{4});
    for (std::size_t s = 0; s < 4; ++s) {
      const auto& r = observer.startReports[s];
      QVERIFY(r.phase == core::FitPhase::Restarts);
      QCOMPARE(r.start, static_cast<std::int64_t>(s) + 1);
      QCOMPARE(r.trainObjective, restartLogJoints[s].get<double>());
    }
    const auto kept = result.finalMetrics["restart_kept"].get<std::size_t>();
    for (std::size_t s = 0; s < 4; ++s)
      QVERIFY(s < kept ? restartLogJoints[s].get<double>() < restartLogJoints[kept].get<double>()
                       : restartLogJoints[s].get<double>() <= restartLogJoints[kept].get<double>());
    // Snapshots every 5 sweeps, each the chain's state: one-hot memberships over compact block
    // numbers (every block holds a node), the block matrix over the same numbers (their alignment
    // is checked in alignsPartitions).
    QCOMPARE(observer.snapshots.size(), std::size_t{6});
    for (const auto& s : observer.snapshots) {
      QCOMPARE(s->iteration % 5, std::int64_t{0});
      QCOMPARE(s->matrices.size(), std::size_t{2});
      QCOMPARE(s->matrices[0].name, std::string(core::kMemberships));
      const auto& S = s->matrices[0].values;
      QCOMPARE(s->matrices[1].values.rows(), S.cols());
      QCOMPARE(S.rows(), Eigen::Index{30});
      QCOMPARE(S.sum(), 30.0);
      QVERIFY((S.colwise().sum().array() >= 1.0).all());
      QVERIFY(S.maxCoeff() == 1.0);
    }
  }

  void sameSeedSameResult() {
    const auto truth = threeBlocks(8, true);
    std::vector<core::FitResult> results;
    std::vector<std::vector<double>> objectives;
    for (const int threads : {1, 2, 1}) {
      tbb::task_arena arena(threads);
      Collecting observer;
      arena.execute([&] { results.push_back(fit(truth.graph, {{"iterations", 20}}, 21, observer, 0.1)); });
      objectives.emplace_back();
      for (const auto& r : observer.reports) objectives.back().push_back(r.trainObjective);
    }
    for (std::size_t run = 1; run < results.size(); ++run) {
      QCOMPARE(objectives[run], objectives[0]);
      QCOMPARE(results[run].matrices.size(), results[0].matrices.size());
      for (std::size_t m = 0; m < results[0].matrices.size(); ++m)
        QCOMPARE(results[run].matrices[m].values, results[0].matrices[m].values);
      QCOMPARE(results[run].finalMetrics.dump(), results[0].finalMetrics.dump());
    }
  }

  void stopsWhenAsked() {
    const auto truth = threeBlocks(2);
    {
      std::stop_source stop;
      stop.request_stop();
      Collecting observer;
      const auto result = fit(truth.graph, nlohmann::json::object(), 1, observer, 0.0, stop.get_token());
      QVERIFY(result.status == core::FitStatus::Cancelled);
      QVERIFY(observer.reports.empty() && observer.startReports.empty());
    }
    {
      Collecting observer;
      observer.stopAfter = 3;
      const auto result = fit(truth.graph, nlohmann::json::object(), 1, observer);
      QVERIFY(result.status == core::FitStatus::Cancelled);
      QCOMPARE(result.iterations, std::int64_t{3});
      QCOMPARE(observer.reports.size(), std::size_t{3});
      // What was reached is kept.
      QCOMPARE(matrixOf(result.matrices, core::kMemberships).rows(), Eigen::Index{30});
    }
    // A stop from another thread in the middle of a long run is honoured within 200 ms.
    const auto big = core::generateAssortativeSbm(3000, 8, 20, 5, false, 4);
    std::stop_source stop;
    std::atomic<double> requestedAt{0.0};
    const core::Stopwatch clock;
    std::thread stopper([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      requestedAt = clock.seconds();
      stop.request_stop();
    });
    Collecting observer;
    const auto result = fit(big.graph, {{"iterations", 100000}}, 1, observer, 0.0, stop.get_token());
    const double returnedAt = clock.seconds();
    stopper.join();
    QVERIFY(result.status == core::FitStatus::Cancelled);
    qInfo("stopped %.0f ms after the request", (returnedAt - requestedAt) * 1000);
    QVERIFY2(returnedAt - requestedAt < 0.2, qPrintable(QString::number(returnedAt - requestedAt)));
  }

  // A stop in the middle of a split-merge proposal abandons it: every node is back in a block and
  // the counts agree with counts made afresh for the same partition.
  void abandonedSplitMergeLeavesAConsistentState() {
    const auto big = core::generateAssortativeSbm(4000, 4, 20, 5, true, 6);
    const auto relation =
        core::network::buildIrmRelation(big.graph, {}, core::network::detectIrmTypes(big.graph, "one"));
    for (const int delayMs : {1, 4, 15}) {
      IrmSampler sampler(relation, {});
      sampler.assignOneBlockPerType();  // every proposal is a split of all 4000 nodes
      std::stop_source stop;
      std::thread stopper([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(delayMs));
        stop.request_stop();
      });
      core::Rng rng(static_cast<std::uint64_t>(delayMs));
      const auto tally = sampler.splitMerge(rng, 1000, 3, stop.get_token());
      stopper.join();
      QVERIFY(tally.proposed < 1000);
      const auto labels = sampler.labels();
      IrmSampler fresh(relation, {});
      fresh.assign(labels);
      QCOMPARE(fresh.blockCount(), sampler.blockCount());
      QVERIFY(std::abs(fresh.logJoint() - sampler.logJoint()) < 1e-9 * std::abs(fresh.logJoint()));
    }
  }

  void alignsPartitions() {
    // The sample's blocks 1 and 0 are the reference's 0 and 1; sample block 2 overlaps reference 2.
    const std::vector<int> reference = {0, 0, 1, 1, 2, 2};
    QCOMPARE(core::network::matchPartition(reference, std::vector<int>{1, 1, 0, 0, 2, 2}), (std::vector<int>{1, 0, 2}));
    // More blocks than the reference: the extra one joins the block it shares most with.
    QCOMPARE(core::network::matchPartition(reference, std::vector<int>{0, 0, 1, 3, 2, 2}),
             (std::vector<int>{0, 1, 2, 1}));
    // Fewer: blocks 0 and 1 of the reference are merged in the sample.
    QCOMPARE(core::network::matchPartition(reference, std::vector<int>{0, 0, 0, 0, 1, 1}), (std::vector<int>{0, 2}));
    // Posterior block probabilities: node 3 sits with block 1 in one sample of two.
    const auto M = core::network::alignedMemberships(
        reference, {std::vector<int>{1, 1, 0, 0, 2, 2}, std::vector<int>{0, 0, 1, 2, 2, 2}});
    QCOMPARE(M(3, 1), 0.5);
    QCOMPARE(M(3, 2), 0.5);
    QCOMPARE(M(0, 0), 1.0);
    // Snapshots: a relabelled partition keeps the previous numbers; a new block comes last.
    QCOMPARE(core::network::stableLabels(std::vector<int>{0, 0, 1, 1}, std::vector<int>{1, 1, 0, 0},
                                         std::vector<std::uint8_t>(4, 0)),
             (std::vector<int>{0, 0, 1, 1}));
    QCOMPARE(core::network::stableLabels(std::vector<int>{0, 0, 1, 1}, std::vector<int>{0, 1, 2, 2},
                                         std::vector<std::uint8_t>(4, 0)),
             (std::vector<int>{0, 2, 1, 1}));
  }
};

LATENT_TEST_CASE(IrmTest)
#include "tst_irm.moc"
