// SPDX-License-Identifier: GPL-3.0-or-later
// Sweeps: one recorded run per value, linked to the sweep, validated before anything is written.
#include <QtTest>

#include "core/jobs/sweep_job.hpp"
#include "core/util/errors.hpp"
#include "test_case.hpp"
#include "test_datasets.hpp"
#include "test_support.hpp"

using namespace latent;

namespace {

std::filesystem::path makeSweepProject(const test::Scratch& scratch) {
  const auto file = scratch.path("sweep.latent");
  core::Project p(file);
  std::vector<std::string> texts;
  for (int d = 0; d < 40; ++d)
    texts.push_back(d % 2 ? "money loan bank money loan bank credit" : "river stream bank water river stream fish");
  test::addCorpus(p, "toy", texts);
  return file;
}

core::SweepRequest request(std::vector<std::int64_t> values) {
  core::SweepRequest r;
  r.base.model = "mixture";
  r.base.dataset = "toy";
  r.base.heldout = 0.2;
  r.base.options = {{"iterations", 5}};
  r.values = std::move(values);
  return r;
}

}  // namespace

class SweepTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void onePointPerValue() {
    test::Scratch scratch;
    const auto file = makeSweepProject(scratch);
    std::vector<std::int64_t> seen;
    const auto outcome = core::runSweep(file, request({1, 2, 4}), nullptr, {},
                                        [&](std::int64_t value, const core::RunRecord&) { seen.push_back(value); });
    QCOMPARE(seen, (std::vector<std::int64_t>{1, 2, 4}));
    QCOMPARE(outcome.runs.size(), std::size_t{3});
    QVERIFY(!outcome.stopped);
    core::Project p(file, core::Project::Access::ReadOnly);
    const auto sweeps = core::listSweeps(p);
    QCOMPARE(sweeps.size(), std::size_t{1});
    QCOMPARE(sweeps[0].parameter, std::string("k"));
    QCOMPARE(sweeps[0].model, std::string("mixture"));
    const auto runs = core::sweepRuns(p, sweeps[0].id);
    QCOMPARE(runs.size(), std::size_t{3});
    for (std::size_t i = 0; i < runs.size(); ++i) {
      QCOMPARE(runs[i].options["k"].get<std::int64_t>(), (std::vector<std::int64_t>{1, 2, 4})[i]);
      QCOMPARE(runs[i].sweepId.value(), sweeps[0].id);
      QVERIFY(runs[i].finalMetrics.contains("heldout_perplexity"));
    }
  }

  void badSweepsWriteNothing() {
    test::Scratch scratch;
    const auto file = makeSweepProject(scratch);
    auto noHeldout = request({1, 2});
    noHeldout.base.heldout = 0.0;
    auto unigram = request({1, 2});
    unigram.base.model = "unigram";
    unigram.base.options = nlohmann::json::object();
    for (const auto& [bad, phrase] :
         std::vector<std::pair<core::SweepRequest, std::string>>{{request({3}), "at least two"},
                                                                 {request({2, 2}), "all be different"},
                                                                 {request({0, 2}), "--k"},
                                                                 {noHeldout, "--heldout"},
                                                                 {unigram, "no whole-number option --k"}}) {
      try {
        core::runSweep(file, bad, nullptr, {});
        QFAIL("expected a UsageError");
      } catch (const core::UsageError& e) {
        QVERIFY2(std::string(e.what()).find(phrase) != std::string::npos, e.what());
      }
    }
    core::Project p(file, core::Project::Access::ReadOnly);
    QVERIFY(core::listSweeps(p).empty());
    QVERIFY(core::listRuns(p).empty());
  }

  void stopEndsTheSweep() {
    test::Scratch scratch;
    const auto file = makeSweepProject(scratch);
    std::stop_source stop;
    stop.request_stop();
    const auto outcome = core::runSweep(file, request({1, 2, 3}), nullptr, stop.get_token());
    QVERIFY(outcome.stopped);
    QVERIFY(outcome.runs.size() <= 1);
  }
};

LATENT_TEST_CASE(SweepTest)
#include "tst_sweep.moc"
