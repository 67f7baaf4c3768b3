// SPDX-License-Identifier: GPL-3.0-or-later
// The categorical RBM for ratings (rbm-ratings) against the truth on models small enough to
// enumerate: both conditionals against the energy (000 eq. 27.105-27.107), long CD against the
// likelihood's gradient summed over the hidden states; two groups of users with opposite tastes
// fitted back; the same numbers on any thread count; held-out ratings never seen; stopping,
// snapshots and the predictor of stored runs against the fit's own held-out RMSE.
#include <QtTest>

#include <tbb/task_arena.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "core/eval/rating_split.hpp"
#include "core/models/fit_data.hpp"
#include "core/models/harmonium/ratings_rbm.hpp"
#include "core/models/harmonium/ratings_rbm_training.hpp"
#include "core/models/harmonium/rbm_ratings.hpp"
#include "core/results/factor_results.hpp"
#include "core/results/hidden_results.hpp"
#include "core/util/errors.hpp"
#include "core/util/random.hpp"
#include "result_matrix.hpp"
#include "test_case.hpp"

using namespace latent;
namespace hm = latent::core::harmonium;

namespace {

class RatingsRbmObserver final : public core::TrainingObserver {
 public:
  bool onReport(const core::IterationReport& r) override {
    reports.push_back(r);
    return stopAfter == 0 || static_cast<int>(reports.size()) < stopAfter;
  }
  void onSnapshot(std::shared_ptr<const core::ModelSnapshot> s) override { snapshots.push_back(std::move(s)); }
  std::vector<core::IterationReport> reports;
  std::vector<std::shared_ptr<const core::ModelSnapshot>> snapshots;
  int stopAfter = 0;
};

struct RatingsRbmFit {
  core::FitResult result;
  RatingsRbmObserver observer;
};

std::unique_ptr<RatingsRbmFit> fitRatingsRbm(const core::Ratings& ratings, const nlohmann::json& options,
                                             std::uint64_t seed = 1, int threads = 1, double heldout = 0.1,
                                             std::stop_token stop = {}, int stopAfter = 0) {
  auto model = core::rbmRatingsModel().make();
  const core::PreparedData prepared(ratings, heldout, seed);
  core::FitSettings settings;
  settings.options = core::resolveOptions(model->info(), options);
  settings.seed = seed;
  settings.threads = threads;
  settings.evalEvery = 5;
  auto fit = std::make_unique<RatingsRbmFit>();
  fit->observer.stopAfter = stopAfter;
  tbb::task_arena arena(threads);
  arena.execute([&] { fit->result = model->fit(prepared.data(), settings, fit->observer, stop); });
  return fit;
}

// Two groups of users with opposite tastes: items of even index are loved (5) by group 0 and
// hated (1) by group 1, odd items the other way round; each rating moves one level towards the
// middle with probability `noise`. Every user rates each item with probability `density`.
core::Ratings oppositeTastes(std::int32_t users, std::int32_t items, double density, double noise, std::uint64_t seed) {
  core::Ratings r;
  core::Rng rng(seed);
  for (std::int32_t u = 0; u < users; ++u) r.userIds.push_back("u" + std::to_string(u));
  for (std::int32_t i = 0; i < items; ++i) {
    r.itemIds.push_back("i" + std::to_string(i));
    r.itemNames.push_back(r.itemIds.back());
  }
  for (std::int32_t u = 0; u < users; ++u)
    for (std::int32_t i = 0; i < items; ++i) {
      if (rng.uniform() >= density) continue;
      const bool loves = (u % 2) == (i % 2);
      double value = loves ? 5.0 : 1.0;
      if (rng.uniform() < noise) value += loves ? -1.0 : 1.0;
      r.ratings.push_back({u, i, value, 0});
    }
  return r;
}

hm::RatingsRbmParameters randomRatingsRbm(Eigen::Index items, Eigen::Index levels, Eigen::Index hidden, double scale,
                                          std::uint64_t seed) {
  core::Rng rng(seed);
  hm::RatingsRbmParameters p(items, levels, hidden);
  for (Eigen::Index r = 0; r < p.weights.rows(); ++r)
    for (Eigen::Index k = 0; k < hidden; ++k) p.weights(r, k) = scale * rng.normal();
  for (Eigen::Index i = 0; i < items; ++i)
    for (Eigen::Index r = 0; r < levels; ++r) p.visibleBias(i, r) = 0.5 * rng.normal();
  for (Eigen::Index k = 0; k < hidden; ++k) p.hiddenBias[k] = 0.3 * rng.normal();
  return p;
}

Eigen::VectorXd ratingsHiddenState(std::uint64_t state, Eigen::Index K) {
  Eigen::VectorXd h(K);
  for (Eigen::Index k = 0; k < K; ++k) h[k] = static_cast<double>(state >> k & 1U);
  return h;
}

// E(v, h) of eq. 27.105 over the rated items.
double ratingsEnergy(const hm::RatingsRbmParameters& p, const std::vector<std::int32_t>& items,
                     const std::vector<std::int32_t>& levels, const Eigen::VectorXd& h) {
  double e = -p.hiddenBias.dot(h);
  for (std::size_t j = 0; j < items.size(); ++j)
    e -= p.visibleBias(items[j], levels[j]) + p.weights.row(p.row(items[j], levels[j])).dot(h);
  return e;
}

// The exact gradient of mean_u log p(v_u) (each user's RBM over the items it rated), the model's
// expectations summed over the 2^K hidden states: p_u(h) is proportional to
// exp(c.h) prod_i sum_r exp(b_i^r + W_i^r . h).
hm::RatingsRbmParameters exactRatingsGradient(const hm::RatingsRbmParameters& p, const hm::UserRatings& data) {
  const Eigen::Index K = p.hidden(), R = p.levels;
  hm::RatingsRbmParameters g(p.items(), R, K);
  const auto states = std::uint64_t{1} << K;
  Eigen::VectorXd hidden(K), probabilities(R);
  for (std::int32_t u = 0; u < data.users; ++u) {
    const std::vector<std::int32_t> items(data.item.begin() + data.start[u], data.item.begin() + data.start[u + 1]);
    const std::vector<std::int32_t> levels(data.level.begin() + data.start[u], data.level.begin() + data.start[u + 1]);
    hm::ratingsHiddenProbabilities(p, items, levels, hidden);
    for (std::size_t j = 0; j < items.size(); ++j) {
      g.weights.row(p.row(items[j], levels[j])) += hidden.transpose();
      g.visibleBias(items[j], levels[j]) += 1.0;
    }
    g.hiddenBias += hidden;
    std::vector<double> logWeight(states);
    for (std::uint64_t s = 0; s < states; ++s) {
      const Eigen::VectorXd h = ratingsHiddenState(s, K);
      double w = p.hiddenBias.dot(h);
      for (const auto i : items) {
        const Eigen::VectorXd logits = p.visibleBias.row(i).transpose() + p.weights.middleRows(i * R, R) * h;
        const double top = logits.maxCoeff();
        w += top + std::log((logits.array() - top).exp().sum());
      }
      logWeight[s] = w;
    }
    const double top = *std::max_element(logWeight.begin(), logWeight.end());
    double total = 0.0;
    for (auto& w : logWeight) total += w = std::exp(w - top);
    for (std::uint64_t s = 0; s < states; ++s) {
      const double weight = logWeight[s] / total;
      const Eigen::VectorXd h = ratingsHiddenState(s, K);
      g.hiddenBias -= weight * h;
      for (const auto i : items) {
        hm::ratingsLevelProbabilities(p, i, h, probabilities);
        for (Eigen::Index r = 0; r < R; ++r) {
          g.weights.row(p.row(i, r)) -= weight * probabilities[r] * h.transpose();
          g.visibleBias(i, r) -= weight * probabilities[r];
        }
      }
    }
  }
  const double scale = 1.0 / double(data.users);
  g.weights *= scale;
  g.visibleBias *= scale;
  g.hiddenBias *= scale;
  return g;
}

bool sameResults(const core::FitResult& a, const core::FitResult& b) {
  if (a.matrices.size() != b.matrices.size()) return false;
  for (std::size_t k = 0; k < a.matrices.size(); ++k)
    if (a.matrices[k].name != b.matrices[k].name || a.matrices[k].values != b.matrices[k].values) return false;
  return true;
}

}  // namespace

class RbmRatingsTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void conditionalsFollowTheEnergy() {
    const auto p = randomRatingsRbm(3, 4, 3, 0.8, 11);
    const std::vector<std::int32_t> items{0, 2}, levels{3, 1};
    // p(h_k = 1 | v) by summing exp(-E) over the hidden states.
    Eigen::VectorXd byEnergy = Eigen::VectorXd::Zero(3);
    double total = 0.0;
    for (std::uint64_t s = 0; s < 8; ++s) {
      const auto h = ratingsHiddenState(s, 3);
      const double w = std::exp(-ratingsEnergy(p, items, levels, h));
      total += w;
      byEnergy += w * h;
    }
    byEnergy /= total;
    Eigen::VectorXd hidden(3);
    hm::ratingsHiddenProbabilities(p, items, levels, hidden);
    QVERIFY2((hidden - byEnergy).cwiseAbs().maxCoeff() < 1e-12, "p(h | v)");
    // p(v_2 = r | h, v_0) by exp(-E) over the four levels of item 2.
    const Eigen::VectorXd h = ratingsHiddenState(5, 3);
    Eigen::VectorXd levelsByEnergy(4), probabilities(4);
    for (std::int32_t r = 0; r < 4; ++r) levelsByEnergy[r] = std::exp(-ratingsEnergy(p, items, {3, r}, h));
    levelsByEnergy /= levelsByEnergy.sum();
    hm::ratingsLevelProbabilities(p, 2, h, probabilities);
    QVERIFY2((probabilities - levelsByEnergy).cwiseAbs().maxCoeff() < 1e-12, "p(v | h)");
    const std::vector<double> values{1.0, 2.0, 3.0, 4.0};
    QVERIFY(std::abs(hm::ratingsExpectedRating(p, values, 2, h) -
                     (probabilities[0] + 2 * probabilities[1] + 3 * probabilities[2] + 4 * probabilities[3])) < 1e-12);
  }

  void longContrastiveDivergenceApproachesTheExactGradient() {
    // Three kinds of users over four items with three levels, 4000 of each; K = 3.
    const auto p = randomRatingsRbm(4, 3, 3, 0.7, 5);
    std::vector<core::Rating> ratings;
    const std::vector<std::vector<std::pair<std::int32_t, double>>> kinds{
        {{0, 1.0}, {1, 3.0}}, {{1, 2.0}, {2, 2.0}, {3, 3.0}}, {{0, 3.0}, {3, 1.0}}};
    const std::int32_t users = 12000;
    for (std::int32_t u = 0; u < users; ++u)
      for (const auto& [item, value] : kinds[static_cast<std::size_t>(u % 3)]) ratings.push_back({u, item, value, 0});
    const auto data = hm::UserRatings::build(ratings, users, 4, {1.0, 2.0, 3.0});
    const auto exact = exactRatingsGradient(p, data);

    hm::ContrastiveDivergence cd;
    cd.gibbsSteps = 40;
    hm::RatingsRbmTrainer trainer(cd, p, 9);
    std::vector<Eigen::Index> rows(static_cast<std::size_t>(users));
    std::iota(rows.begin(), rows.end(), Eigen::Index{0});
    const auto estimate = trainer.gradient(data, rows);
    const double weightError = (estimate.weights - exact.weights).cwiseAbs().maxCoeff();
    const double biasError = (estimate.visibleBias - exact.visibleBias).cwiseAbs().maxCoeff();
    const double hiddenError = (estimate.hiddenBias - exact.hiddenBias).cwiseAbs().maxCoeff();
    QVERIFY2(weightError < 0.02 && biasError < 0.02 && hiddenError < 0.02,
             qPrintable(QString("%1 %2 %3 (gradient up to %4)")
                            .arg(weightError)
                            .arg(biasError)
                            .arg(hiddenError)
                            .arg(exact.visibleBias.cwiseAbs().maxCoeff())));
    // And CD-1 is not the exact gradient here: the test can tell them apart.
    QVERIFY(exact.visibleBias.cwiseAbs().maxCoeff() > 0.1);
  }

  void oppositeTastesAreFittedBack() {
    const auto ratings = oppositeTastes(300, 30, 0.5, 0.1, 3);
    const auto fit =
        fitRatingsRbm(ratings, {{"k", 4}, {"iterations", 30}, {"batch_size", 10}, {"learning_rate", 0.1}}, 2, 2, 0.2);
    const auto& m = fit->result.finalMetrics;
    QVERIFY(fit->result.status == core::FitStatus::MaxIterations);
    const double rmse = m[core::kHeldoutRmse].get<double>();
    const double itemMean = m["baseline_item_mean_rmse"].get<double>();
    // Item means sit near 3 for every item (about 2 off every rating); the groups' tastes are
    // known from a user's other ratings.
    QVERIFY2(itemMean > 1.5 && rmse < 0.25 * itemMean, m.dump().c_str());
    QVERIFY2(m["train_rmse"].get<double>() < 0.25 * itemMean, m.dump().c_str());
    QCOMPARE(test::resultMatrix(fit->result, core::hidden::kHiddenActivations).rows(), Eigen::Index{300});
    QCOMPARE(test::resultMatrix(fit->result, core::hidden::kRatingWeights).rows(), Eigen::Index{30 * 4});
    QCOMPARE(test::resultMatrix(fit->result, core::hidden::kRatingLevels),
             (Eigen::MatrixXd(1, 4) << 1.0, 2.0, 4.0, 5.0).finished());
  }

  void sameResultsOnAnyThreadCount() {
    const auto ratings = oppositeTastes(120, 20, 0.5, 0.2, 8);
    const nlohmann::json options{{"k", 5}, {"iterations", 4}, {"batch_size", 16}, {"cd_steps", 2}};
    const auto one = fitRatingsRbm(ratings, options, 4, 1);
    const auto three = fitRatingsRbm(ratings, options, 4, 3);
    QVERIFY(sameResults(one->result, three->result));
    QCOMPARE(one->result.finalMetrics.dump(), three->result.finalMetrics.dump());
    const auto otherSeed = fitRatingsRbm(ratings, options, 5, 1);
    QVERIFY(!sameResults(one->result, otherSeed->result));
  }

  void heldoutRatingsAreNeverSeen() {
    // Moving the held-out ratings to another level changes the held-out RMSE and nothing fitted.
    const auto ratings = oppositeTastes(80, 16, 0.6, 0.2, 6);
    const auto split = core::splitRatings(ratings, 0.2, 4);
    auto changed = ratings;
    for (auto& r : changed.ratings)
      if (std::find(split.test.begin(), split.test.end(), r) != split.test.end()) r.value = 6.0 - r.value;
    const nlohmann::json options{{"k", 3}, {"iterations", 3}};
    const auto a = fitRatingsRbm(ratings, options, 4, 1, 0.2);
    const auto b = fitRatingsRbm(changed, options, 4, 1, 0.2);
    QVERIFY(sameResults(a->result, b->result));
    QVERIFY(a->result.finalMetrics[core::kHeldoutRmse] != b->result.finalMetrics[core::kHeldoutRmse]);
  }

  void reportsSnapshotsAndStopping() {
    const auto ratings = oppositeTastes(60, 12, 0.6, 0.2, 2);
    const auto fit = fitRatingsRbm(ratings, {{"k", 3}, {"iterations", 6}, {"snapshot_every", 2}}, 1, 1, 0.2);
    const auto& reports = fit->observer.reports;
    QCOMPARE(reports.size(), std::size_t{6});
    for (std::size_t k = 0; k < reports.size(); ++k) {
      QCOMPARE(reports[k].heldout.has_value(), k == 4 || k == 5);
      QVERIFY(reports[k].trainObjective > 0.0 && reports[k].trainObjective < 4.0);
    }
    QCOMPARE(*reports.back().heldout, fit->result.finalMetrics[core::kHeldoutRmse].get<double>());
    QCOMPARE(fit->observer.snapshots.size(), std::size_t{3});
    QCOMPARE(fit->observer.snapshots[0]->matrices.size(), std::size_t{4});

    // A stop from the observer after two epochs, and one before the first.
    const auto stopped = fitRatingsRbm(ratings, {{"k", 3}, {"iterations", 50}}, 1, 1, 0.2, {}, 2);
    QVERIFY(stopped->result.status == core::FitStatus::Cancelled);
    QCOMPARE(stopped->result.iterations, std::int64_t{2});
    QVERIFY(stopped->result.finalMetrics.contains(core::kHeldoutRmse));
    // On the heap: GCC 12 warns (wrongly) of an uninitialised stop_source on the stack when this test
    // is compiled in one unity file with some others.
    const auto source = std::make_unique<std::stop_source>();
    source->request_stop();
    const auto never = fitRatingsRbm(ratings, {{"k", 3}, {"iterations", 50}}, 1, 1, 0.2, source->get_token());
    QVERIFY(never->result.status == core::FitStatus::Cancelled);
    QCOMPARE(never->result.iterations, std::int64_t{0});
    QCOMPARE(test::resultMatrix(never->result, core::hidden::kRatingWeights).rows(), Eigen::Index{12 * 4});
  }

  void predictorAgreesWithTheFit() {
    const auto ratings = oppositeTastes(100, 20, 0.5, 0.2, 12);
    const auto fit =
        fitRatingsRbm(ratings, {{"k", 4}, {"iterations", 20}, {"batch_size", 10}, {"learning_rate", 0.1}}, 7, 1, 0.15);
    const auto split = core::splitRatings(ratings, 0.15, 7);
    const hm::RatingsRbmPredictor predictor(fit->result.matrices, split.train, 100, 20);
    double squares = 0.0;
    for (const auto& r : split.test) squares += std::pow(r.value - predictor.predict(r.user, r.item), 2);
    QCOMPARE(std::sqrt(squares / double(split.test.size())),
             fit->result.finalMetrics[core::kHeldoutRmse].get<double>());
    // Folding a user in from its own training ratings gives its predictions.
    std::vector<std::pair<std::int32_t, double>> given;
    for (const auto& r : split.train)
      if (r.user == 3) given.emplace_back(r.item, r.value);
    const auto hidden = predictor.foldInUser(given);
    for (std::int64_t i = 0; i < 20; ++i) QCOMPARE(predictor.predictFolded(hidden, i), predictor.predict(3, i));
    // The stored activations are the users' mean-field.
    QVERIFY((test::resultMatrix(fit->result, core::hidden::kHiddenActivations).row(3).transpose() - hidden)
                .cwiseAbs()
                .maxCoeff() < 1e-12);
    // User 3 is in group 1: it is recommended odd items first.
    std::vector<std::int32_t> rated;
    for (const auto& r : ratings.ratings)
      if (r.user == 3) rated.push_back(r.item);
    const auto top = predictor.recommend(3, rated, 3);
    QVERIFY(!top.empty());
    for (const auto& [item, value] : top) QVERIFY2(item % 2 == 1, qPrintable(QString::number(item)));
  }

  void tooManyLevelsIsAnError() {
    core::Ratings r = oppositeTastes(10, 10, 1.0, 0.0, 1);
    for (std::size_t k = 0; k < r.ratings.size(); ++k) r.ratings[k].value = 0.01 * double(k);
    bool refused = false;
    try {
      fitRatingsRbm(r, {{"iterations", 1}});
    } catch (const core::UsageError& e) {
      refused = QString(e.what()).contains("rating levels");
    }
    QVERIFY(refused);
  }
};

LATENT_TEST_CASE(RbmRatingsTest)
#include "tst_rbm_ratings.moc"
