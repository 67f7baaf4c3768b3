// SPDX-License-Identifier: GPL-3.0-or-later
// rbm-gaussian through the fit driver: an epoch of persistent CD (or CD-k) per iteration on the
// standardised training rows; the held-out rows' reconstruction RMSE, and their exact log-density
// when the hidden layer is small enough to sum over.
#include "core/models/harmonium/rbm_gaussian.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "core/eval/row_split.hpp"
#include "core/models/fit_driver.hpp"
#include "core/models/harmonium/gaussian_rbm.hpp"
#include "core/models/harmonium/harmonium_support.hpp"
#include "core/results/factor_results.hpp"
#include "core/util/clock.hpp"
#include "core/util/errors.hpp"

namespace latent::core {
namespace {

using namespace harmonium;

// The exact log-density is reported when the hidden layer has at most this many units.
constexpr Eigen::Index kGaussianExactLikelihoodUnits = 16;

ModelInfo rbmGaussianInfo() {
  ModelInfo info;
  info.name = "rbm-gaussian";
  info.kind = DataKind::Table;
  info.family = ResultFamily::HiddenUnits;
  info.heldoutKey = kHeldoutRmse;
  info.title = "Gaussian RBM on a numeric table";
  info.description =
      "Explains each row of real-valued columns (standardised) by on-or-off hidden features, each shifting "
      "some columns up or down together, each column with its own spread around them. Scored by how well "
      "held-out rows are rebuilt from their features, and by their exact likelihood when the features are few.";
  info.objectiveName = "reconstruction RMSE of the training rows, in standard deviations (a monitor)";
  info.options = GaussianRbmOptions::table().specs();
  return info;
}

// The rows of `rows` standardised by the given column means and spreads.
Eigen::MatrixXd standardisedRows(const NumericTable& table, const std::vector<std::int64_t>& rows,
                                 const Eigen::VectorXd& mean, const Eigen::VectorXd& sd) {
  Eigen::MatrixXd out(static_cast<Eigen::Index>(rows.size()), table.values.cols());
  for (std::size_t r = 0; r < rows.size(); ++r)
    out.row(static_cast<Eigen::Index>(r)) =
        ((table.values.row(rows[r]).transpose() - mean).array() / sd.array()).matrix().transpose();
  return out;
}

class GaussianRbmChain final : public FitChain {
 public:
  GaussianRbmChain(const FitData& data, const GaussianRbmOptions& options, const FitSettings& settings,
                   std::stop_token stop)
      : m_data(data), m_options(options), m_seed(settings.seed), m_stop(std::move(stop)) {
    if (!data.table) throw UsageError("rbm-gaussian fits numeric tables");
    const NumericTable& table = *data.table;
    const auto trainRows = trainingRows(static_cast<std::size_t>(table.values.rows()), data.heldoutRows);
    // Standardised on the training rows, so that unit variances (000 eq. 27.108, and the start of
    // learnt ones) are on the columns' own scale; a constant column keeps its scale.
    m_mean = Eigen::VectorXd::Zero(table.values.cols());
    for (const auto r : trainRows) m_mean += table.values.row(r).transpose();
    m_mean /= static_cast<double>(std::max<std::size_t>(trainRows.size(), 1));
    m_sd = Eigen::VectorXd::Zero(table.values.cols());
    for (const auto r : trainRows) m_sd += (table.values.row(r).transpose() - m_mean).cwiseAbs2();
    m_sd = (m_sd / static_cast<double>(std::max<std::size_t>(trainRows.size(), 2) - 1)).cwiseSqrt();
    for (Eigen::Index c = 0; c < m_sd.size(); ++c)
      if (!(m_sd[c] > 1e-12)) m_sd[c] = 1.0;
    m_train = standardisedRows(table, trainRows, m_mean, m_sd);
    m_heldout = standardisedRows(table, data.heldoutRows, m_mean, m_sd);
    m_monitor = m_train.topRows(std::min<Eigen::Index>(100, m_train.rows()));
    // Small random weights, zero biases (the columns' means), unit variances (their spreads).
    GaussianRbmParameters initial(m_train.cols(), options.hidden);
    Rng rng(settings.seed, 0x6a55);
    for (Eigen::Index k = 0; k < initial.hidden(); ++k)
      for (Eigen::Index r = 0; r < initial.visible(); ++r) initial.rbm.weights(r, k) = 0.01 * rng.normal();
    GaussianRbmTraining training;
    training.cd = persistentContrastiveDivergence(options);
    training.learnVariance = options.learnVariance;
    m_trainer.emplace(training, std::move(initial), settings.seed);
    m_metrics["train_rows"] = static_cast<std::int64_t>(m_train.rows());
  }

