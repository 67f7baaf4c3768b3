// SPDX-License-Identifier: GPL-3.0-or-later
// gb-efh through the fit driver: one full-batch ML step or Langevin transition per iteration (004
// §3), the draws after burn-in summarised, the prior re-estimated by empirical Bayes (004 §4).
#include "core/models/harmonium/gb_efh.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "core/models/fit_driver.hpp"
#include "core/models/harmonium/efh_langevin.hpp"
#include "core/models/harmonium/harmonium_support.hpp"
#include "core/results/hidden_results.hpp"
#include "core/util/clock.hpp"
#include "core/util/errors.hpp"

namespace latent::core {
namespace {

using namespace harmonium;

// The exact log-likelihood (004 eq. 33, Z_x summed over 2^M states) is reported up to this many
// visible units.
constexpr Eigen::Index kEfhExactLikelihoodUnits = 20;
// The weights whose Langevin chains are kept for the chain view (004 Fig. 3): W_11, W_12, W_21, W_22.
constexpr Eigen::Index kTracedWeights = 2;
// The empirical Bayes M-step keeps each unit's prior spread at least this (a unit whose draws
// agree would otherwise pin its prior to a point).
constexpr double kMinimumPriorSd = 1e-3;

ModelInfo gbEfhInfo() {
  ModelInfo info;
  info.name = "gb-efh";
  info.kind = DataKind::Table;
  info.alsoFits = {DataKind::Corpus};
  info.family = ResultFamily::HiddenUnits;
  info.heldoutKey = hidden::kHeldoutPseudoNll;
  info.title = "Bayesian harmonium (Gaussian-Bernoulli EFH)";
  info.description =
      "Explains each row of a 0/1 table (or each document by the words it contains) by a few continuous "
      "hidden factors, each making some columns likelier to be on together. Fitted by maximum likelihood, "
      "or the Bayesian way: many plausible weight matrices drawn from their posterior and averaged, which "
      "is steadier when rows are few.";
  info.objectiveName = "negative pseudo-log-likelihood per case (a monitor, not the likelihood)";
  info.options = GbEfhOptions::table().specs();
  return info;
}

class GbEfhChain final : public FitChain {
 public:
  GbEfhChain(const FitData& data, const GbEfhOptions& options, const FitSettings& settings, std::stop_token stop)
      : m_data(data),
        m_options(options),
        m_stop(std::move(stop)),
        m_trainer(stepsOf(options), EfhParameters(), settings.seed) {
    BinaryCases cases = binaryCases(data, "gb-efh");
    m_train = std::move(cases.train);
    m_heldout = std::move(cases.heldout);
    // The objective's rows: the first 100 training rows, so that its curve follows the model.
    m_monitor = m_train.topRows(std::min<Eigen::Index>(100, m_train.rows()));
    if (options.hidden > m_train.cols())
      throw UsageError("gb-efh: k (" + std::to_string(options.hidden) + ") exceeds the " +
                       std::to_string(m_train.cols()) + " visible units (the table's columns or the vocabulary)");
    m_trainer = EfhTrainer(stepsOf(options), initialParameters(settings.seed), settings.seed);
    m_prior = EfhPrior::uniform(m_train.cols(), options.priorMean, options.priorSd);
    m_metrics[data.table ? "train_rows" : "train_documents"] = static_cast<std::int64_t>(m_train.rows());
    m_metrics["inference"] = bayesian() ? "langevin" : "maximum likelihood";
  }

  bool step(const StepPlan& plan, IterationReport& report) override {
    const bool mlPhase = !bayesian() || (m_options.empiricalBayes && plan.iteration <= m_options.mlIterations);
    if (mlPhase) {
      if (!m_trainer.maximumLikelihoodStep(m_train, m_stop)) return false;
    } else {
      if (m_options.empiricalBayes && !m_priorFromMl) {
        // 004 eq. 26-27: the prior starts from the ML estimate.
        m_prior = EfhPrior::fromWeights(m_trainer.parameters().weights);
        m_priorFromMl = true;
      }
      if (!m_trainer.langevinStep(m_train, m_prior, m_stop)) return false;
      if (plan.iteration > chainStart() + m_options.burnIn) keepDraw();
    }
    if (!m_trainer.parameters().weights.allFinite())
      throw UsageError("gb-efh diverged at iteration " + std::to_string(plan.iteration) +
                       ": the weights are no longer finite; try a smaller learning_rate (now " +
                       shortNumber(m_options.learningRate) + ")");
    recordTrace();
    report.trainObjective = -efhMeanPseudoLogLikelihood(m_trainer.parameters(), m_monitor);
    if (plan.evaluate) {
      evaluate();
      if (m_metrics.contains(hidden::kHeldoutPseudoNll))
        report.heldout = m_metrics[hidden::kHeldoutPseudoNll].get<double>();
    }
    return true;
  }

  std::vector<NamedMatrix> snapshot(const StepPlan&) override { return parameterMatrices(summary()); }

