// SPDX-License-Identifier: GPL-3.0-or-later
// CTM: options, variational EM under the fit driver, held-out perplexity with the logistic-normal
// fold-in under both protocols of 003, and results. References: 000 §27.4.1 (eq. 27.50-27.55,
// Fig. 27.10), Blei & Lafferty 2007 (the variational bound and its updates).
#include "core/models/topic/ctm.hpp"

#include <cmath>
#include <limits>
#include <utility>

#include "core/models/fit_driver.hpp"
#include "core/models/topic/ctm_kernels.hpp"
#include "core/models/topic/topic_model_support.hpp"
#include "core/util/clock.hpp"

namespace latent::core {
namespace {

// EM iterations of each start before the best is chosen (fewer once its bound settles).
constexpr int kCtmRestartIterations = 10;

ModelInfo ctmInfo() {
  ModelInfo info;
  info.name = "ctm";
  info.kind = DataKind::Corpus;
  info.family = ResultFamily::Topics;
  info.title = "CTM (correlated topic model)";
  info.description =
      "LDA with a logistic-normal prior on each document's topic mix instead of a Dirichlet: its covariance is "
      "learnt, so the model can say which topics go together (and which avoid each other). Fitted by variational "
      "EM; held-out perplexity by document completion with its own logistic-normal fold-in.";
  info.objectiveName = "the variational lower bound on log p(words | mu, Sigma, beta), per token (nats)";
  info.options = CtmOptions::table().specs();
  info.needs = [](const FitData& data, const nlohmann::json& options) {
    const auto K = options.at("k").get<std::uint64_t>();
    const auto V = static_cast<std::uint64_t>(data.corpus->vocabularySize());
    const auto D = static_cast<std::uint64_t>(data.fullDocumentCount);
    // Two copies of each document's q, the topics and their next estimate, the covariance blocks.
    return ResourceNeeds{(4 * K * D + 2 * K * V + 4 * K * K) * 8, std::max(K * V, D * K) * 8};
  };
  return info;
}

class CtmChain final : public FitChain {
 public:
  CtmChain(const FitData& data, const FitSettings& settings, const CtmOptions& options, std::stop_token stop)
      : m_data(data),
        m_settings(settings),
        m_options(options),
        m_stop(std::move(stop)),
        m_counts(topic::buildDocWordCounts(*data.corpus)),
        m_estep{static_cast<int>(options.estepIterations), options.estepTolerance, options.shrinkage} {}

  // The restarts (runSeededStarts): start `restart`, one EM iteration, its bound per token.
  bool seed(std::uint64_t restart) {
    topic::initCtm(m_counts, m_options.topics, m_options.beta, m_settings.seed, restart, m_globals, m_documents);
    m_previous = std::numeric_limits<double>::quiet_NaN();
    return !m_stop.stop_requested();
  }
  bool sweep(bool reestimateBeta = false) {
    const double bound = topic::ctmIteration(m_counts, m_estep, m_globals, m_documents, m_stop, reestimateBeta);
    if (std::isnan(bound)) return false;
    m_previous = perToken(bound);
    return true;
  }
  double objective() const { return m_previous; }
  struct Start {
    topic::CtmGlobals globals;
    topic::CtmDocuments documents;
  };
  void keepAsBest(Start& best) {
    std::swap(best.globals, m_globals);
    std::swap(best.documents, m_documents);
  }
  // From the best start, or, stopped before any was scored, from a seeded start.
  void continueFrom(Start& best, bool haveBest) {
    if (haveBest) {
      keepAsBest(best);
      m_previous = std::numeric_limits<double>::quiet_NaN();
    }
    if (m_globals.topicWord.size() == 0) seed(0);
  }

  bool step(const StepPlan& plan, IterationReport& report) override {
    const double before = m_previous;
    if (!sweep(m_options.optimizeEvery > 0 && plan.iteration % m_options.optimizeEvery == 0)) return false;
    const double now = m_previous;
    m_previous = before;
    m_converged = m_options.tolerance > 0 && plan.iteration > 1 && std::abs(now - m_previous) < m_options.tolerance;
    m_previous = now;
    report.trainObjective = now;
    if (plan.evaluate || m_converged)
      report.heldout =
          topic::heldoutPerplexity(m_data, m_globals.topicWord, topic::ctmFoldIn(m_globals, m_estep), m_settings.seed);
    return true;
  }
  bool converged() const override { return m_converged; }
  std::vector<NamedMatrix> snapshot(const StepPlan&) override { return {{topic::kTopicWord, m_globals.topicWord}}; }

