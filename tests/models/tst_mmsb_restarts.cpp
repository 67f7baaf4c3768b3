// SPDX-License-Identifier: GPL-3.0-or-later
// MMSB restart phase: its reports (one per restart sweep in the Restarts phase, then the
// continuing chain's sweeps 1..iterations) and stopping during it, from the observer or by a
// stop request.
#include <QtTest>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <mutex>
#include <optional>
#include <thread>

#include "core/data/synthetic_graph.hpp"
#include "core/models/fit_data.hpp"
#include "core/models/network/block_model_results.hpp"
#include "core/models/network/mmsb.hpp"
#include "test_case.hpp"

using namespace latent;

namespace {

// Keeps every report; stops after `stopAfter` of them. Thread-safe reads of the count, so a
// test thread can wait for reports while the fit runs.
class RestartsRecorder final : public core::TrainingObserver {
 public:
  bool onReport(const core::IterationReport& r) override {
    const std::lock_guard lock(m_mutex);
    reports.push_back(r);
    count = reports.size();
    return reports.size() < stopAfter;
  }
  void onSnapshot(std::shared_ptr<const core::ModelSnapshot> s) override {
    const std::lock_guard lock(m_mutex);
    snapshots.push_back(s->iteration);
  }
  std::vector<core::IterationReport> reports;
  std::vector<std::int64_t> snapshots;
  std::atomic<std::size_t> count{0};
  std::size_t stopAfter = std::numeric_limits<std::size_t>::max();

 private:
  std::mutex m_mutex;
};

core::FitResult fit(const core::Graph& graph, const nlohmann::json& options, core::TrainingObserver& observer,
                    double heldout = 0.0, int evalEvery = 10, std::stop_token stop = {}) {
  const core::PreparedData prepared(graph, heldout, 3);
  const core::FitData& data = prepared.data();
  core::FitSettings settings;
  settings.options = core::resolveOptions(core::mmsbModel().info(), options);
  settings.seed = 3;
  settings.evalEvery = evalEvery;
  return core::mmsbModel().make()->fit(data, settings, observer, stop);
}

std::optional<double> reportExtra(const core::IterationReport& r, const char* key) { return r.extra(key); }

Eigen::Index membershipRows(const core::FitResult& r) {
  const auto* theta = core::findMatrix(r.matrices, core::kMemberships);
  return theta ? theta->rows() : -1;
}

}  // namespace

class MmsbRestartsTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void restartSweepsAreReported() {
    Eigen::MatrixXd B = Eigen::MatrixXd::Constant(3, 3, 0.05);
    B.diagonal().setConstant(0.5);
    const auto planted = core::generateMmsbGraph(30, B, 0.2, false, 3);
    RestartsRecorder recorder;
    const auto r =
        fit(planted.graph, {{"k", 3}, {"iterations", 30}, {"restarts", 3}, {"snapshot_every", 5}}, recorder, 0.1, 5);
    const std::int64_t S = core::mmsbRestartSweeps(30);
    QCOMPARE(S, std::int64_t(10));
    QVERIFY(r.status == core::FitStatus::MaxIterations);
    QCOMPARE(r.iterations, std::int64_t(30));
    QCOMPARE(r.finalMetrics["restart_sweeps"].get<std::int64_t>(), S);
    // One report per restart sweep in the Restarts phase (as lda-gibbs's restarts), then one per
    // sweep of the continuing chain, numbered 1..30 as without restarts.
    QCOMPARE(recorder.reports.size(), std::size_t(S + 30));
    for (std::size_t k = 0; k < recorder.reports.size(); ++k) {
      const auto& report = recorder.reports[k];
      const auto it = static_cast<std::int64_t>(k) + 1;  // restart sweep, then S + chain sweep
      QCOMPARE(report.inChain(), it > S);
      QCOMPARE(report.iteration, it <= S ? it : it - S);
      if (it < S) {
        QVERIFY(!std::isfinite(report.trainObjective));  // the fit is only computed at the end
        QVERIFY(reportExtra(report, "best_log_joint").has_value());
      } else {
        QVERIFY(std::isfinite(report.trainObjective) && report.trainObjective < 0);
      }
      // Held-out scores only for the continuing chain, every 5 iterations and at the last.
      QCOMPARE(report.heldout.has_value(), it > S && (it - S) % 5 == 0);
    }
    // The last restart report carries the chosen start's score.
    const auto& chosen = recorder.reports[static_cast<std::size_t>(S - 1)];
    const auto best = r.finalMetrics["best_restart"].get<std::int64_t>();
    QCOMPARE(*reportExtra(chosen, "best_restart"), double(best));
    QCOMPARE(chosen.trainObjective, r.finalMetrics["restart_scores"][static_cast<std::size_t>(best)].get<double>());
    QCOMPARE(recorder.reports.back().trainObjective, r.finalMetrics["train_objective"].get<double>());
    QCOMPARE(recorder.snapshots, (std::vector<std::int64_t>{5, 10, 15, 20, 25, 30}));
  }

  void observerStopsDuringRestarts() {
    Eigen::MatrixXd B = Eigen::MatrixXd::Constant(2, 2, 0.05);
    B.diagonal().setConstant(0.5);
    const auto planted = core::generateMmsbGraph(20, B, 0.2, true, 9);
    RestartsRecorder recorder;
    recorder.stopAfter = 3;
    const auto r = fit(planted.graph, {{"k", 2}, {"iterations", 100}, {"restarts", 4}}, recorder);
    QVERIFY(r.status == core::FitStatus::Cancelled);
    QCOMPARE(r.iterations, std::int64_t(0));  // the continuing chain never swept
    QCOMPARE(recorder.reports.size(), std::size_t(3));
    for (const auto& report : recorder.reports) QVERIFY(report.phase == core::FitPhase::Restarts);
    QVERIFY(recorder.snapshots.empty());
    QCOMPARE(membershipRows(r), Eigen::Index(20));  // the start kept has what it reached
  }

  void stopRequestDuringRestarts() {
    // Reports arrive while the restarts run, and a stop request then ends the fit promptly.
    const auto planted = core::generateAssortativeSbm(5000, 4, 20.0, 5.0, false, 2);
    RestartsRecorder recorder;
    std::stop_source source;
    core::FitResult result;
    std::thread worker([&] {
      result = fit(planted.graph, {{"k", 8}, {"iterations", 100000}, {"restarts", 4}, {"non_edges", "sampled"}},
                   recorder, 0.0, 10, source.get_token());
    });
    // Wait for two restart sweeps (a generous bound in case the machine is very busy).
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(300);
    while (recorder.count.load() < 2 && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    const auto requested = std::chrono::steady_clock::now();
    source.request_stop();
    worker.join();
    const auto waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - requested).count();
    std::printf("  %zu reports during the restarts; stopped %.3f s after the request\n", recorder.reports.size(),
                waited);
    QVERIFY(result.status == core::FitStatus::Cancelled);
    QVERIFY(recorder.reports.size() >= 2);
    for (const auto& report : recorder.reports) QVERIFY(report.phase == core::FitPhase::Restarts);
    QCOMPARE(result.iterations, std::int64_t(0));
    // 0.2 s is the contract; the bound leaves room for a sanitiser build on a loaded machine.
    QVERIFY2(waited < 1.5, qPrintable(QString("stopped %1 s after the request").arg(waited)));
    QCOMPARE(membershipRows(result), Eigen::Index(5000));
  }
};

LATENT_TEST_CASE(MmsbRestartsTest)
#include "tst_mmsb_restarts.moc"
