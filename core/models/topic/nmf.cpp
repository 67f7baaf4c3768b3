// SPDX-License-Identifier: GPL-3.0-or-later
// NMF: options, the sweeps under the fit driver, reports, held-out scoring under both protocols of
// 003, and results. References: 000 §27.2.4 (NMF and GaP), 003 §3.3-3.4 (NMF with the KL
// divergence, eq. 3.15-3.19, is PLSA, eq. 3.20-3.24, up to the normalisation of H), 003 §4-5 (its
// full folding-in perplexity is optimistic), Lee & Seung 2001 (multiplicative updates), Cichocki
// & Phan 2009 (HALS).
#include "core/models/topic/nmf.hpp"

#include <cmath>
#include <limits>
#include <utility>

#include "core/models/fit_driver.hpp"
#include "core/models/topic/topic_model_support.hpp"
#include "core/util/clock.hpp"
#include "core/util/errors.hpp"

namespace latent::core {
namespace {

ModelInfo nmfInfo() {
  ModelInfo info;
  info.name = "nmf";
  info.kind = DataKind::Corpus;
  info.family = ResultFamily::Topics;
  info.title = "NMF (KL or Frobenius)";
  info.description =
      "Factors the document-word counts into K non-negative parts, documents' weights times topics' word weights, "
      "without any prior; with the KL loss it is PLSA up to scaling, with the Frobenius loss the factorisation "
      "scikit-learn's NMF computes by default. Its held-out perplexity by full folding-in is optimistic, which is "
      "why document completion is the one reported.";
  info.objectiveName =
      "the loss minimised, per token (lower is better): the generalised KL divergence D(X || WH) with --loss kl, half "
      "the squared Frobenius error with --loss frobenius";
  info.options = NmfOptions::table().specs();
  info.needs = [](const FitData& data, const nlohmann::json& options) {
    const auto K = options.at("k").get<std::uint64_t>();
    const auto V = static_cast<std::uint64_t>(data.corpus->vocabularySize());
    const auto D = static_cast<std::uint64_t>(data.fullDocumentCount);
    // Two copies of W and H (the pair kept while a sweep runs), the topics, and 16 K x K Gram blocks.
    return ResourceNeeds{(3 * K * V + 2 * D * K + 16 * K * K) * 8, std::max(K * V, D * K) * 8};
  };
  return info;
}

// The chain: the pair (W, H) of the last complete sweep; a sweep works on a copy, which becomes
// the state only when it completes, so a stop keeps the last complete pair.
class NmfChain final : public FitChain {
 public:
  NmfChain(const FitData& data, const FitSettings& settings, const NmfOptions& options, std::stop_token stop)
      : m_data(data),
        m_settings(settings),
        m_options(options),
        m_solver(resolveNmfSolver(options)),
        m_stop(std::move(stop)),
        m_counts(topic::buildDocWordCounts(*data.corpus)) {}

  // The seeded start; false when stopped.
  bool start() {
    m_loss = topic::initNmf(m_counts, m_options.topics, m_options.loss, m_settings.seed, m_state, m_stop);
    return !std::isnan(m_loss);
  }

  // The KL loss is computed on evaluated iterations only (schedule()), the Frobenius loss on every one.
  ChainSchedule schedule() const {
    ChainSchedule s{m_options.iterations, m_options.snapshotEvery};
    s.reportEveryIteration = m_options.loss == topic::NmfLoss::Frobenius;
    return s;
  }

  bool step(const StepPlan& plan, IterationReport& report) override {
    m_next = m_state;
    const bool withLoss = m_options.loss == topic::NmfLoss::Frobenius || plan.evaluate;
    const double loss = topic::nmfSweep(m_counts, m_options.loss, m_solver, m_next, withLoss, m_stop);
    if (std::isnan(loss)) return false;
    std::swap(m_state, m_next);
    m_iteration = plan.iteration;
    if (!withLoss) return true;
    // The change per sweep since the loss was last computed, against the tolerance.
    const double before = perToken(m_loss);
    const auto sweeps = static_cast<double>(plan.iteration - m_lossIteration);
    m_loss = loss;
    m_lossIteration = plan.iteration;
    report.trainObjective = perToken(loss);
    report.extras.emplace_back("loss", loss);
    m_converged = m_options.tolerance > 0 && std::abs(report.trainObjective - before) / sweeps < m_options.tolerance;
    if (plan.evaluate || m_converged) {
      const Eigen::MatrixXd topicWord = topic::nmfTopics(m_state, m_options.smoothing);
      report.heldout = topic::heldoutPerplexity(m_data, topicWord, foldIn(topicWord), m_settings.seed);
    }
    return true;
  }
  bool converged() const override { return m_converged; }
  std::vector<NamedMatrix> snapshot(const StepPlan&) override {
    return {{topic::kTopicWord, topic::nmfTopics(m_state, m_options.smoothing)}};
  }