  void finish(FitResult& result) override {
    const FoldIn fold = topic::ctmFoldIn(m_globals, m_estep);
    const Eigen::MatrixXd proportions = topic::ctmExpectedProportions(m_documents, m_settings.seed);
    result.matrices.push_back({topic::kTopicWord, m_globals.topicWord});
    result.matrices.push_back({topic::kDocTopic, topic::assembleDocTopic(m_data, proportions, fold, m_settings.seed)});
    result.matrices.push_back({topic::kTopicMean, topic::ctmCentredMean(m_globals.mu).transpose()});
    result.matrices.push_back({topic::kTopicCovariance, topic::ctmCentredCovariance(m_globals.sigma)});
    result.matrices.push_back({topic::kTopicCorrelation, topic::ctmCorrelations(m_globals.sigma)});
    result.tokenTopics = topic::mostLikelyTopics(*m_data.corpus, m_globals.topicWord, proportions);
    if (!std::isnan(m_previous)) result.finalMetrics["train_objective"] = m_previous;
    result.finalMetrics["beta"] = m_globals.beta;
    if (result.status != FitStatus::Cancelled)
      topic::addFinalHeldoutMetrics(result.finalMetrics, m_data, m_globals.topicWord, fold, m_settings.seed);
  }

 private:
  double perToken(double bound) const {
    return m_counts.tokens > 0 ? bound / m_counts.tokens : std::numeric_limits<double>::quiet_NaN();
  }

  const FitData& m_data;
  const FitSettings& m_settings;
  const CtmOptions& m_options;
  std::stop_token m_stop;
  topic::DocWordCounts m_counts;
  topic::CtmEStep m_estep;
  topic::CtmGlobals m_globals;
  topic::CtmDocuments m_documents;
  double m_previous = std::numeric_limits<double>::quiet_NaN();
  bool m_converged = false;
};

class CtmModel final : public DescribedModel<&ctmInfo> {
 public:
  FitResult fit(const FitData& data, const FitSettings& settings, TrainingObserver& observer,
                std::stop_token stop) override {
    const Stopwatch clock;
    const auto options = CtmOptions::table().parse(settings.options, info().name);
    CtmChain chain(data, settings, options, stop);
    // Restarts: a few EM iterations from each seeded start; the highest bound continues.
    StartPhase starts(FitPhase::Restarts, settings, observer, stop, clock);
    CtmChain::Start best;
    const bool cancelled =
        stop.stop_requested() || !runSeededStarts(chain, starts, options.restarts, kCtmRestartIterations,
                                                  options.tolerance, [&] { chain.keepAsBest(best); });
    chain.continueFrom(best, starts.best() > 0);
    return driveChain(chain, ChainSchedule{options.iterations, options.snapshotEvery}, settings, observer, stop, clock,
                      cancelled);
  }
};

}  // namespace

const OptionTable<CtmOptions>& CtmOptions::table() {
  static const auto table = [] {
    OptionTable<CtmOptions> t;
    t.add(integerOption("k", 2, 100000, "Number of topics (at least two: the model is about how they go together)."),
          &CtmOptions::topics)
        .add(topic::iterationsOption("EM iterations at most; each updates every document's posterior, then the "
                                     "topics and the prior's mean and covariance."),
             &CtmOptions::iterations)
        .add(realOption("beta", 0.0, kNoMaximum, true,
                        "Prior on each topic's words (a symmetric Dirichlet): small values make topics use few, "
                        "distinctive words. Only the start when optimize_every is set."),
             &CtmOptions::beta)
        .add(integerOption("optimize_every", 0, 1e7,
                           "Re-estimate beta from the topics every N iterations (empirical Bayes, as LDA-VB does); "
                           "0 keeps it fixed."),
             &CtmOptions::optimizeEvery)
        .add(realOption("shrinkage", 0.0, 1.0, false,
                        "Weight of the identity in the estimate of the topics' covariance, the rest the "
                        "maximum-likelihood estimate: from short documents that alone is far too wide and makes "
                        "held-out documents' topics too sure. 0: the maximum-likelihood estimate."),
             &CtmOptions::shrinkage)
        .add(integerOption("estep_iterations", 1, 1000,
                           "Updates of each document's posterior per EM iteration at most (it usually settles "
                           "within a few)."),
             &CtmOptions::estepIterations)
        .add(realOption("estep_tolerance", 0.0, kNoMaximum, false,
                        "A document's posterior counts as settled when its bound changes by less than this per "
                        "word."),
             &CtmOptions::estepTolerance)
        .add(integerOption("restarts", 1, 1000,
                           "Seeded starts, each run for 10 EM iterations; the one with the highest bound continues. "
                           "More starts make it less likely that two real topics stay merged into one."),
             &CtmOptions::restarts)
        .add(topic::toleranceOption(), &CtmOptions::tolerance)
        .add(topic::snapshotEveryOption(), &CtmOptions::snapshotEvery);
    return t;
  }();
  return table;
}

ModelDefinition ctmModel() { return defineModel<CtmModel>(); }

}  // namespace latent::core
