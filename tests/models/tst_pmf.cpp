// SPDX-License-Identifier: GPL-3.0-or-later
// pmf against hand computation (one SGD step, one ALS solve, the objective), its options,
// determinism, cancellation, held-out ratings, the job runtime, and RatingPredictor.
#include <QtTest>

#include <tbb/task_arena.h>

#include <algorithm>
#include <cmath>

#include "core/eval/rating_split.hpp"
#include "core/jobs/fit_job.hpp"
#include "core/models/fit_data.hpp"
#include "core/models/ratings/factor_model_results.hpp"
#include "core/models/ratings/pmf.hpp"
#include "core/models/ratings/pmf_als.hpp"
#include "core/models/ratings/pmf_sgd.hpp"
#include "core/models/ratings/pmf_synthetic.hpp"
#include "core/store/project.hpp"
#include "core/store/ratings_store.hpp"
#include "core/store/run_store.hpp"
#include "core/util/errors.hpp"
#include "result_matrix.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;
using core::pmf::Parameters;
using core::pmf::TrainingRatings;

namespace {

class PmfObserver final : public core::TrainingObserver {
 public:
  bool onReport(const core::IterationReport& r) override {
    reports.push_back(r);
    return stopAfter == 0 || static_cast<int>(reports.size()) < stopAfter;
  }
  void onSnapshot(std::shared_ptr<const core::ModelSnapshot> s) override { snapshots.push_back(std::move(s)); }
  std::vector<core::IterationReport> reports;
  std::vector<std::shared_ptr<const core::ModelSnapshot>> snapshots;
  int stopAfter = 0;  // ask to stop after this many reports; 0 never
};

core::Ratings generated(std::int32_t users, std::int32_t items, std::int64_t count, std::uint64_t seed = 5) {
  core::pmf::SyntheticRatingsSpec spec;
  spec.users = users;
  spec.items = items;
  spec.ratings = count;
  spec.factors = 3;
  return core::pmf::generateLowRankRatings(spec, seed).ratings;
}

struct Fit {
  core::FitResult result;
  PmfObserver observer;
};

std::unique_ptr<Fit> fitPmf(const core::Ratings& ratings, const nlohmann::json& options, std::uint64_t seed = 1,
                            int threads = 1, double heldout = 0.1, std::stop_token stop = {}, int stopAfter = 0,
                            int evalEvery = 10) {
  auto model = core::pmfModel().make();
  const core::PreparedData prepared(ratings, heldout, seed);
  const core::FitData& data = prepared.data();
  core::FitSettings settings;
  settings.options = core::resolveOptions(model->info(), options);
  settings.seed = seed;
  settings.threads = threads;
  settings.evalEvery = evalEvery;
  auto fit = std::make_unique<Fit>();
  fit->observer.stopAfter = stopAfter;
  tbb::task_arena arena(threads);
  arena.execute([&] { fit->result = model->fit(data, settings, fit->observer, stop); });
  return fit;
}

bool sameMatrices(const core::FitResult& a, const core::FitResult& b) {
  if (a.matrices.size() != b.matrices.size()) return false;
  for (std::size_t k = 0; k < a.matrices.size(); ++k)
    if (a.matrices[k].name != b.matrices[k].name || a.matrices[k].values != b.matrices[k].values) return false;
  return true;
}

QString usageMessage(const nlohmann::json& options) {
  try {
    core::resolveOptions(core::pmfModel().info(), options);
  } catch (const core::UsageError& e) {
    return QString::fromStdString(e.what());
  }
  return {};
}

// Two users, two items: (0,0) 4, (0,1) 2, (1,0) 5.
core::Ratings tinyRatings() {
  core::Ratings r;
  r.userIds = {"a", "b"};
  r.itemIds = r.itemNames = {"x", "y"};
  r.ratings = {{0, 0, 4.0, 0}, {0, 1, 2.0, 0}, {1, 0, 5.0, 0}};
  return r;
}

}  // namespace

class PmfTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void sgdStepByHand() {
    // K = 2 in rows padded to 4 floats.
    float u[4] = {0.5f, -1.0f, 0.0f, 0.0f}, v[4] = {2.0f, 0.5f, 0.0f, 0.0f};
    float bu = 0.1f, bi = -0.2f;
    // prediction 0.1 - 0.2 + (1 - 0.5) = 0.4, e = 1 - 0.4 = 0.6
    const float e = core::pmf::sgdStep(u, v, bu, bi, 4, 1.0f, 0.1f, 0.2f, 0.4f, 0.5f, 1.0f);
    QVERIFY(std::abs(e - 0.6f) < 1e-6f);
    QVERIFY(std::abs(bu - 0.155f) < 1e-6f);   // 0.1 + 0.1 (0.6 - 0.5 * 0.1)
    QVERIFY(std::abs(bi + 0.12f) < 1e-6f);    // -0.2 + 0.1 (0.6 + 1.0 * 0.2)
    QVERIFY(std::abs(u[0] - 0.61f) < 1e-6f);  // 0.5 + 0.1 (0.6 * 2 - 0.2 * 0.5)
    QVERIFY(std::abs(u[1] + 0.95f) < 1e-6f);  // -1 + 0.1 (0.6 * 0.5 + 0.2 * 1)
    QVERIFY(std::abs(v[0] - 1.95f) < 1e-6f);  // 2 + 0.1 (0.6 * 0.5 - 0.4 * 2), old u
    QVERIFY(std::abs(v[1] - 0.42f) < 1e-6f);  // 0.5 + 0.1 (0.6 * -1 - 0.4 * 0.5), old u
    QCOMPARE(u[2], 0.0f);
    QCOMPARE(v[3], 0.0f);
  }

  void sgdPenaltiesPerVisit() {
    const auto r = tinyRatings();
    const auto data = TrainingRatings::build(r.ratings, 2, 2);
    core::pmf::Regularization reg{2.0, 1.0, core::pmf::Penalty::Prior};
    auto p = core::pmf::SgdPenalties::from(data, reg);
    // Once per user: user a has 2 ratings, so each visit takes half of lambda.
    QCOMPARE(p.userFactor[0], 1.0f);
    QCOMPARE(p.userFactor[1], 2.0f);
    QCOMPARE(p.itemBias[0], 0.5f);
    QCOMPARE(p.itemBias[1], 1.0f);
    reg.penalty = core::pmf::Penalty::PerRating;
    p = core::pmf::SgdPenalties::from(data, reg);
    QCOMPARE(p.userFactor[0], 2.0f);
    QCOMPARE(p.itemBias[0], 1.0f);
  }

  void oneEpochOfOneRatingIsOneStep() {
    core::Ratings r;
    r.userIds = {"a"};
    r.itemIds = r.itemNames = {"x"};
    r.ratings = {{0, 0, 3.0, 0}};
    const auto data = TrainingRatings::build(r.ratings, 1, 1);
    QCOMPARE(data.mean, 3.0);
    auto params = Parameters::initial(data, 2, 0.5, 9);
    auto expected = params;
    core::pmf::SgdSolver solver(data, {0.3, 0.2, core::pmf::Penalty::Prior}, 1, 9);
    QVERIFY(solver.epoch(params, 0.05f, 1, {}));
    core::pmf::sgdStep(expected.users.row(0), expected.items.row(0), expected.userBias[0], expected.itemBias[0], 4,
                       0.0f, 0.05f, 0.3f, 0.3f, 0.2f, 0.2f);
    QVERIFY(params.users.values == expected.users.values);
    QVERIFY(params.items.values == expected.items.values);
    QCOMPARE(params.userBias[0], expected.userBias[0]);
  }

  void alsSolveByHand() {
    // K = 1. The other side: factors 1, 2, -1, biases 0.5, 0, -0.5; centred ratings 1, 2, 0.
    core::pmf::FactorTable other;
    other.resize(3, 1);
    other.row(0)[0] = 1.0f;
    other.row(1)[0] = 2.0f;
    other.row(2)[0] = -1.0f;
    const std::vector<float> otherBias{0.5f, 0.0f, -0.5f};
    const std::vector<std::int32_t> neighbours{0, 1, 2};
    const std::vector<float> targets{1.0f, 2.0f, 0.0f};
    float row[4] = {9.0f, 9.0f, 9.0f, 9.0f};
    float bias = 9.0f;
    core::pmf::AlsScratch scratch;
    core::pmf::alsSolveRow(other, otherBias, neighbours, targets, 1.0, 2.0, row, bias, scratch);
    // [sum f^2 + 1, sum f; sum f, n + 2] = [7, 2; 2, 5]; rhs [sum f (t - c), sum (t - c)] = [4, 3].
    // Cramer: det 31, w = (4*5 - 2*3) / 31, b = (7*3 - 2*4) / 31.
    QVERIFY(std::abs(row[0] - 14.0f / 31.0f) < 1e-6f);
    QVERIFY(std::abs(bias - 13.0f / 31.0f) < 1e-6f);
    QCOMPARE(row[1], 9.0f);  // padding untouched
    // No ratings: zeros.
    core::pmf::alsSolveRow(other, otherBias, {}, {}, 1.0, 2.0, row, bias, scratch);
    QCOMPARE(row[0], 0.0f);
    QCOMPARE(bias, 0.0f);
  }

  void trainingLayoutAndObjectiveByHand() {
    const auto r = tinyRatings();
    const auto data = TrainingRatings::build(r.ratings, 2, 2);
    QCOMPARE(data.count, std::int64_t{3});
    QCOMPARE(data.mean, 11.0 / 3.0);
    QCOMPARE(data.low, 2.0);
    QCOMPARE(data.high, 5.0);
    QCOMPARE(data.userStart, (std::vector<std::int64_t>{0, 2, 3}));
    QCOMPARE(data.itemStart, (std::vector<std::int64_t>{0, 2, 3}));
    QCOMPARE(data.itemUsers, (std::vector<std::int32_t>{0, 1, 0}));
    QCOMPARE(data.userValues[1], static_cast<float>(2.0 - 11.0 / 3.0));

    auto p = Parameters::initial(data, 1, 0.0, 1);
    p.users.row(0)[0] = 1.0f;
    p.users.row(1)[0] = 0.5f;
    p.items.row(0)[0] = 0.5f;
    p.items.row(1)[0] = -1.0f;
    p.userBias = {0.2f, -0.1f};
    p.itemBias = {0.1f, 0.3f};
    const double mu = 11.0 / 3.0;
    const double e1 = 4.0 - (mu + 0.2 + 0.1 + 0.5), e2 = 2.0 - (mu + 0.2 + 0.3 - 1.0),
                 e3 = 5.0 - (mu - 0.1 + 0.1 + 0.25);
    const double squares = e1 * e1 + e2 * e2 + e3 * e3;
    auto fit = core::pmf::trainingFit(data, p, {2.0, 1.0, core::pmf::Penalty::Prior});
    QVERIFY(std::abs(fit.rmse - std::sqrt(squares / 3)) < 1e-6);
    // 2 (1 + 0.25) + 2 (0.25 + 1) + (0.04 + 0.01) + (0.01 + 0.09)
    QVERIFY(std::abs(fit.objective - (squares + 5.15) / 3) < 1e-6);
    // Per rating: user a and item x have 2 ratings each.
    // 2 (2 * 1 + 0.25) + 2 (2 * 0.25 + 1) + (2 * 0.04 + 0.01) + (2 * 0.01 + 0.09)
    fit = core::pmf::trainingFit(data, p, {2.0, 1.0, core::pmf::Penalty::PerRating});
    QVERIFY(std::abs(fit.objective - (squares + 7.7) / 3) < 1e-6);

    // Predictions are clipped to the training range [2, 5] for the RMSE, not for the objective.
    p.userBias[0] = 10.0f;
    const double raw = mu + 10.0 + 0.1 + 0.5;
    QVERIFY(std::abs(p.predict(0, 0) - 5.0) < 1e-12);
    QVERIFY(std::abs(p.predictRaw(0, 0) - raw) < 1e-5);
    const std::vector<core::Rating> test{{0, 0, 4.0, 0}};
    QVERIFY(std::abs(core::pmf::heldoutRmse(test, p) - 1.0) < 1e-12);
  }

  void optionsAndErrors() {
    const auto resolved = core::resolveOptions(core::pmfModel().info(), nlohmann::json::object());
    QCOMPARE(resolved["k"].get<int>(), 20);
    QCOMPARE(resolved["implicit"].get<bool>(), true);  // SVD++ user factors (tst_pmf_implicit.cpp)
    QCOMPARE(resolved["solver"].get<std::string>(), std::string("als"));
    QCOMPARE(resolved["regularization"].get<std::string>(), std::string("prior"));
    QCOMPARE(core::pmfModel().info().heldoutKey, std::string("heldout_rmse"));
    QVERIFY(core::createModel("pmf") != nullptr);
    QCOMPARE(usageMessage({{"k", -1}}), QString("option --k of pmf must be between 0 and 1000 (got -1)"));
    QCOMPARE(usageMessage({{"solver", "newton"}}),
             QString("option --solver of pmf must be one of: als, sgd (got \"newton\")"));
    QCOMPARE(usageMessage({{"learning_rate", 0}}),
             QString("option --learning-rate of pmf must be greater than 0 and at most 1 (got 0)"));
    QCOMPARE(usageMessage({{"lambda", -0.5}}),
             QString("option --lambda of pmf must be between 0 and 100000 (got -0.5)"));
    QCOMPARE(usageMessage({{"regularization", "l1"}}),
             QString("option --regularization of pmf must be one of: prior, per-rating (got \"l1\")"));
    QVERIFY(usageMessage({{"alpha", 1}}).startsWith("model pmf has no option --alpha"));
    QCOMPARE(core::PmfOptions{}.blocksFor(1), 1);
    QCOMPARE(core::PmfOptions{}.blocksFor(3), 6);
    core::PmfOptions fixed;
    fixed.blocks = 5;
    QCOMPARE(fixed.blocksFor(8), 5);
  }

  void resultsReportsAndSnapshots() {
    const auto ratings = generated(60, 40, 1200);
    const auto fit = fitPmf(ratings, {{"k", 4}, {"iterations", 7}, {"snapshot_every", 2}}, 3, 1, 0.2, {}, 0, 3);
    const auto& r = fit->result;
    QVERIFY(r.status == core::FitStatus::MaxIterations);
    QCOMPARE(r.iterations, std::int64_t{7});
    QCOMPARE(test::resultMatrix(r, core::kUserFactors).rows(), Eigen::Index{60});
    QCOMPARE(test::resultMatrix(r, core::kUserFactors).cols(), Eigen::Index{4});
    QCOMPARE(test::resultMatrix(r, core::kItemFactors).rows(), Eigen::Index{40});
    QCOMPARE(test::resultMatrix(r, core::kItemBias).cols(), Eigen::Index{1});
    QCOMPARE(test::resultMatrix(r, core::kRegularization), (Eigen::MatrixXd(1, 3) << 30.0, 10.0, 0.0).finished());
    QCOMPARE(test::resultMatrix(r, core::kItemImplicit).rows(), Eigen::Index{40});  // implicit feedback is the default

    // Reports every pass; the held-out RMSE at 3, 6 and the last; ALS never raises the objective.
    const auto& reports = fit->observer.reports;
    QCOMPARE(reports.size(), std::size_t{7});
    for (std::size_t k = 0; k < reports.size(); ++k) {
      QCOMPARE(reports[k].iteration, std::int64_t(k + 1));
      QCOMPARE(reports[k].heldout.has_value(), k == 2 || k == 5 || k == 6);
      QCOMPARE(reports[k].extras.at(0).first, std::string("train_rmse"));
      if (k > 0)
        QVERIFY2(reports[k].trainObjective <= reports[k - 1].trainObjective * (1 + 1e-6),
                 qPrintable(QString::number(k)));
    }
    QCOMPARE(fit->observer.snapshots.size(), std::size_t{3});
    QCOMPARE(fit->observer.snapshots[1]->iteration, std::int64_t{4});
    QCOMPARE(fit->observer.snapshots[1]->matrices.size(), std::size_t{7});

    // Final metrics recomputed independently from the same split.
    const auto split = core::splitRatings(ratings, 0.2, 3);
    const auto& m = r.finalMetrics;
    QCOMPARE(m["heldout_ratings"].get<std::size_t>(), split.test.size());
    QCOMPARE(m["train_ratings"].get<std::size_t>(), split.train.size());
    double mean = 0.0;
    for (const auto& x : split.train) mean += x.value;
    mean /= double(split.train.size());
    double squares = 0.0;
    for (const auto& x : split.test) squares += (x.value - mean) * (x.value - mean);
    QVERIFY(std::abs(m["baseline_global_mean_rmse"].get<double>() - std::sqrt(squares / double(split.test.size()))) <
            1e-9);
    QCOMPARE(m["heldout_rmse"].get<double>(), *reports.back().heldout);
    const core::RatingPredictor predictor(r.matrices);
    squares = 0.0;
    for (const auto& x : split.test) squares += std::pow(x.value - predictor.predict(x.user, x.item), 2);
    QVERIFY(std::abs(m["heldout_rmse"].get<double>() - std::sqrt(squares / double(split.test.size()))) < 1e-5);

    // The bias-only baseline: plain backfitting of ridge biases (lambda_bias 10, once per row),
    // predictions clipped to the training range.
    std::vector<double> bu(60, 0.0), bi(40, 0.0), nu(60, 0.0), ni(40, 0.0);
    double low = 1e300, high = -1e300;
    for (const auto& x : split.train) {
      nu[x.user] += 1;
      ni[x.item] += 1;
      low = std::min(low, x.value);
      high = std::max(high, x.value);
    }
    for (int sweep = 0; sweep < 500; ++sweep) {
      std::vector<double> su(60, 0.0), si(40, 0.0);
      for (const auto& x : split.train) su[x.user] += x.value - mean - bi[x.item];
      for (int u = 0; u < 60; ++u) bu[u] = su[u] / (nu[u] + 10.0);
      for (const auto& x : split.train) si[x.item] += x.value - mean - bu[x.user];
      for (int i = 0; i < 40; ++i) bi[i] = si[i] / (ni[i] + 10.0);
    }
    squares = 0.0;
    for (const auto& x : split.test)
      squares += std::pow(x.value - std::clamp(mean + bu[x.user] + bi[x.item], low, high), 2);
    QVERIFY2(std::abs(m["baseline_bias_rmse"].get<double>() - std::sqrt(squares / double(split.test.size()))) < 1e-5,
             m.dump().c_str());
  }

  void heldoutRatingsAreNeverSeen() {
    // Changing the held-out ratings changes the held-out RMSE and nothing that was fitted.
    auto ratings = generated(50, 30, 900);
    const auto split = core::splitRatings(ratings, 0.2, 4);
    auto changed = ratings;
    for (auto& r : changed.ratings)
      if (std::find(split.test.begin(), split.test.end(), r) != split.test.end()) r.value += 3.0;
    for (const std::string solver : {"als", "sgd"}) {
      const auto a = fitPmf(ratings, {{"k", 3}, {"iterations", 5}, {"solver", solver}}, 4, 1, 0.2);
      const auto b = fitPmf(changed, {{"k", 3}, {"iterations", 5}, {"solver", solver}}, 4, 1, 0.2);
      QVERIFY(sameMatrices(a->result, b->result));
      QVERIFY(a->result.finalMetrics["heldout_rmse"] != b->result.finalMetrics["heldout_rmse"]);
    }
  }

  void determinism() {
    const auto ratings = generated(300, 200, 6000);
    // ALS solves rows independently: any thread count gives the same numbers.
    const auto als1 = fitPmf(ratings, {{"k", 5}, {"iterations", 4}}, 7, 1);
    const auto als2 = fitPmf(ratings, {{"k", 5}, {"iterations", 4}}, 7, 2);
    QVERIFY(sameMatrices(als1->result, als2->result));
    QCOMPARE(als1->result.finalMetrics["heldout_rmse"], als2->result.finalMetrics["heldout_rmse"]);
    // SGD depends on the seed and the number of blocks, not on the threads that ran them.
    const nlohmann::json sgd = {{"k", 5}, {"iterations", 4}, {"solver", "sgd"}, {"blocks", 4}};
    const auto sgd1 = fitPmf(ratings, sgd, 7, 1);
    const auto sgd2 = fitPmf(ratings, sgd, 7, 2);
    QVERIFY(sameMatrices(sgd1->result, sgd2->result));
    QCOMPARE(sgd1->result.finalMetrics["blocks"].get<int>(), 4);
    // Default blocks with two threads (B = 4 then): the same again on a second run.
    const nlohmann::json defaults = {{"k", 5}, {"iterations", 4}, {"solver", "sgd"}};
    QVERIFY(sameMatrices(fitPmf(ratings, defaults, 7, 2)->result, fitPmf(ratings, defaults, 7, 2)->result));
    QVERIFY(sameMatrices(fitPmf(ratings, defaults, 7, 2)->result, sgd1->result));
    // Another seed, another start.
    QVERIFY(!sameMatrices(fitPmf(ratings, sgd, 8, 1)->result, sgd1->result));
    QVERIFY(!sameMatrices(fitPmf(ratings, {{"k", 5}, {"iterations", 4}}, 8, 1)->result, als1->result));
  }

  void cancel() {
    const auto ratings = generated(80, 50, 1500);
    std::stop_source before;
    before.request_stop();
    const auto none = fitPmf(ratings, {{"k", 3}}, 1, 1, 0.1, before.get_token());
    QVERIFY(none->result.status == core::FitStatus::Cancelled);
    QCOMPARE(none->result.iterations, std::int64_t{0});
    QVERIFY(none->observer.reports.empty());
    QCOMPARE(test::resultMatrix(none->result, core::kUserFactors).rows(), Eigen::Index{80});

    for (const std::string solver : {"als", "sgd"}) {
      const auto two = fitPmf(ratings, {{"k", 3}, {"solver", solver}}, 1, 1, 0.1, {}, 2);
      QVERIFY(two->result.status == core::FitStatus::Cancelled);
      QCOMPARE(two->result.iterations, std::int64_t{2});
      QCOMPARE(two->observer.reports.size(), std::size_t{2});
    }

    // A stop during a pass ends it within a few chunks (SGD) or before the next range of rows
    // (ALS), not at the end of the pass: a stop requested before the pass leaves almost every
    // row as it was. Counted, not timed, so a slow machine cannot fail it.
    const auto wide = generated(40000, 500, 200000, 9);
    const auto data = TrainingRatings::build(wide.ratings, 40000, 500);
    const core::pmf::Regularization reg{1.0, 1.0, core::pmf::Penalty::Prior};
    std::stop_source stopped;
    stopped.request_stop();
    const auto touchedUsers = [](const Parameters& p) {
      return std::count_if(p.userBias.begin(), p.userBias.end(), [](float b) { return b != 0.0f; });
    };
    for (const int blocks : {1, 4}) {
      core::pmf::SgdSolver solver(data, reg, blocks, 3);
      auto params = Parameters::initial(data, 4, 0.1, 3);
      QVERIFY(!solver.epoch(params, 0.01f, 1, stopped.get_token()));
      // At most 4 chunks of 1024 ratings in each of the B blocks of the first shift.
      QVERIFY2(touchedUsers(params) <= blocks * 4 * 1024, qPrintable(QString::number(touchedUsers(params))));
      auto full = Parameters::initial(data, 4, 0.1, 3);
      QVERIFY(solver.epoch(full, 0.01f, 1, {}));
      QVERIFY(touchedUsers(full) > 30000);
    }
    const core::pmf::AlsSolver als(data, reg);
    auto params = Parameters::initial(data, 4, 0.1, 3);
    const auto start = params;
    QVERIFY(!als.sweep(params, stopped.get_token()));
    QVERIFY(params.users.values == start.users.values);
    QVERIFY(params.items.values == start.items.values);
  }

  void noHeldoutNoHeldoutMetrics() {
    const auto fit = fitPmf(generated(40, 30, 500), {{"k", 2}, {"iterations", 3}}, 1, 1, 0.0);
    QVERIFY(!fit->result.finalMetrics.contains("heldout_rmse"));
    QVERIFY(!fit->result.finalMetrics.contains("baseline_bias_rmse"));
    QVERIFY(fit->result.finalMetrics.contains("train_rmse"));
    for (const auto& r : fit->observer.reports) QVERIFY(!r.heldout);
  }

  void predictorByHand() {
    Eigen::MatrixXd users(2, 1), items(3, 1), userBias(2, 1), itemBias(3, 1), mean(1, 1), range(1, 2);
    users << 1.0, -1.0;
    items << 0.5, 1.0, -0.25;
    userBias << 0.2, -0.1;
    itemBias << 0.0, 0.3, 0.1;
    mean << 3.5;
    range << 1.0, 5.0;
    std::vector<core::NamedMatrix> m{{core::kUserFactors, users}, {core::kItemFactors, items},
                                     {core::kUserBias, userBias}, {core::kItemBias, itemBias},
                                     {core::kGlobalMean, mean},   {core::kRatingRange, range}};
    const core::RatingPredictor p(m);
    QCOMPARE(p.predict(1, 0), 3.5 - 0.1 + 0.0 - 0.5);
    QCOMPARE(p.predict(0, 1), 5.0);  // 3.5 + 0.2 + 0.3 + 1 = 5.0 exactly at the top
    QCOMPARE(p.predict(1, 1), 3.5 - 0.1 + 0.3 - 1.0);
    userBias(0, 0) = 2.0;  // 3.5 + 2 + 0.3 + 1 = 6.8 is clipped to 5
    m[2].values = userBias;
    QCOMPARE(core::RatingPredictor(m).predict(0, 1), 5.0);

    // recommend: never an item the user rated; best first; ties by item index.
    const std::vector<std::int32_t> rated{1};
    auto list = p.recommend(0, rated, 10);
    QCOMPARE(list.size(), std::size_t{2});
    QCOMPARE(list[0].first, std::int64_t{0});  // 3.5 + 0.2 + 0.0 + 0.5 = 4.2
    QCOMPARE(list[1].first, std::int64_t{2});  // 3.5 + 0.2 + 0.1 - 0.25 = 3.55
    for (const auto& [item, value] : list) {
      QVERIFY(item != 1);
      QCOMPARE(value, p.predict(0, item));
    }
    QVERIFY(list[0].second >= list[1].second);
    QCOMPARE(p.recommend(1, std::vector<std::int32_t>{0, 1, 2}, 5).size(), std::size_t{0});
    QCOMPARE(p.recommend(1, {}, 1).size(), std::size_t{1});

    // Fold-in with the run's penalty, K = 1: ratings (item 1: 5), (item 2: 2), lambda 1, lambda_bias 2, once.
    // Targets r - mu - b_i: 5 - 3.5 - 0.3 = 1.2 on x = [1, 1]; 2 - 3.5 - 0.1 = -1.6 on x = [-0.25, 1].
    // Gram [1 + 0.0625 + 1, 1 - 0.25; 0.75, 2 + 2] = [2.0625, 0.75; 0.75, 4]; rhs [1.2 + 0.4, -0.4] = [1.6, -0.4].
    m.push_back({core::kRegularization, (Eigen::MatrixXd(1, 3) << 1.0, 2.0, 0.0).finished()});
    const core::RatingPredictor withPenalty(m);
    const std::vector<std::pair<std::int32_t, double>> given{{1, 5.0}, {2, 2.0}};
    const auto folded = withPenalty.foldInUser(given);
    const double det = 2.0625 * 4 - 0.75 * 0.75;
    QVERIFY(std::abs(folded(0) - (1.6 * 4 - 0.75 * -0.4) / det) < 1e-12);
    QVERIFY(std::abs(folded(1) - (2.0625 * -0.4 - 0.75 * 1.6) / det) < 1e-12);
    QVERIFY(std::abs(withPenalty.predictFolded(folded, 0) - (3.5 + folded(1) + 0.0 + 0.5 * folded(0))) < 1e-12);
    // Per rating: both ridges times the 2 ratings.
    m.back().values(0, 2) = 1.0;
    const auto perRating = core::RatingPredictor(m).foldInUser(given);
    const double det2 = (2.0625 + 1) * (2 + 4) - 0.75 * 0.75;
    QVERIFY(std::abs(perRating(0) - (1.6 * 6 - 0.75 * -0.4) / det2) < 1e-12);
    // Without the stored penalty: lambda 0.05 per rating, as the two-argument call.
    QVERIFY(p.foldInUser(given) == p.foldInUser(given, 0.05));
    QVERIFY_THROWS_EXCEPTION(core::UsageError, p.foldInUser(std::vector<std::pair<std::int32_t, double>>{{7, 1.0}}));
    QVERIFY_THROWS_EXCEPTION(core::UsageError, core::RatingPredictor(std::vector<core::NamedMatrix>{}));
  }

  void throughTheJobRuntime() {
    test::Scratch scratch;
    const auto file = scratch.path("p.latent");
    const auto ratings = generated(120, 80, 3000);
    {
      core::Project project(file);
      core::Transaction tx(project.db());
      const auto id = project.createDataset("gen", core::DataKind::Ratings, "memory", "csv", nlohmann::json::object());
      core::writeRatings(project, id, ratings);
      tx.commit();
    }
    core::RunRequest request;
    request.model = "pmf";
    request.dataset = "gen";
    request.options = {{"k", 4}, {"iterations", 12}};
    request.threads = 2;
    request.heldout = 0.1;
    request.seed = 11;
    const auto outcome = core::runFit(file, request, nullptr, {});
    QVERIFY(outcome.run.status == core::RunStatus::Finished);
    for (const char* key : {"heldout_rmse", "train_rmse", "baseline_global_mean_rmse", "baseline_bias_rmse"})
      QVERIFY2(outcome.run.finalMetrics.contains(key), key);
    core::Project p(file, core::Project::Access::ReadOnly);
    const auto stored = core::loadMatrix(p, outcome.run.id, core::kItemFactors);
    QVERIFY(stored && *stored == test::resultMatrix(outcome.result, core::kItemFactors));
    const auto listed = core::listMatrices(p, outcome.run.id);
    QVERIFY(std::find(listed.begin(), listed.end(), std::pair<std::string, std::int64_t>{core::kUserFactors, 10}) !=
            listed.end());
    // The same fit outside the runtime: identical numbers.
    const auto direct = fitPmf(ratings, request.options, 11, 2, 0.1);
    QVERIFY(sameMatrices(direct->result, outcome.result));
  }
};

LATENT_TEST_CASE(PmfTest)
#include "tst_pmf.moc"
