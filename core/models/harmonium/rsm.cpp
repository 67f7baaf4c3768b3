// SPDX-License-Identifier: GPL-3.0-or-later
// Replicated softmax through the fit driver: an epoch of CD-k per iteration, document completion
// when the held-out metric is due.
#include "core/models/harmonium/rsm.hpp"

#include <cmath>
#include <limits>
#include <vector>

#include "core/eval/perplexity.hpp"
#include "core/models/fit_driver.hpp"
#include "core/models/harmonium/harmonium_support.hpp"
#include "core/models/harmonium/replicated_softmax.hpp"
#include "core/models/harmonium/rsm_ais.hpp"
#include "core/models/harmonium/rsm_completion.hpp"
#include "core/models/harmonium/rsm_training.hpp"
#include "core/results/topic_results.hpp"
#include "core/util/clock.hpp"
#include "core/util/errors.hpp"

namespace latent::core {
namespace {

using namespace harmonium;

ModelInfo rsmInfo() {
  ModelInfo info;
  info.name = "rsm";
  info.kind = DataKind::Corpus;
  info.family = ResultFamily::HiddenUnits;
  info.heldoutKey = topic::kHeldoutPerplexity;
  info.title = "Replicated softmax (undirected topic model)";
  info.description =
      "Each hidden unit is an on-or-off feature of a document that raises the probability of some words and "
      "lowers that of others; a document's words are drawn given its features. Scored like the topic models, "
      "by held-out perplexity under document completion.";
  info.objectiveName = "reconstruction log-likelihood per word (nats): log p(w | h), h drawn given the document";
  info.options = RsmOptions::table().specs();
  return info;
}

ContrastiveDivergence rsmContrastiveDivergence(const RsmOptions& options) {
  ContrastiveDivergence cd = contrastiveDivergence(options);
  cd.adaptive = options.adaptiveSteps;
  return cd;
}

class RsmChain final : public FitChain {
 public:
  RsmChain(const FitData& data, const RsmOptions& options, const FitSettings& settings, std::stop_token stop)
      : m_data(data),
        m_options(options),
        m_seed(settings.seed),
        m_stop(std::move(stop)),
        m_counts(wordCounts(*data.corpus)),
        m_lengths(documentLengths(m_counts)),
        m_trainer(rsmContrastiveDivergence(options),
                  initialRsmParameters(m_counts, options.hidden, settings.seed, options.initScale), settings.seed) {
    m_metrics["train_documents"] = static_cast<std::int64_t>(m_counts.rows());
    m_metrics["train_tokens"] = static_cast<std::int64_t>(m_lengths.sum());
  }

  bool step(const StepPlan& plan, IterationReport& report) override {
    shuffledOrder(m_order, m_counts.rows(), m_seed, plan.iteration);
    const double rate = learningRateAt(m_options.learningRate, m_options.decay, plan.iteration);
    if (!m_trainer.epoch(m_counts, m_lengths, m_order, rate, m_stop)) return false;
    m_epochs = plan.iteration;
    report.trainObjective = m_trainer.reconstructionLogLikelihood();
    report.extras.emplace_back("learning_rate", rate);
    if (plan.evaluate && !evaluate()) return false;
    if (plan.evaluate && m_metrics.contains(topic::kHeldoutPerplexity))
      report.heldout = m_metrics[topic::kHeldoutPerplexity].get<double>();
    return true;
  }

  std::vector<NamedMatrix> snapshot(const StepPlan&) override { return parameterMatrices(m_trainer.parameters()); }

  void finish(FitResult& result) override {
    const RbmParameters& p = m_trainer.parameters();
    if (result.status != FitStatus::Cancelled && m_evaluatedAt != m_epochs && !evaluate())
      result.status = FitStatus::Cancelled;
    if (result.status != FitStatus::Cancelled && m_options.aisRuns > 0 && !evaluateFullDocuments())
      result.status = FitStatus::Cancelled;
    m_metrics["reconstruction_loglik_per_word"] = m_trainer.reconstructionLogLikelihood();
    result.finalMetrics = m_metrics;
    result.matrices = parameterMatrices(p);
    Eigen::MatrixXd train, heldout;
    rsmHiddenProbabilities(p, m_counts, m_lengths, train);
    if (m_data.heldout && !m_data.heldout->empty()) {
      const WordCounts whole = heldoutWordCounts(*m_data.heldout, m_counts.cols());
      rsmHiddenProbabilities(p, whole, documentLengths(whole), heldout);
    }
    result.matrices.push_back({hidden::kHiddenActivations, activationsInCorpusOrder(m_data, train, heldout)});
  }

