// SPDX-License-Identifier: GPL-3.0-or-later
// MMSB unit tests: the dyad conditional (001 eq. 3) by hand and against the log joint (001 eq. 1)
// computed from scratch, posterior means, options, shapes, reports, snapshots, determinism,
// cancellation, and held-out pairs treated as missing.
#include <QtTest>

#include <tbb/task_arena.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <set>
#include <thread>

#include "core/data/synthetic_graph.hpp"
#include "core/eval/dyad_split.hpp"
#include "core/models/fit_data.hpp"
#include "core/models/network/block_model_results.hpp"
#include "core/models/network/block_model_support.hpp"
#include "core/models/network/mmsb.hpp"
#include "core/models/network/mmsb_sampler.hpp"
#include "core/util/errors.hpp"
#include "core/util/random.hpp"
#include "test_case.hpp"

using namespace latent;
using core::network::DyadUnit;
using core::network::MmsbCounts;
using core::network::MmsbHyperparameters;

namespace {

class MmsbRecorder final : public core::TrainingObserver {
 public:
  bool onReport(const core::IterationReport& r) override {
    reports.push_back(r);
    return reports.size() < stopAfter;
  }
  void onSnapshot(std::shared_ptr<const core::ModelSnapshot> s) override { snapshots.push_back(std::move(s)); }
  std::vector<core::IterationReport> reports;
  std::vector<std::shared_ptr<const core::ModelSnapshot>> snapshots;
  std::size_t stopAfter = std::numeric_limits<std::size_t>::max();
};

core::FitResult fit(const core::Graph& graph, const nlohmann::json& options, std::uint64_t seed = 1,
                    double heldout = 0.0, core::TrainingObserver* observer = nullptr, int evalEvery = 10,
                    std::stop_token stop = {}) {
  const core::PreparedData prepared(graph, heldout, seed);
  const core::FitData& data = prepared.data();
  core::FitSettings settings;
  settings.options = core::resolveOptions(core::mmsbModel().info(), options);
  settings.seed = seed;
  settings.evalEvery = evalEvery;
  MmsbRecorder quiet;
  return core::mmsbModel().make()->fit(data, settings, observer ? *observer : quiet, stop);
}

Eigen::MatrixXd matrix(const std::vector<core::NamedMatrix>& matrices, const char* name) {
  for (const auto& m : matrices)
    if (m.name == name) return m.values;
  return {};
}

// log P(E, Z) of 001 eq. 1 computed from scratch from a list of units (all of weight 1), with the
// background indicators' prior of the robust variant (000 eq. 27.79). Independent of MmsbCounts.
double bruteLogJoint(const std::vector<DyadUnit>& units, int nodes, const MmsbHyperparameters& h) {
  const int K = h.blocks;
  std::vector<double> m(static_cast<std::size_t>(nodes * K), 0.0), linked(static_cast<std::size_t>(K * K), 0.0),
      unlinked(static_cast<std::size_t>(K * K), 0.0);
  double background = 0.0, block = 0.0;
  for (const auto& u : units) {
    m[static_cast<std::size_t>(u.source * K + u.sender)] += 1;
    m[static_cast<std::size_t>(u.target * K + u.receiver)] += 1;
    if (u.background) {
      background += 1;
      continue;
    }
    block += 1;
    int p = u.sender, q = u.receiver;
    if (!h.directed && p > q) std::swap(p, q);
    (u.edge ? linked : unlinked)[static_cast<std::size_t>(p * K + q)] += 1;
  }
  const auto lbeta = [](double x, double y) { return std::lgamma(x) + std::lgamma(y) - std::lgamma(x + y); };
  double out = 0.0;
  for (int p = 0; p < K; ++p)
    for (int q = h.directed ? 0 : p; q < K; ++q) {
      const auto c = static_cast<std::size_t>(p * K + q);
      out += lbeta(linked[c] + h.linkPrior, unlinked[c] + h.nonLinkPrior) - lbeta(h.linkPrior, h.nonLinkPrior);
    }
  for (int i = 0; i < nodes; ++i) {
    double total = 0.0;
    for (int p = 0; p < K; ++p) {
      out += std::lgamma(m[static_cast<std::size_t>(i * K + p)] + h.alpha) - std::lgamma(h.alpha);
      total += m[static_cast<std::size_t>(i * K + p)];
    }
    out += std::lgamma(K * h.alpha) - std::lgamma(total + K * h.alpha);
  }
  if (h.rho > 0.0) out += background * std::log(h.rho) + block * std::log1p(-h.rho);
  return out;
}

DyadUnit unit(int i, int j, int s, int r, bool edge, bool background = false) {
  DyadUnit u;
  u.source = i;
  u.target = j;
  u.sender = static_cast<std::uint16_t>(s);
  u.receiver = static_cast<std::uint16_t>(r);
  u.edge = edge;
  u.background = background;
  return u;
}

}  // namespace

class MmsbTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void conditionalByHand() {
    // Three nodes, directed, K = 2, alpha = 0.5, Beta(1, 1). Every dyad but (0, 1) is fixed:
    //   (0,2) non-edge (0,1); (1,0) non-edge (1,0); (1,2) edge (1,1); (2,0) non-edge (1,0);
    //   (2,1) non-edge (1,1).
    // So m_0 = (3, 0), m_1 = (0, 3); n(0,1) = 0+/1-, n(1,0) = 0+/2-, n(1,1) = 1+/1-, n(0,0) empty.
    // 001 eq. 3 for the edge (0, 1): (n_pq+ + 1) / (n_pq + 2) * (m_0p + 0.5) (m_1q + 0.5):
    //   (0,0): 1/2 * 3.5 * 0.5 = 7/8     (0,1): 1/3 * 3.5 * 3.5 = 49/12
    //   (1,0): 1/4 * 0.5 * 0.5 = 1/16    (1,1): 2/4 * 0.5 * 3.5 = 7/8      sum 283/48
    MmsbHyperparameters h;
    h.blocks = 2;
    h.alpha = 0.5;
    MmsbCounts counts(3, h);
    for (const auto& u : {unit(0, 2, 0, 1, false), unit(1, 0, 1, 0, false), unit(1, 2, 1, 1, true),
                          unit(2, 0, 1, 0, false), unit(2, 1, 1, 1, false)})
      counts.change(u, 1.0, +1);
    std::vector<double> out(5);
    const double total = counts.conditional(0, 1, true, out);
    QVERIFY(std::abs(total - 283.0 / 48) < 1e-12);
    QVERIFY(std::abs(out[0] - 7.0 / 8) < 1e-12);
    QVERIFY(std::abs(out[1] - 49.0 / 12) < 1e-12);
    QVERIFY(std::abs(out[2] - 1.0 / 16) < 1e-12);
    QVERIFY(std::abs(out[3] - 7.0 / 8) < 1e-12);
    QCOMPARE(out[4], 0.0);  // no background for links, and rho = 0

