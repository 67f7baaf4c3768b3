// SPDX-License-Identifier: GPL-3.0-or-later
// The categorical RBM for ratings through the fit driver: an epoch of CD-k per iteration, the
// held-out RMSE of the paper's predictions when due.
#include "core/models/harmonium/rbm_ratings.hpp"

#include <cmath>
#include <vector>

#include "core/eval/rating_split.hpp"
#include "core/models/fit_driver.hpp"
#include "core/models/harmonium/harmonium_support.hpp"
#include "core/models/harmonium/ratings_rbm.hpp"
#include "core/models/harmonium/ratings_rbm_training.hpp"
#include "core/results/factor_results.hpp"
#include "core/util/clock.hpp"

namespace latent::core {
namespace {

using namespace harmonium;

ModelInfo rbmRatingsInfo() {
  ModelInfo info;
  info.name = "rbm-ratings";
  info.kind = DataKind::Ratings;
  info.family = ResultFamily::HiddenUnits;
  info.heldoutKey = kHeldoutRmse;
  info.title = "Categorical RBM for ratings";
  info.description =
      "Every user is a small network of its own: one unit per item it rated, taking one of the rating levels, "
      "linked to on-or-off hidden features whose weights all users share. A rating is predicted as the expected "
      "level given the features the user's other ratings switch on; judged by the error on held-out ratings.";
  info.objectiveName =
      "RMSE of the one-step reconstruction's expected rating on the training ratings (h drawn given the user's "
      "ratings; a monitor, not the likelihood)";
  info.options = RbmRatingsOptions::table().specs();
  return info;
}

class RbmRatingsChain final : public FitChain {
 public:
  RbmRatingsChain(const FitData& data, const RbmRatingsOptions& options, const FitSettings& settings,
                  std::stop_token stop)
      : m_options(options),
        m_seed(settings.seed),
        m_stop(std::move(stop)),
        m_test(data.ratingSplit->test),
        m_train(UserRatings::build(data.ratingSplit->train, static_cast<std::int32_t>(data.ratings->userCount()),
                                   static_cast<std::int32_t>(data.ratings->itemCount()),
                                   ratingLevels(data.ratings->ratings))),
        m_trainer(contrastiveDivergence(options),
                  initialRatingsParameters(m_train, options.hidden, settings.seed, options.initScale), settings.seed) {
    m_metrics["train_ratings"] = m_train.count;
    m_metrics["rating_levels"] = static_cast<std::int64_t>(m_train.levels.size());
  }

  bool step(const StepPlan& plan, IterationReport& report) override {
    shuffledOrder(m_order, m_train.users, m_seed, plan.iteration);
    const double rate = learningRateAt(m_options.learningRate, m_options.decay, plan.iteration);
    if (!m_trainer.epoch(m_train, m_order, rate, m_stop)) return false;
    report.trainObjective = m_trainer.reconstructionRmse();
    report.extras.emplace_back("learning_rate", rate);
    if (plan.evaluate && !m_test.empty()) report.heldout = heldoutRmse();
    return true;
  }

  std::vector<NamedMatrix> snapshot(const StepPlan&) override {
    return ratingsParameterMatrices(m_trainer.parameters(), m_train.levels);
  }

  void finish(FitResult& result) override {
    const RatingsRbmParameters& p = m_trainer.parameters();
    const Eigen::MatrixXd activations = ratingsUserActivations(p, m_train);
    auto& metrics = result.finalMetrics;
    metrics = m_metrics;
    metrics["reconstruction_rmse"] = m_trainer.reconstructionRmse();
    // The paper's prediction on the ratings it was fitted to (each user's own ratings switch on
    // its hidden units), comparable with pmf's train_rmse.
    const auto fitted = ratingsPredictions(p, m_train, activations, trainRatings());
    metrics["train_rmse"] = rootMeanSquaredError(trainRatings(), fitted);
    if (!m_test.empty()) {
      const auto predictions = ratingsPredictions(p, m_train, activations, m_test);
      metrics[kHeldoutRmse] = rootMeanSquaredError(m_test, predictions);
      metrics["heldout_ratings"] = static_cast<std::int64_t>(m_test.size());
      // What the hidden units add: the training mean alone, and each item's mean training rating.
      std::vector<double> mean(m_test.size(), m_train.mean), itemMean(m_test.size());
      for (std::size_t k = 0; k < m_test.size(); ++k)
        itemMean[k] = m_train.itemRatings[static_cast<std::size_t>(m_test[k].item)] > 0
                          ? m_train.itemMean[static_cast<std::size_t>(m_test[k].item)]
                          : m_train.mean;
      metrics["baseline_global_mean_rmse"] = rootMeanSquaredError(m_test, mean);
      metrics["baseline_item_mean_rmse"] = rootMeanSquaredError(m_test, itemMean);
    }
    result.matrices = ratingsParameterMatrices(p, m_train.levels);
    result.matrices.push_back({hidden::kHiddenActivations, activations});
  }

 private:
  // The training ratings as Rating rows (user, item, level value), users in order.
  std::span<const Rating> trainRatings() {
    if (m_trainRows.empty()) {
      m_trainRows.reserve(static_cast<std::size_t>(m_train.count));
      for (std::int32_t u = 0; u < m_train.users; ++u)
        for (auto k = m_train.start[u]; k < m_train.start[u + 1]; ++k)
          m_trainRows.push_back({u, m_train.item[static_cast<std::size_t>(k)],
                                 m_train.levels[static_cast<std::size_t>(m_train.level[static_cast<std::size_t>(k)])],
                                 0});
    }
    return m_trainRows;
  }

  double heldoutRmse() {
    const RatingsRbmParameters& p = m_trainer.parameters();
    return rootMeanSquaredError(m_test, ratingsPredictions(p, m_train, ratingsUserActivations(p, m_train), m_test));
  }

  const RbmRatingsOptions& m_options;
  std::uint64_t m_seed;
  std::stop_token m_stop;
  std::span<const Rating> m_test;
  UserRatings m_train;
  RatingsRbmTrainer m_trainer;
  std::vector<Eigen::Index> m_order;
  std::vector<Rating> m_trainRows;
  nlohmann::json m_metrics = nlohmann::json::object();
};

class RbmRatingsModel final : public DescribedModel<&rbmRatingsInfo> {
 public:
  FitResult fit(const FitData& data, const FitSettings& settings, TrainingObserver& observer,
                std::stop_token stop) override {
    const Stopwatch clock;
    const auto options = RbmRatingsOptions::table().parse(settings.options, info().name);
    RbmRatingsChain chain(data, options, settings, stop);
    const ChainSchedule schedule{options.iterations, options.snapshotEvery};
    return driveChain(chain, schedule, settings, observer, stop, clock);
  }
};

}  // namespace

const OptionTable<RbmRatingsOptions>& RbmRatingsOptions::table() {
  static const auto table = [] {
    OptionTable<RbmRatingsOptions> t;
    addTrainingOptions(t).add(
        realOption("init_scale", 0.0, 10.0, true,
                   "Standard deviation of the random starting weights (above 0: weights that start equal stay "
                   "equal)."),
        &RbmRatingsOptions::initScale);
    return t;
  }();
  return table;
}

ModelDefinition rbmRatingsModel() { return defineModel<RbmRatingsModel>(); }

}  // namespace latent::core
