// SPDX-License-Identifier: GPL-3.0-or-later
// Which runs are compared when choosing K, and the K each criterion picks, on hand-made records.
#include <QtTest>

#include "core/jobs/comparable_runs.hpp"
#include "test_case.hpp"

using namespace latent;

namespace {

core::RunRecord run(std::int64_t id, std::int64_t k, double heldout, std::optional<double> icl = std::nullopt) {
  core::RunRecord r;
  r.id = id;
  r.datasetId = 4;
  r.model = "sbm";
  r.options = {{"k", k}, {"alpha", 5.0}, {"degree_corrected", true}};
  r.seed = static_cast<std::uint64_t>(id);
  r.heldout = 0.1;
  r.status = core::RunStatus::Finished;
  r.finalMetrics = {{"heldout_link_perplexity", heldout}};
  if (icl) r.finalMetrics["icl"] = *icl;
  return r;
}

}  // namespace

class ModelSelectionTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void onlyRunsThatDifferInK() {
    std::vector<core::RunRecord> runs = {run(1, 3, 1.40, -276.0), run(2, 2, 1.41, -272.0), run(3, 1, 1.48, -273.0)};
    auto other = run(4, 4, 1.0);
    other.options["alpha"] = 1.0;  // another option changed: not comparable
    runs.push_back(other);
    auto heldout = run(5, 4, 1.0);
    heldout.heldout = 0.2;  // another held-out fraction: other pairs scored
    runs.push_back(heldout);
    auto running = run(6, 4, 1.0);
    running.status = core::RunStatus::Running;
    runs.push_back(running);
    auto model = run(7, 4, 1.0);
    model.model = "mmsb";
    runs.push_back(model);
    auto dataset = run(8, 4, 1.0);
    dataset.datasetId = 5;
    runs.push_back(dataset);
    auto noMetric = run(9, 4, 1.0);
    noMetric.finalMetrics.erase("heldout_link_perplexity");
    runs.push_back(noMetric);
    auto sameAgain = run(10, 2, 1.39, -270.0);  // another seed of K = 2
    runs.push_back(sameAgain);

    const auto points = core::comparableRuns(runs, runs[0], "heldout_link_perplexity");
    QCOMPARE(points.size(), std::size_t{4});
    // Sorted by K, then run id.
    QCOMPARE(points[0].runId, std::int64_t{3});
    QCOMPARE(points[1].runId, std::int64_t{2});
    QCOMPARE(points[2].runId, std::int64_t{10});
    QCOMPARE(points[3].runId, std::int64_t{1});
    QCOMPARE(points[1].k, std::int64_t{2});
    QCOMPARE(points[1].heldout, 1.41);
    QCOMPARE(*points[2].icl, -270.0);
    QCOMPARE(points[2].seed, std::uint64_t{10});

    // Means per K: K=2 has held-out (1.41 + 1.39) / 2 = 1.40, equal to K=3's 1.40 - the first
    // lowest is kept; ICL mean of K=2 is -271, the highest.
    const auto choice = core::chooseK(points);
    QCOMPARE(*choice.byIcl, std::int64_t{2});
    QVERIFY(*choice.byHeldout == 2 || *choice.byHeldout == 3);
    auto better = run(11, 3, 1.30);
    runs.push_back(better);
    QCOMPARE(*core::chooseK(core::comparableRuns(runs, runs[0], "heldout_link_perplexity")).byHeldout, std::int64_t{3});
  }

  void nothingToCompare() {
    auto topic = run(1, 10, 2000.0);
    topic.model = "lda-gibbs";
    topic.options = {{"k", 10}};
    topic.finalMetrics = {{"heldout_perplexity", 2000.0}};
    const auto points = core::comparableRuns({topic}, topic, "heldout_perplexity");
    QCOMPARE(points.size(), std::size_t{1});
    QVERIFY(!points[0].icl);
    QVERIFY(!points[0].fullFoldingIn);
    topic.finalMetrics["heldout_perplexity_full_folding_in"] = 1500.0;
    QCOMPARE(*core::comparableRuns({topic}, topic, "heldout_perplexity")[0].fullFoldingIn, 1500.0);
    const auto choice = core::chooseK(points);
    QCOMPARE(*choice.byHeldout, std::int64_t{10});
    QVERIFY(!choice.byIcl);
    QVERIFY(!core::chooseK({}).byHeldout);
    // A model without the parameter (irm infers its blocks) has nothing to compare.
    auto irm = run(2, 1, 1.0);
    irm.options = {{"alpha", 1.0}};
    QVERIFY(core::comparableRuns({irm}, irm, "heldout_link_perplexity").empty());
  }
};

LATENT_TEST_CASE(ModelSelectionTest)
#include "tst_model_selection.moc"