  // Results, also for a stopped run (then the last complete sweep, or the start).
  void finish(FitResult& result) override {
    // A stop between evaluations: the loss of the state kept, in one pass that is not stopped.
    if (!std::isnan(m_loss) && m_lossIteration != m_iteration)
      m_loss = topic::nmfLoss(m_counts, m_options.loss, m_state, {});
    if (!std::isnan(m_loss)) {
      result.finalMetrics["train_objective"] = perToken(m_loss);
      result.finalMetrics["train_loss"] = m_loss;
    }
    const Eigen::MatrixXd topicWord = topic::nmfTopics(m_state, m_options.smoothing);
    const Eigen::MatrixXd docTopic = topic::nmfDocumentMixes(m_state);
    const FoldIn fold = foldIn(topicWord);
    result.matrices.push_back({topic::kTopicWord, topicWord});
    result.matrices.push_back({topic::kDocTopic, topic::assembleDocTopic(m_data, docTopic, fold, m_settings.seed)});
    result.tokenTopics = topic::mostLikelyTopics(*m_data.corpus, topicWord, docTopic);
    if (result.status != FitStatus::Cancelled)
      topic::addFinalHeldoutMetrics(result.finalMetrics, m_data, topicWord, fold, m_settings.seed);
  }

 private:
  double perToken(double loss) const {
    return m_counts.tokens > 0 ? loss / m_counts.tokens : std::numeric_limits<double>::quiet_NaN();
  }
  // A held-out document's mix with the topics fixed, by the loss the model was fitted with.
  FoldIn foldIn(const Eigen::MatrixXd& topicWord) const {
    if (m_options.loss == topic::NmfLoss::KullbackLeibler) return emFoldIn(topicWord);
    return topic::frobeniusFoldIn(m_state.h);
  }

  const FitData& m_data;
  const FitSettings& m_settings;
  const NmfOptions& m_options;
  topic::NmfSolver m_solver;
  std::stop_token m_stop;
  topic::DocWordCounts m_counts;
  topic::NmfState m_state, m_next;
  double m_loss = std::numeric_limits<double>::quiet_NaN();
  std::int64_t m_iteration = 0;      // of the state
  std::int64_t m_lossIteration = 0;  // at which m_loss was computed (0: the start)
  bool m_converged = false;
};

class NmfModel final : public DescribedModel<&nmfInfo> {
 public:
  FitResult fit(const FitData& data, const FitSettings& settings, TrainingObserver& observer,
                std::stop_token stop) override {
    const Stopwatch clock;
    const auto options = NmfOptions::table().parse(settings.options, info().name);
    if (options.loss == topic::NmfLoss::KullbackLeibler && options.solver == NmfOptions::Solver::Hals)
      throw UsageError("nmf: --solver hals minimises the Frobenius loss only; use --loss frobenius or --solver mu");
    NmfChain chain(data, settings, options, stop);
    // Seeded even when stopped already: a stopped start still leaves topics (corpus frequencies).
    const bool cancelled = !chain.start() || stop.stop_requested();
    return driveChain(chain, chain.schedule(), settings, observer, stop, clock, cancelled);
  }
};

}  // namespace

topic::NmfSolver resolveNmfSolver(const NmfOptions& options) {
  switch (options.solver) {
    case NmfOptions::Solver::Multiplicative:
      return topic::NmfSolver::Multiplicative;
    case NmfOptions::Solver::Hals:
      return topic::NmfSolver::Hals;
    case NmfOptions::Solver::Auto:
      break;
  }
  return options.loss == topic::NmfLoss::Frobenius ? topic::NmfSolver::Hals : topic::NmfSolver::Multiplicative;
}

const OptionTable<NmfOptions>& NmfOptions::table() {
  static const auto table = [] {
    OptionTable<NmfOptions> t;
    t.add(topic::topicsOption(), &NmfOptions::topics)
        .add(topic::iterationsOption("Sweeps at most; each one updates every topic's word weights, then every "
                                     "document's topic weights."),
             &NmfOptions::iterations)
        .add(choiceOption("loss", {},
                          "kl: the generalised Kullback-Leibler divergence, which treats the counts as Poisson (PLSA "
                          "up to scaling); frobenius: the squared error, which treats them as Gaussian."),
             &NmfOptions::loss, {{"kl", topic::NmfLoss::KullbackLeibler}, {"frobenius", topic::NmfLoss::Frobenius}})
        .add(choiceOption("solver", {},
                          "auto: mu for kl, hals for frobenius; mu: Lee and Seung's multiplicative updates; hals: "
                          "exact coordinate descent on one factor column at a time (frobenius only, converges in "
                          "fewer sweeps)."),
             &NmfOptions::solver, {{"auto", Solver::Auto}, {"mu", Solver::Multiplicative}, {"hals", Solver::Hals}})
        .add(realOption("smoothing", 0.0, kNoMaximum, false,
                        "Pseudo-count added to every word of every topic's expected counts when the factors are read "
                        "as topics (the topic pages and held-out perplexity); 0 keeps words a topic never produced "
                        "impossible."),
             &NmfOptions::smoothing)
        .add(topic::toleranceOption(), &NmfOptions::tolerance)
        .add(topic::snapshotEveryOption(), &NmfOptions::snapshotEvery);
    return t;
  }();
  return table;
}

ModelDefinition nmfModel() { return defineModel<NmfModel>(); }

}  // namespace latent::core