  bool step(const StepPlan& plan, IterationReport& report) override {
    shuffledOrder(m_order, m_train.rows(), m_seed, plan.iteration);
    const double rate = learningRateAt(m_options.learningRate, m_options.decay, plan.iteration);
    if (!m_trainer->epoch(m_train, m_order, rate, m_stop)) return false;
    if (!m_trainer->parameters().rbm.weights.allFinite() || !m_trainer->parameters().variance.allFinite())
      throw UsageError("rbm-gaussian diverged at iteration " + std::to_string(plan.iteration) +
                       ": try a smaller learning_rate (now " + shortNumber(m_options.learningRate) + ")");
    report.trainObjective = gaussianReconstructionRmse(m_trainer->parameters(), m_monitor);
    if (plan.evaluate && m_heldout.rows() > 0) {
      evaluate();
      report.heldout = m_metrics[kHeldoutRmse].get<double>();
    }
    return true;
  }

  std::vector<NamedMatrix> snapshot(const StepPlan&) override { return parameterMatrices(m_trainer->parameters().rbm); }

  void finish(FitResult& result) override {
    const GaussianRbmParameters& p = m_trainer->parameters();
    const bool cancelled = result.status == FitStatus::Cancelled;
    if (!cancelled && m_heldout.rows() > 0) evaluate();
    if (!cancelled && p.hidden() <= kGaussianExactLikelihoodUnits) {
      // Per row in the table's own units: the standardisation's Jacobian, -sum_c log sd_c.
      const double logZ = gaussianExactLogPartition(p);
      const double jacobian = -m_sd.array().log().sum();
      m_metrics["train_loglik"] = gaussianMeanLogLikelihood(p, m_train, logZ) + jacobian;
      if (m_heldout.rows() > 0) m_metrics["heldout_loglik"] = gaussianMeanLogLikelihood(p, m_heldout, logZ) + jacobian;
    }
    m_metrics["train_rmse"] = gaussianReconstructionRmse(p, m_train);
    result.finalMetrics = m_metrics;
    result.matrices = parameterMatrices(p.rbm);
    result.matrices.push_back({hidden::kVisibleVariance, p.variance});
    result.matrices.push_back({hidden::kColumnMean, m_mean});
    result.matrices.push_back({hidden::kColumnSd, m_sd});
    Eigen::MatrixXd train, heldout;
    gaussianHiddenProbabilities(p, m_train, train);
    gaussianHiddenProbabilities(p, m_heldout, heldout);
    result.matrices.push_back({hidden::kHiddenActivations, activationsInDataOrder(m_data, train, heldout)});
  }

 private:
  void evaluate() {
    m_metrics[kHeldoutRmse] = gaussianReconstructionRmse(m_trainer->parameters(), m_heldout);
    m_metrics["heldout_rows"] = static_cast<std::int64_t>(m_heldout.rows());
  }

  const FitData& m_data;
  const GaussianRbmOptions& m_options;
  std::uint64_t m_seed;
  std::stop_token m_stop;
  Eigen::VectorXd m_mean, m_sd;
  Eigen::MatrixXd m_train, m_heldout, m_monitor;
  std::optional<GaussianRbmTrainer> m_trainer;
  std::vector<Eigen::Index> m_order;
  nlohmann::json m_metrics = nlohmann::json::object();
};

class GaussianRbmModel final : public DescribedModel<&rbmGaussianInfo> {
 public:
  FitResult fit(const FitData& data, const FitSettings& settings, TrainingObserver& observer,
                std::stop_token stop) override {
    const Stopwatch clock;
    const auto options = GaussianRbmOptions::table().parse(settings.options, info().name);
    GaussianRbmChain chain(data, options, settings, stop);
    const ChainSchedule schedule{options.iterations, options.snapshotEvery};
    return driveChain(chain, schedule, settings, observer, stop, clock);
  }
};

}  // namespace

const OptionTable<GaussianRbmOptions>& GaussianRbmOptions::table() {
  static const auto table = [] {
    OptionTable<GaussianRbmOptions> t;
    addTrainingOptions(t);
    addPersistentOptions(t).add(
        booleanOption("learn_variance",
                      "Learn each column's variance around the hidden units' means; off keeps it 1 (in standard "
                      "deviations of the column), as in the textbook, and then clusters tighter than the column's "
                      "spread cannot be described."),
        &GaussianRbmOptions::learnVariance);
    return t;
  }();
  return table;
}

ModelDefinition rbmGaussianModel() { return defineModel<GaussianRbmModel>(); }

}  // namespace latent::core