 private:
  // Document completion on the held-out documents; false when stopped midway.
  bool evaluate() {
    m_evaluatedAt = m_epochs;
    if (!m_data.heldout || m_data.heldout->empty()) return true;
    const HeldoutDocuments& heldout = *m_data.heldout;
    RsmCompletionSettings completion;
    completion.samples = static_cast<int>(m_options.completionSamples);
    const auto logLik = rsmCompletionLogLikelihoods(m_trainer.parameters(), heldout, completion, m_seed, m_stop);
    if (logLik.size() != heldout.size()) return false;
    std::vector<std::int64_t> lengths(heldout.size());
    for (std::size_t i = 0; i < heldout.size(); ++i)
      lengths[i] = static_cast<std::int64_t>(heldout.scored.documentLength(i));
    m_metrics[topic::kHeldoutPerplexity] = perplexityPerDocument(logLik, lengths);
    m_metrics["heldout_perplexity_per_token"] = perplexityPerToken(logLik, lengths);
    m_metrics["heldout_protocol"] = "document-completion";
    m_metrics["heldout_documents"] = static_cast<std::int64_t>(heldout.size());
    m_metrics["heldout_tokens"] = static_cast<std::int64_t>(heldout.scored.tokenCount());
    return true;
  }

  // The held-out perplexity of whole documents with each Z_L estimated by AIS (rsm_ais.hpp), beside
  // document completion's; false when stopped midway.
  bool evaluateFullDocuments() {
    if (!m_data.heldout || m_data.heldout->empty()) return true;
    AisSettings settings;
    settings.particles = m_options.aisRuns;
    settings.temperatures = m_options.aisTemperatures;
    const WordCounts whole = heldoutWordCounts(*m_data.heldout, m_counts.cols());
    RsmAisPerplexity ais;
    try {
      ais = rsmAisPerplexity(m_trainer.parameters(), whole, logWordFrequencies(m_counts), settings, m_seed, m_stop);
    } catch (const Cancelled&) {
      return false;
    }
    m_metrics["heldout_perplexity_ais"] = ais.perplexity;
    m_metrics["heldout_perplexity_ais_low"] = ais.low;
    m_metrics["heldout_perplexity_ais_high"] = ais.high;
    m_metrics["heldout_ais_protocol"] = "full-document, AIS estimate of Z_L";
    m_metrics["heldout_ais_runs"] = m_options.aisRuns;
    m_metrics["heldout_ais_temperatures"] = m_options.aisTemperatures;
    m_metrics["heldout_ais_lengths"] = ais.lengths;
    m_metrics["heldout_ais_seconds"] = ais.seconds;
    return true;
  }

  const FitData& m_data;
  const RsmOptions& m_options;
  std::uint64_t m_seed;
  std::stop_token m_stop;
  WordCounts m_counts;
  Eigen::VectorXd m_lengths;
  RsmTrainer m_trainer;
  std::vector<Eigen::Index> m_order;
  std::int64_t m_epochs = 0;
  std::int64_t m_evaluatedAt = -1;
  nlohmann::json m_metrics = nlohmann::json::object();
};

class RsmModel final : public DescribedModel<&rsmInfo> {
 public:
  FitResult fit(const FitData& data, const FitSettings& settings, TrainingObserver& observer,
                std::stop_token stop) override {
    const Stopwatch clock;
    const auto options = RsmOptions::table().parse(settings.options, info().name);
    RsmChain chain(data, options, settings, stop);
    const ChainSchedule schedule{options.iterations, options.snapshotEvery};
    return driveChain(chain, schedule, settings, observer, stop, clock);
  }
};

}  // namespace

const OptionTable<RsmOptions>& RsmOptions::table() {
  static const auto table = [] {
    OptionTable<RsmOptions> t;
    addTrainingOptions(t)
        .add(booleanOption("adaptive_steps",
                           "Adam's step sizes, one per weight and bias (momentum is then Adam's first-moment decay): "
                           "a hidden bias counts once per word of a document and a word's weight once per "
                           "occurrence, and without them one step size cannot suit both."),
             &RsmOptions::adaptiveSteps)
        .add(realOption("init_scale", 0.0, 10.0, true,
                        "Standard deviation of the random starting weights: larger ones break the units' symmetry "
                        "sooner."),
             &RsmOptions::initScale)
        .add(integerOption("completion_samples", 1, 100000,
                           "Held-out scoring: draws of the hidden units averaged to predict a document's unseen half "
                           "from its seen half; more is steadier and slower."),
             &RsmOptions::completionSamples)
        .add(integerOption("ais_runs", 0, 100000,
                           "Also estimate the full-document held-out perplexity (heldout_perplexity_ais, with a "
                           "low-high range), Z_L estimated by annealed importance sampling once per distinct held-out "
                           "length with this many runs, at the end of the fit only; 0 (the default) skips it, as it "
                           "is costly (on Cora with K = 50, 32 runs of 200 temperatures: about a minute on 2 cores, a "
                           "range under 1%). The reported held-out metric stays document completion."),
             &RsmOptions::aisRuns)
        .add(integerOption("ais_temperatures", 10, 1e7,
                           "Intermediate distributions of each AIS run (see ais_runs): more gives a closer estimate "
                           "and takes proportionally longer."),
             &RsmOptions::aisTemperatures);
    return t;
  }();
  return table;
}

ModelDefinition rsmModel() { return defineModel<RsmModel>(); }

}  // namespace latent::core