  void finish(FitResult& result) override {
    const EfhParameters p = summary();
    const bool cancelled = result.status == FitStatus::Cancelled;
    if (!cancelled) {
      evaluateWith(p);
      m_metrics["train_pseudo_nll"] = -efhMeanPseudoLogLikelihood(p, m_train);
      if (p.visible() <= kEfhExactLikelihoodUnits) {
        const double logZ = efhExactLogPartition(p);
        m_metrics["log_partition"] = logZ;
        m_metrics["train_loglik"] = meanLogLikelihood(p, m_train, logZ);
        if (m_heldout.rows() > 0) m_metrics["heldout_loglik"] = meanLogLikelihood(p, m_heldout, logZ);
      }
    }
    if (bayesian()) {
      m_metrics["posterior_draws"] = m_posterior.draws();
      m_metrics["langevin_step"] = m_trainer.langevinStepSize(m_train.rows());
    }
    result.finalMetrics = m_metrics;
    result.matrices = parameterMatrices(p);
    if (m_posterior.draws() > 1) result.matrices.push_back({hidden::kWeightsSd, m_posterior.sd()});
    if (bayesian()) {
      result.matrices.push_back({hidden::kPriorMean, m_prior.mean});
      result.matrices.push_back({hidden::kPriorSd, m_prior.sd});
    }
    result.matrices.push_back({hidden::kHiddenActivations, activations(p)});
    result.matrices.push_back({hidden::kWeightTrace, traceMatrix()});
  }

 private:
  static EfhSteps stepsOf(const GbEfhOptions& o) {
    EfhSteps steps;
    steps.learningRate = o.learningRate;
    steps.langevinStep = o.langevinStep;
    steps.briefSteps = static_cast<int>(o.cdSteps);
    steps.fitVisibleBias = o.fitVisibleBias;
    return steps;
  }

  bool bayesian() const { return m_options.inference == GbEfhOptions::Inference::Langevin; }
  std::int64_t chainStart() const { return m_options.empiricalBayes ? m_options.mlIterations : 0; }

  // Small random weights (W W^T starts near 0, every unit's rate near its own) and theta at the
  // columns' log-odds.
  EfhParameters initialParameters(std::uint64_t seed) const {
    EfhParameters p(m_train.cols(), m_options.hidden);
    Rng rng(seed, 0x5eed);
    for (Eigen::Index j = 0; j < p.hidden(); ++j)
      for (Eigen::Index i = 0; i < p.visible(); ++i) p.weights(i, j) = 0.01 * rng.normal();
    if (m_train.rows() > 0) p.visibleBias = baseRateBiases(m_train);
    return p;
  }

  void keepDraw() {
    m_posterior.add(m_trainer.parameters().weights);
    if (!m_options.empiricalBayes) return;
    m_update.add(m_trainer.parameters().weights);
    // 004 eq. 24-25: the M-step from the draws since the last one.
    if (m_update.draws() >= m_options.emEvery) m_prior = m_update.estimate(kMinimumPriorSd);
  }

  // The point estimate: the ML weights, or the posterior mean of the (aligned) draws once there are
  // draws; theta is a point estimate either way.
  EfhParameters summary() const {
    EfhParameters p = m_trainer.parameters();
    if (m_posterior.draws() > 0) p.weights = m_posterior.mean();
    return p;
  }

  void recordTrace() {
    const auto& w = m_trainer.parameters().weights;
    std::vector<double> row;
    for (Eigen::Index i = 0; i < std::min(kTracedWeights, w.rows()); ++i)
      for (Eigen::Index j = 0; j < std::min(kTracedWeights, w.cols()); ++j) row.push_back(w(i, j));
    m_trace.push_back(std::move(row));
  }

  Eigen::MatrixXd traceMatrix() const {
    const Eigen::Index columns = m_trace.empty() ? 0 : static_cast<Eigen::Index>(m_trace.front().size());
    Eigen::MatrixXd out(static_cast<Eigen::Index>(m_trace.size()), columns);
    for (std::size_t t = 0; t < m_trace.size(); ++t)
      for (Eigen::Index c = 0; c < columns; ++c) out(static_cast<Eigen::Index>(t), c) = m_trace[t][c];
    return out;
  }

  void evaluate() { evaluateWith(summary()); }

  void evaluateWith(const EfhParameters& p) {
    if (m_heldout.rows() == 0) return;
    m_metrics[hidden::kHeldoutPseudoNll] = -efhMeanPseudoLogLikelihood(p, m_heldout);
    m_metrics[m_data.table ? "heldout_rows" : "heldout_documents"] = static_cast<std::int64_t>(m_heldout.rows());
  }

  static double meanLogLikelihood(const EfhParameters& p, const BinaryData& cases, double logZ) {
    double sum = 0.0;
    for (Eigen::Index c = 0; c < cases.rows(); ++c) sum += logUnnormalised(p, denseRow(cases, c)) - logZ;
    return cases.rows() == 0 ? 0.0 : sum / static_cast<double>(cases.rows());
  }

