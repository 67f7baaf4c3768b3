// SPDX-License-Identifier: GPL-3.0-or-later
// The binary RBM through the fit driver: an epoch of CD-k or PCD per iteration, the held-out
// pseudo-log-likelihood when due.
#include "core/models/harmonium/rbm.hpp"

#include <cmath>
#include <limits>
#include <vector>

#include "core/models/fit_driver.hpp"
#include "core/models/harmonium/binary_rbm.hpp"
#include "core/models/harmonium/harmonium_support.hpp"
#include "core/models/harmonium/rbm_training.hpp"
#include "core/models/harmonium/replicated_softmax.hpp"
#include "core/util/clock.hpp"

namespace latent::core {
namespace {

using namespace harmonium;

// The exact log-likelihood is reported when the hidden layer has at most this many units: the
// sum over 2^K states then takes about a second on a vocabulary of a few thousand words.
constexpr Eigen::Index kRbmExactLikelihoodUnits = 16;

ModelInfo rbmInfo() {
  ModelInfo info;
  info.name = "rbm";
  info.kind = DataKind::Corpus;
  // A graph is fitted by its adjacency rows (fit_job: adjacencyTable), each node a case.
  info.alsoFits = {DataKind::Table, DataKind::Graph};
  info.family = ResultFamily::HiddenUnits;
  info.heldoutKey = hidden::kHeldoutPseudoNll;
  info.title = "Binary RBM on word occurrences, 0/1 tables or a graph's adjacency rows";
  info.description =
      "Sees each document as the set of words it contains (not how often), each row of a 0/1 table as it is, or "
      "each node of a graph as the set of nodes it links to. Each hidden unit is an on-or-off feature that makes "
      "some words (columns, nodes) likelier to occur together; scored by how well each held-out case's values are "
      "predicted from the others.";
  info.objectiveName = "mean squared reconstruction error per word (a monitor, not the likelihood)";
  info.options = RbmOptions::table().specs();
  return info;
}

class RbmChain final : public FitChain {
 public:
  RbmChain(const FitData& data, const RbmOptions& options, const FitSettings& settings, std::stop_token stop)
      : m_data(data),
        m_options(options),
        m_seed(settings.seed),
        m_stop(std::move(stop)),
        m_cases(binaryCases(data, "rbm")),
        m_occurrences(m_cases.train),
        m_heldout(m_cases.heldout),
        m_trainer(persistentContrastiveDivergence(options),
                  initialParameters(m_occurrences, options.hidden, settings.seed), settings.seed) {
    m_metrics[data.table ? "train_rows" : "train_documents"] = static_cast<std::int64_t>(m_occurrences.rows());
  }

  bool step(const StepPlan& plan, IterationReport& report) override {
    shuffledOrder(m_order, m_occurrences.rows(), m_seed, plan.iteration);
    const double rate = learningRateAt(m_options.learningRate, m_options.decay, plan.iteration);
    if (!m_trainer.epoch(m_occurrences, m_order, rate, m_stop)) return false;
    m_epochs = plan.iteration;
    report.trainObjective = m_trainer.reconstructionError();
    report.extras.emplace_back("learning_rate", rate);
    if (plan.evaluate) {
      evaluate();
      if (m_metrics.contains(hidden::kHeldoutPseudoNll))
        report.heldout = m_metrics[hidden::kHeldoutPseudoNll].get<double>();
    }
    return !m_stop.stop_requested();
  }

  std::vector<NamedMatrix> snapshot(const StepPlan&) override { return parameterMatrices(m_trainer.parameters()); }

  void finish(FitResult& result) override {
    const RbmParameters& p = m_trainer.parameters();
    const bool cancelled = result.status == FitStatus::Cancelled;
    if (!cancelled && m_evaluatedAt != m_epochs) evaluate();
    m_metrics["reconstruction_error"] = m_trainer.reconstructionError();
    if (!cancelled && p.hidden() <= kRbmExactLikelihoodUnits) {
      // 000 Exercise 27.1: log Z summed over the 2^K hidden states, then eq. 27.118.
      const double logZ = exactLogPartition(p);
      m_metrics["log_partition"] = logZ;
      m_metrics["train_loglik"] = meanLogLikelihood(p, m_occurrences, logZ);
      if (m_heldout.rows() > 0) m_metrics["heldout_loglik"] = meanLogLikelihood(p, m_heldout, logZ);
    }
    result.finalMetrics = m_metrics;
    result.matrices = parameterMatrices(p);
    Eigen::MatrixXd train, heldout;
    hiddenProbabilities(p, m_occurrences, train);
    if (m_heldout.rows() > 0) hiddenProbabilities(p, m_heldout, heldout);
    result.matrices.push_back({hidden::kHiddenActivations, activationsInDataOrder(m_data, train, heldout)});
  }

 private:
  void evaluate() {
    m_evaluatedAt = m_epochs;
    if (m_heldout.rows() == 0) return;
    // Besag's pseudo-log-likelihood, summed over the vocabulary's units, per held-out document.
    m_metrics[hidden::kHeldoutPseudoNll] = -meanPseudoLogLikelihood(m_trainer.parameters(), m_heldout);
    m_metrics[m_data.table ? "heldout_rows" : "heldout_documents"] = static_cast<std::int64_t>(m_heldout.rows());
  }

  const FitData& m_data;
  const RbmOptions& m_options;
  std::uint64_t m_seed;
  std::stop_token m_stop;
  BinaryCases m_cases;
  const BinaryData& m_occurrences;  // the training cases: word occurrences, or a 0/1 table's rows
  const BinaryData& m_heldout;
  RbmTrainer m_trainer;
  std::vector<Eigen::Index> m_order;
  std::int64_t m_epochs = 0;
  std::int64_t m_evaluatedAt = -1;
  nlohmann::json m_metrics = nlohmann::json::object();
};

class RbmModel final : public DescribedModel<&rbmInfo> {
 public:
  FitResult fit(const FitData& data, const FitSettings& settings, TrainingObserver& observer,
                std::stop_token stop) override {
    const Stopwatch clock;
    const auto options = RbmOptions::table().parse(settings.options, info().name);
    RbmChain chain(data, options, settings, stop);
    const ChainSchedule schedule{options.iterations, options.snapshotEvery};
    return driveChain(chain, schedule, settings, observer, stop, clock);
  }
};

}  // namespace

const OptionTable<RbmOptions>& RbmOptions::table() {
  static const auto table = [] {
    OptionTable<RbmOptions> t;
    addTrainingOptions(t);
    addPersistentOptions(t);
    return t;
  }();
  return table;
}

ModelDefinition rbmModel() { return defineModel<RbmModel>(); }

}  // namespace latent::core