    // Posterior means after adding (0, 1) as (0, 1): m_0 = (4, 0) -> theta_0 = (4.5, 0.5) / 5;
    // m_1 = (0, 4) -> (0.5, 4.5) / 5; B(0,1) = (1 + 1) / (2 + 2); B(0,0) = 1/2 (prior mean);
    // B(1,0) = (0 + 1) / (2 + 2); B(1,1) = (1 + 1) / (2 + 2).
    counts.change(unit(0, 1, 0, 1, true), 1.0, +1);
    const auto theta = counts.memberships();
    QVERIFY(std::abs(theta(0, 0) - 0.9) < 1e-12 && std::abs(theta(0, 1) - 0.1) < 1e-12);
    QVERIFY(std::abs(theta(1, 0) - 0.1) < 1e-12 && std::abs(theta(1, 1) - 0.9) < 1e-12);
    QVERIFY(std::abs(theta(2, 0) - 0.5 / 5) < 1e-12);
    const auto B = counts.blockMatrix();
    QVERIFY(std::abs(B(0, 0) - 0.5) < 1e-12);
    QVERIFY(std::abs(B(0, 1) - 0.5) < 1e-12);
    QVERIFY(std::abs(B(1, 0) - 0.25) < 1e-12);
    QVERIFY(std::abs(B(1, 1) - 0.5) < 1e-12);
  }

  void conditionalMatchesLogJoint_data() {
    QTest::addColumn<bool>("directed");
    QTest::addColumn<double>("rho");
    QTest::newRow("directed") << true << 0.0;
    QTest::newRow("undirected") << false << 0.0;
    QTest::newRow("directed robust") << true << 0.3;
    QTest::newRow("undirected robust") << false << 0.25;
  }

  void conditionalMatchesLogJoint() {
    // Every dyad of a 5-node graph with random indicators; for each dyad in turn, the sampler's
    // conditional must equal P(E, Z) (001 eq. 1, from scratch) over the dyad's possible values,
    // normalised: (p, q) explained by B, and (p, q) from the background for a robust zero.
    QFETCH(bool, directed);
    QFETCH(double, rho);
    MmsbHyperparameters h;
    h.blocks = 3;
    h.alpha = 0.3;
    h.linkPrior = 0.7;
    h.nonLinkPrior = 1.9;
    h.rho = rho;
    h.directed = directed;
    const int N = 5, K = 3;
    core::Rng rng(11);
    std::vector<DyadUnit> units;
    for (int i = 0; i < N; ++i)
      for (int j = directed ? 0 : i + 1; j < N; ++j)
        if (i != j) {
          const bool edge = rng.uniform() < 0.4;
          units.push_back(
              unit(i, j, int(rng.below(K)), int(rng.below(K)), edge, !edge && rho > 0 && rng.uniform() < 0.3));
        }
    MmsbCounts counts(N, h);
    for (const auto& u : units) counts.change(u, 1.0, +1);
    QVERIFY(std::abs(counts.logJoint() - bruteLogJoint(units, N, h)) < 1e-9);

    int checked = 0;
    for (std::size_t d = 0; d < units.size(); ++d) {
      counts.change(units[d], 1.0, -1);
      std::vector<double> out(K * K + 1);
      const double total = counts.conditional(units[d].source, units[d].target, units[d].edge, out);
      // Brute force: the joint for every value of this dyad, the others held fixed.
      std::vector<double> logs;
      for (int background = 0; background <= (units[d].edge || rho == 0 ? 0 : 1); ++background)
        for (int p = 0; p < K; ++p)
          for (int q = 0; q < K; ++q) {
            auto trial = units;
            trial[d].sender = static_cast<std::uint16_t>(p);
            trial[d].receiver = static_cast<std::uint16_t>(q);
            trial[d].background = background == 1;
            logs.push_back(bruteLogJoint(trial, N, h));
          }
      const double top = *std::max_element(logs.begin(), logs.end());
      double norm = 0.0;
      for (const double l : logs) norm += std::exp(l - top);
      for (int c = 0; c < K * K; ++c) QVERIFY(std::abs(out[c] / total - std::exp(logs[c] - top) / norm) < 1e-10);
      double backgroundShare = 0.0;
      for (std::size_t c = K * K; c < logs.size(); ++c) backgroundShare += std::exp(logs[c] - top) / norm;
      QVERIFY(std::abs(out[K * K] / total - backgroundShare) < 1e-10);
      if (backgroundShare > 0) ++checked;
      counts.change(units[d], 1.0, +1);
    }
    if (rho > 0) QVERIFY(checked > 0);
  }

  void shapesAndInvariants_data() {
    QTest::addColumn<bool>("directed");
    QTest::newRow("directed") << true;
    QTest::newRow("undirected") << false;
  }

  void shapesAndInvariants() {
    QFETCH(bool, directed);
    Eigen::MatrixXd B = Eigen::MatrixXd::Constant(3, 3, 0.05);
    B.diagonal().setConstant(0.5);
    const auto planted = core::generateMmsbGraph(30, B, 0.2, directed, 3);
    const auto r = fit(planted.graph, {{"k", 3}, {"iterations", 40}, {"restarts", 2}});
    QVERIFY(r.status == core::FitStatus::MaxIterations);
    QCOMPARE(r.iterations, std::int64_t(40));
    const auto theta = matrix(r.matrices, core::kMemberships);
    const auto blockMatrix = matrix(r.matrices, core::kBlockMatrix);
    const auto blocks = matrix(r.matrices, core::kBlocks);
    const auto order = matrix(r.matrices, core::kNodeOrder);
    QCOMPARE(theta.rows(), Eigen::Index(30));
    QCOMPARE(theta.cols(), Eigen::Index(3));
    QCOMPARE(blockMatrix.rows(), Eigen::Index(3));
    QCOMPARE(blocks.rows(), Eigen::Index(30));
    QCOMPARE(order.rows(), Eigen::Index(30));
    QVERIFY(matrix(r.matrices, core::kLinkScale).size() == 0);  // plain model: no link scale
    std::set<int> seen;
    for (Eigen::Index i = 0; i < 30; ++i) {
      QVERIFY(std::abs(theta.row(i).sum() - 1.0) < 1e-12);
      Eigen::Index top = 0;
      theta.row(i).maxCoeff(&top);
      QCOMPARE(blocks(i, 0), double(top));
      seen.insert(int(order(i, 0)));
    }
    QCOMPARE(seen.size(), std::size_t(30));
    QVERIFY((blockMatrix.array() > 0).all() && (blockMatrix.array() < 1).all());
    if (!directed) QVERIFY((blockMatrix - blockMatrix.transpose()).cwiseAbs().maxCoeff() < 1e-12);
    QCOMPARE(r.finalMetrics["non_edges"].get<std::string>(), std::string("exact"));
    QCOMPARE(r.finalMetrics["training_pairs"].get<double>(), directed ? 870.0 : 435.0);
    QVERIFY(r.finalMetrics.contains("nmi"));  // the planted "block" attribute is a known label
  }

  void reportsSnapshotsAndObjective() {
    Eigen::MatrixXd B = Eigen::MatrixXd::Constant(2, 2, 0.05);
    B.diagonal().setConstant(0.6);
    const auto planted = core::generateMmsbGraph(24, B, 0.1, true, 5);
    MmsbRecorder recorder;
    const auto r = fit(planted.graph, {{"k", 2}, {"iterations", 20}, {"restarts", 1}, {"snapshot_every", 5}}, 4, 0.2,
                       &recorder, 5);
    // A report every sweep; the held-out score every evalEvery = 5 sweeps.
    QCOMPARE(recorder.reports.size(), std::size_t(20));
    for (std::size_t k = 0; k < 20; ++k) {
      QCOMPARE(recorder.reports[k].iteration, std::int64_t(k + 1));
      QCOMPARE(recorder.reports[k].heldout.has_value(), (k + 1) % 5 == 0);
      QVERIFY(std::isfinite(recorder.reports[k].trainObjective) && recorder.reports[k].trainObjective < 0);
    }
    const auto& last = recorder.reports.back();
    QCOMPARE(*last.heldout, r.finalMetrics[core::network::kHeldoutLinkKey].get<double>());
    QCOMPARE(last.trainObjective, r.finalMetrics["train_objective"].get<double>());

    // The objective from scratch: mean over the training pairs (held-out ones left out) of
    // log P(E_ij | theta, B), P(i -> j) = theta_i' B theta_j.
    const auto theta = matrix(r.matrices, core::kMemberships);
    const auto Bhat = matrix(r.matrices, core::kBlockMatrix);
    const auto split = core::splitDyads(planted.graph, 0.2, 4);
    std::set<std::pair<int, int>> edges;
    for (const auto& e : planted.graph.edges) edges.insert({e.source, e.target});
    double sum = 0.0;
    int pairs = 0;
    for (int i = 0; i < 24; ++i)
      for (int j = 0; j < 24; ++j) {
        if (i == j || split.isHeldout(i, j)) continue;
        const double p = theta.row(i).dot(Bhat * theta.row(j).transpose());
        sum += edges.count({i, j}) ? std::log(p) : std::log1p(-p);
        ++pairs;
      }
    QCOMPARE(pairs, 24 * 23 - int(split.heldout.size()));
    QVERIFY(std::abs(last.trainObjective - sum / pairs) < 1e-10);

    // Snapshots every 5 sweeps; each one's labels already match the previous one's.
    QCOMPARE(recorder.snapshots.size(), std::size_t(4));
    for (std::size_t k = 0; k < recorder.snapshots.size(); ++k) {
      const auto& s = *recorder.snapshots[k];
      QCOMPARE(s.iteration, std::int64_t(5 * (k + 1)));
      const auto m = matrix(s.matrices, core::kMemberships);
      QCOMPARE(m.rows(), Eigen::Index(24));
      QCOMPARE(matrix(s.matrices, core::kBlockMatrix).rows(), Eigen::Index(2));
      if (k > 0) {
        const auto relabel =
            core::network::alignBlocks(matrix(recorder.snapshots[k - 1]->matrices, core::kMemberships), m);
        QCOMPARE(relabel, (std::vector<int>{0, 1}));
      }
    }
    // And the final result is in the labels of the last snapshot.
    const auto relabel =
        core::network::alignBlocks(matrix(recorder.snapshots.back()->matrices, core::kMemberships), theta);
    QCOMPARE(relabel, (std::vector<int>{0, 1}));
  }

  void snapshotsStayAlignedWhenLabelsSwap() {
    // relabelColumns / alignBlocks as the model uses them: a snapshot whose columns are swapped
    // comes back in the previous labels.
    Eigen::MatrixXd previous(3, 2);
    previous << 0.9, 0.1, 0.2, 0.8, 0.6, 0.4;
    Eigen::MatrixXd swapped = previous.rowwise().reverse();
    const auto relabel = core::network::alignBlocks(previous, swapped);
    QCOMPARE(relabel, (std::vector<int>{1, 0}));
    QVERIFY(core::network::relabelColumns(swapped, relabel).isApprox(previous));
  }

  void deterministicForSeedAndThreads() {
    Eigen::MatrixXd B = Eigen::MatrixXd::Constant(2, 2, 0.05);
    B.diagonal().setConstant(0.5);
    const auto planted = core::generateMmsbGraph(20, B, 0.2, true, 9);
    const nlohmann::json options = {{"k", 2}, {"iterations", 30}, {"restarts", 4}};
    core::FitResult one, two, other;
    tbb::task_arena single(1), pair(2);
    single.execute([&] { one = fit(planted.graph, options, 5); });
    pair.execute([&] { two = fit(planted.graph, options, 5); });
    other = fit(planted.graph, options, 6);
    QCOMPARE(one.matrices.size(), two.matrices.size());
    for (std::size_t k = 0; k < one.matrices.size(); ++k) QVERIFY(one.matrices[k].values == two.matrices[k].values);
    QCOMPARE(one.finalMetrics["log_joint"].get<double>(), two.finalMetrics["log_joint"].get<double>());
    QVERIFY(matrix(one.matrices, core::kMemberships) != matrix(other.matrices, core::kMemberships));

    // Sampled non-edges are drawn from the seed too.
    const nlohmann::json sampled = {{"k", 2}, {"iterations", 10}, {"restarts", 2}, {"non_edges", "sampled"}};
    const auto a = fit(planted.graph, sampled, 5), b = fit(planted.graph, sampled, 5);
    QVERIFY(matrix(a.matrices, core::kMemberships) == matrix(b.matrices, core::kMemberships));
    QCOMPARE(a.finalMetrics["non_edges"].get<std::string>(), std::string("sampled"));
  }

  void observerStops() {
    Eigen::MatrixXd B = Eigen::MatrixXd::Constant(2, 2, 0.05);
    B.diagonal().setConstant(0.5);
    const auto planted = core::generateMmsbGraph(20, B, 0.2, true, 9);
    MmsbRecorder recorder;
    recorder.stopAfter = 3;
    const auto r = fit(planted.graph, {{"k", 2}, {"iterations", 100}, {"restarts", 1}}, 1, 0.0, &recorder, 5);
    QVERIFY(r.status == core::FitStatus::Cancelled);
    QCOMPARE(r.iterations, std::int64_t(3));
    QCOMPARE(recorder.reports.size(), std::size_t(3));
    QCOMPARE(matrix(r.matrices, core::kMemberships).rows(), Eigen::Index(20));  // what it reached is kept
  }

  void stopTokenHonouredQuickly_data() {
    QTest::addColumn<QString>("nonEdges");
    QTest::addColumn<int>("restarts");
    QTest::newRow("sampled, in the main chain") << "sampled" << 1;
    QTest::newRow("sampled, during restarts") << "sampled" << 4;
    QTest::newRow("exact") << "exact" << 2;
  }

  void stopTokenHonouredQuickly() {
    QFETCH(QString, nonEdges);
    QFETCH(int, restarts);
    const bool exact = nonEdges == "exact";
    const auto planted = core::generateAssortativeSbm(exact ? 800 : 20000, 4, 20.0, 5.0, true, 2);
    std::stop_source source;
    core::FitResult result;
    std::chrono::steady_clock::time_point requested;
    std::thread worker([&] {
      result = fit(planted.graph,
                   {{"k", 8}, {"iterations", 100000}, {"restarts", restarts}, {"non_edges", nonEdges.toStdString()}}, 1,
                   0.0, nullptr, 10, source.get_token());
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    requested = std::chrono::steady_clock::now();
    source.request_stop();
    worker.join();
    const auto waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - requested).count();
    std::printf("  stopped %.3f s after the request\n", waited);
    QVERIFY(result.status == core::FitStatus::Cancelled);
    // 0.2 s is typical; the bound leaves room for the sanitiser build on a loaded CI machine, and a
    // model that ignored the stop would run its 100000 sweeps.
    QVERIFY2(waited < 1.5, qPrintable(QString("stopped %1 s after the request").arg(waited)));
    QCOMPARE(matrix(result.matrices, core::kMemberships).rows(), Eigen::Index(planted.graph.nodeCount()));
  }

  void stoppedBeforeTheStart() {
    // A stop already requested: every chain's start is cut short, nothing sweeps, the run still
    // returns matrices of the right shape.
    const auto planted = core::generateAssortativeSbm(300, 3, 10.0, 5.0, false, 4);
    std::stop_source source;
    source.request_stop();
    for (const char* mode : {"exact", "sampled"}) {
      const auto r = fit(planted.graph, {{"k", 3}, {"non_edges", mode}}, 1, 0.1, nullptr, 10, source.get_token());
      QVERIFY(r.status == core::FitStatus::Cancelled);
      QCOMPARE(r.iterations, std::int64_t(0));
      QCOMPARE(matrix(r.matrices, core::kMemberships).rows(), Eigen::Index(300));
    }
    const auto split = core::splitDyads(planted.graph, 0.0, 1);
    core::network::MmsbChainSettings settings;
    settings.mode = core::network::NonEdgeMode::Sampled;
    core::network::MmsbChain chain(split.train, split, settings, source.get_token());
    QVERIFY(!chain.sweep({}));  // cut short: never sweeps, even without a stop request
  }

  void heldoutPairsAreMissing_data() {
    QTest::addColumn<bool>("directed");
    QTest::addColumn<bool>("sampled");
    QTest::newRow("directed exact") << true << false;
    QTest::newRow("undirected exact") << false << false;
    QTest::newRow("directed sampled") << true << true;
    QTest::newRow("undirected sampled") << false << true;
  }

  void heldoutPairsAreMissing() {
    QFETCH(bool, directed);
    QFETCH(bool, sampled);
    Eigen::MatrixXd B = Eigen::MatrixXd::Constant(2, 2, 0.1);
    B.diagonal().setConstant(0.5);
    const auto planted = core::generateMmsbGraph(40, B, 0.2, directed, 8);
    const auto split = core::splitDyads(planted.graph, 0.3, 3);
    QVERIFY(split.heldoutEdges > 0 && split.heldout.size() > std::size_t(split.heldoutEdges));
    core::network::MmsbChainSettings settings;
    settings.hyper.blocks = 2;
    settings.hyper.directed = directed;
    settings.mode = sampled ? core::network::NonEdgeMode::Sampled : core::network::NonEdgeMode::Exact;
    settings.nonEdgeRatio = 0.5;
    core::network::MmsbChain chain(split.train, split, settings);
    for (int t = 0; t < 3; ++t) QVERIFY(chain.sweep({}));
    std::set<std::pair<int, int>> trainEdges;
    for (const auto& e : split.train.edges) trainEdges.insert({e.source, e.target});
    const auto key = [&](int i, int j) { return directed || i < j ? std::pair{i, j} : std::pair{j, i}; };
    const double pairs = directed ? 40.0 * 39 : 40.0 * 39 / 2;
    QCOMPARE(chain.trainingDyads(), pairs - double(split.heldout.size()));
    std::set<std::pair<int, int>> seen;
    for (const auto& u : chain.units()) {
      QVERIFY(!split.isHeldout(u.source, u.target));
      QCOMPARE(u.edge, trainEdges.count(key(u.source, u.target)) == 1);
      seen.insert(key(u.source, u.target));
    }
    double linked = 0.0, unlinked = 0.0;
    for (int p = 0; p < 2; ++p)
      for (int q = directed ? 0 : p; q < 2; ++q) {
        linked += chain.counts().linkCount(p, q);
        unlinked += chain.counts().nonLinkCount(p, q);
      }
    QCOMPARE(linked, double(split.train.edges.size()));  // held-out edges are not links
    if (!sampled) {
      // Every training pair exactly once, no held-out pair.
      QCOMPARE(double(seen.size()), chain.trainingDyads());
      QCOMPARE(chain.units().size(), seen.size());
      QCOMPARE(unlinked, chain.trainingNonEdges());
      QVERIFY(chain.drawnNonEdges().empty());
    } else {
      QCOMPARE(chain.units().size(), split.train.edges.size());
      QVERIFY(!chain.drawnNonEdges().empty());
      for (const auto& u : chain.drawnNonEdges()) {
        QVERIFY(u.source != u.target);
        QVERIFY(!split.isHeldout(u.source, u.target));
        QVERIFY(!u.edge && trainEdges.count(key(u.source, u.target)) == 0);
      }
      // Each drawn non-edge stands for w of them: the weight is training non-edges / drawn per
      // sweep wanted, and the non-link counts hold w per draw.
      const double w = chain.nonEdgeWeight();
      QVERIFY(std::abs(w - chain.trainingNonEdges() / (0.5 * double(split.train.edges.size()))) < 1e-9);
      QVERIFY(std::abs(unlinked - w * double(chain.drawnNonEdges().size())) < 1e-6 * unlinked);
    }
  }

  void robustVariantStoresLinkScale() {
    Eigen::MatrixXd B = Eigen::MatrixXd::Constant(2, 2, 0.05);
    B.diagonal().setConstant(0.5);
    const auto planted = core::generateMmsbGraph(20, B, 0.2, true, 9);
    const auto plain = fit(planted.graph, {{"k", 2}, {"iterations", 30}, {"restarts", 1}});
    const auto r = fit(planted.graph, {{"k", 2}, {"iterations", 30}, {"restarts", 1}, {"rho", 0.4}});
    const auto scale = matrix(r.matrices, core::kLinkScale);
    QCOMPARE(scale.size(), Eigen::Index(1));
    QCOMPARE(scale(0, 0), 0.6);
    QCOMPARE(r.finalMetrics["rho"].get<double>(), 0.4);
    // P(link) = (1 - rho) theta_i' B theta_j (000 eq. 27.79: a one only comes from the block part).
    const core::LinkPredictor predictor(r.matrices);
    const auto theta = matrix(r.matrices, core::kMemberships), Bhat = matrix(r.matrices, core::kBlockMatrix);
    QVERIFY(std::abs(predictor.probability(3, 7) - 0.6 * theta.row(3).dot(Bhat * theta.row(7).transpose())) < 1e-14);
    // Zeros explained by the background leave B: the robust block densities are higher.
    QVERIFY(Bhat.maxCoeff() > matrix(plain.matrices, core::kBlockMatrix).maxCoeff());
  }

  void nonEdgeModes() {
    const auto small = core::generateAssortativeSbm(60, 2, 6.0, 5.0, true, 1).graph;
    QCOMPARE(fit(small, {{"iterations", 2}, {"restarts", 1}}).finalMetrics["non_edges"], nlohmann::json("exact"));
    // 1001 nodes, directed: 1,001,000 pairs, just over the auto limit of 1,000,000.
    const auto large = core::generateAssortativeSbm(1001, 2, 4.0, 5.0, true, 1).graph;
    const auto r = fit(large, {{"iterations", 1}, {"restarts", 1}});
    QCOMPARE(r.finalMetrics["non_edges"].get<std::string>(), std::string("sampled"));
    QVERIFY(r.finalMetrics["sampled_non_edges_per_sweep"].get<double>() > 0);
    const auto exact = fit(large, {{"iterations", 1}, {"restarts", 1}, {"non_edges", "exact"}});
    QCOMPARE(exact.finalMetrics["non_edges"].get<std::string>(), std::string("exact"));
  }

  void optionErrors_data() {
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("message");
    QTest::newRow("non_edges") << R"({"non_edges": "some"})"
                               << "option --non-edges of mmsb must be one of: auto, exact, sampled";
    QTest::newRow("rho") << R"({"rho": 1.0})"
                         << "option --rho of mmsb must be between 0 and 0.99 (got 1.0)";
    QTest::newRow("alpha") << R"({"alpha": 0})"
                           << "option --alpha of mmsb must be greater than 0";
    QTest::newRow("k") << R"({"k": 0})"
                       << "option --k of mmsb must be between 1 and 1000 (got 0)";
    QTest::newRow("ratio") << R"({"non_edge_ratio": -1})"
                           << "option --non-edge-ratio of mmsb must be greater than 0";
    QTest::newRow("unknown") << R"({"beta": 1})"
                             << "model mmsb has no option --beta";
  }

  void optionErrors() {
    QFETCH(QString, json);
    QFETCH(QString, message);
    try {
      core::resolveOptions(core::mmsbModel().info(), nlohmann::json::parse(json.toStdString()));
      QFAIL("expected a UsageError");
    } catch (const core::UsageError& e) {
      QVERIFY2(QString(e.what()).startsWith(message), e.what());
    }
  }

  void usageErrorsAtFit() {
    core::FitData data;  // no graph
    core::FitSettings settings;
    settings.options = core::resolveOptions(core::mmsbModel().info(), {});
    MmsbRecorder quiet;
    QVERIFY_THROWS_EXCEPTION(core::UsageError, core::mmsbModel().make()->fit(data, settings, quiet, {}));
    // exact on a graph beyond the exact limit (5,000,000 pairs): says what to use instead.
    const auto big = core::generateAssortativeSbm(2300, 2, 2.0, 2.0, true, 1).graph;
    try {
      fit(big, {{"non_edges", "exact"}, {"iterations", 1}});
      QFAIL("expected a UsageError");
    } catch (const core::UsageError& e) {
      QVERIFY2(QString(e.what()).contains("use --non-edges sampled"), e.what());
    }
  }

  void defaultsAreDocumented() {
    const auto& info = core::mmsbModel().info();
    QCOMPARE(info.name, std::string("mmsb"));
    QVERIFY(info.kind == core::DataKind::Graph);
    QCOMPARE(info.heldoutKey, std::string(core::network::kHeldoutLinkKey));
    const auto defaults = core::resolveOptions(info, {});
    QCOMPARE(defaults["k"].get<int>(), 3);
    QCOMPARE(defaults["iterations"].get<int>(), 500);
    QCOMPARE(defaults["alpha"].get<double>(), 0.1);
    QCOMPARE(defaults["rho"].get<double>(), 0.0);
    QCOMPARE(defaults["non_edges"].get<std::string>(), std::string("auto"));
    for (const auto& o : info.options) QVERIFY2(!o.help.empty(), o.name.c_str());
  }
};

LATENT_TEST_CASE(MmsbTest)
#include "tst_mmsb.moc"