  static std::vector<NamedMatrix> parameterMatrices(const EfhParameters& p) {
    return {{hidden::kWeights, p.weights},
            {hidden::kVisibleBias, p.visibleBias},
            {hidden::kHiddenBias, Eigen::VectorXd::Zero(p.hidden())}};
  }

  // E[h | x] = W^T x of every case in the data's order (held-out ones included).
  Eigen::MatrixXd activations(const EfhParameters& p) const {
    Eigen::MatrixXd train, heldout;
    efhHiddenMeans(p, m_train, train);
    efhHiddenMeans(p, m_heldout, heldout);
    return activationsInDataOrder(m_data, train, heldout);
  }

  const FitData& m_data;
  const GbEfhOptions& m_options;
  std::stop_token m_stop;
  BinaryData m_train, m_heldout, m_monitor;
  EfhTrainer m_trainer;
  EfhPrior m_prior;
  bool m_priorFromMl = false;
  PosteriorWeights m_posterior;
  PriorUpdate m_update;
  std::vector<std::vector<double>> m_trace;
  nlohmann::json m_metrics = nlohmann::json::object();
};

class GbEfhModel final : public DescribedModel<&gbEfhInfo> {
 public:
  FitResult fit(const FitData& data, const FitSettings& settings, TrainingObserver& observer,
                std::stop_token stop) override {
    const Stopwatch clock;
    const auto options = GbEfhOptions::table().parse(settings.options, info().name);
    GbEfhChain chain(data, options, settings, stop);
    const ChainSchedule schedule{options.iterations, options.snapshotEvery};
    return driveChain(chain, schedule, settings, observer, stop, clock);
  }
};

}  // namespace

const OptionTable<GbEfhOptions>& GbEfhOptions::table() {
  static const auto table = [] {
    using Inference = GbEfhOptions::Inference;
    OptionTable<GbEfhOptions> t;
    t.add(integerOption("k", 1, 10000, "Number of hidden units (J)."), &GbEfhOptions::hidden)
        .add(integerOption("iterations", 1, 1e7,
                           "Full passes over the training rows: gradient steps, or Langevin transitions."),
             &GbEfhOptions::iterations)
        .add(choiceOption("inference", {"langevin", "ml"},
                          "langevin: draws of W from its posterior under a Gaussian prior (004 §3), averaged. ml: "
                          "maximum likelihood by gradient ascent."),
             &GbEfhOptions::inference, {{"langevin", Inference::Langevin}, {"ml", Inference::MaximumLikelihood}})
        .add(realOption("learning_rate", 0.0, kNoMaximum, true,
                        "Step of maximum likelihood (on the mean gradient per row); too large and it diverges."),
             &GbEfhOptions::learningRate)
        .add(realOption("langevin_step", 0.0, kNoMaximum, false,
                        "epsilon of the Langevin transition (004 eq. 13); 0 derives it from learning_rate so that "
                        "the drift moves W as far as a maximum-likelihood step."),
             &GbEfhOptions::langevinStep)
        .add(integerOption("burn_in", 0, 1e7, "Langevin transitions before draws are kept."), &GbEfhOptions::burnIn)
        .add(realOption("prior_mean", -kNoMaximum, kNoMaximum, false, "Mean of the Gaussian prior on each weight."),
             &GbEfhOptions::priorMean)
        .add(realOption("prior_sd", 0.0, kNoMaximum, true, "Spread of the Gaussian prior on each weight."),
             &GbEfhOptions::priorSd)
        .add(booleanOption("empirical_bayes",
                           "Estimate each column's prior mean and spread from the data (004 §4): start from the "
                           "maximum-likelihood weights, then re-estimate from the Langevin draws."),
             &GbEfhOptions::empiricalBayes)
        .add(integerOption("ml_iterations", 1, 1e7,
                           "With empirical_bayes: the first iterations are maximum-likelihood steps, whose "
                           "weights start the prior."),
             &GbEfhOptions::mlIterations)
        .add(integerOption("em_every", 1, 1e7, "With empirical_bayes: draws per re-estimate of the prior."),
             &GbEfhOptions::emEvery)
        .add(integerOption("cd_steps", 1, 1000,
                           "Gibbs steps from the data that estimate the model's expectations (l of 004 §3.2)."),
             &GbEfhOptions::cdSteps)
        .add(booleanOption("fit_visible_bias",
                           "Fit each column's bias (theta) by maximum likelihood alongside W; off keeps it at the "
                           "columns' log-odds."),
             &GbEfhOptions::fitVisibleBias)
        .add(integerOption("snapshot_every", 0, 1e7,
                           "Save the weights to the project every N iterations, so the views follow training; 0 "
                           "saves only at the end."),
             &GbEfhOptions::snapshotEvery);
    return t;
  }();
  return table;
}

ModelDefinition gbEfhModel() { return defineModel<GbEfhModel>(); }

}  // namespace latent::core
