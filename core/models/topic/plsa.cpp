// SPDX-License-Identifier: GPL-3.0-or-later
// PLSA: options, the (tempered) EM loop, reports, held-out scoring under both protocols of 003,
// and results. References: 003 §3.4 (eq. 3.23 E step, eq. 3.24 M step), 003 §5 (tempered EM,
// regularisation, folding-in by iterating the E step, eq. 5.37), 000 eq. 27.29 (perplexity).
#include "core/models/topic/plsa.hpp"

#include <cmath>
#include <limits>
#include <utility>

#include "core/models/fit_driver.hpp"
#include "core/models/topic/plsa_kernels.hpp"
#include "core/models/topic/topic_model_support.hpp"
#include "core/util/clock.hpp"

namespace latent::core {
namespace {

// Sweeps each restart runs before the restarts are compared.
constexpr int kPlsaRestartSweeps = 10;

ModelInfo plsaInfo() {
  ModelInfo info;
  info.name = "plsa";
  info.kind = DataKind::Corpus;
  info.family = ResultFamily::Topics;
  info.title = "PLSA (EM, tempered EM)";
  info.description =
      "Each document has its own mix of K topics, fitted as fixed numbers rather than drawn from a prior as in LDA; "
      "every topic gets a small pseudo-count on every word (regularization) so that no word is impossible. "
      "Its held-out perplexity by full folding-in is famously optimistic, which is why document completion is the one "
      "reported.";
  info.objectiveName =
      "log p(words | p(z|d), p(w|z)) + log Dirichlet(1 + regularization) prior on p(w|z) (without its constant), "
      "per token (nats)";

  info.options = PlsaOptions::table().specs();
  return info;
}

// 003 §5: a held-out document's p(z|d) by iterating the E step with p(w|z) fixed, as in
// training: plain EM without a pseudo-count on p(z|d) (training has none either), or the same
// tempered E step for tempered EM. `topicWord` must outlive the result.
FoldIn plsaFoldIn(const Eigen::MatrixXd& topicWord, const topic::PlsaSettings& sweep) {
  if (sweep.temperature < 1.0) return topic::temperedEmFoldIn(topicWord, sweep.temperature);
  return emFoldIn(topicWord);
}

// The (tempered) EM iterations of one start. The state is always a complete, consistent pair
// (p(z|d), p(w|z)); a sweep writes `next` and the two are swapped only when it completes, so a
// stop keeps the last complete iteration.
class PlsaChain final : public FitChain {
 public:
  PlsaChain(const FitData& data, const FitSettings& settings, const PlsaOptions& options, std::stop_token stop)
      : m_data(data),
        m_settings(settings),
        m_options(options),
        m_stop(std::move(stop)),
        m_counts(topic::buildDocWordCounts(*data.corpus)) {
    m_sweep.temperature = options.method == PlsaOptions::Method::Tem ? options.temperature : 1.0;
    m_sweep.regularization = options.regularization;
  }

  // The seeded start `restart` and its log-likelihood; false when stopped.
  bool seed(std::uint64_t restart) {
    if (!topic::initPlsa(m_counts, m_options.topics, m_settings.seed, restart, m_sweep, m_state, m_stop)) return false;
    m_logLik = topic::plsaDocumentStep(m_counts, m_state, m_sweep, m_state, false, m_stop);
    return !std::isnan(m_logLik);
  }
  bool sweep() {
    if (!topic::plsaTopicStep(m_counts, m_state, m_sweep, m_next, m_stop)) return false;
    const double ll = topic::plsaDocumentStep(m_counts, m_state, m_sweep, m_next, true, m_stop);
    if (std::isnan(ll)) return false;
    std::swap(m_state, m_next);
    m_logLik = ll;
    return true;
  }
  double objective() const {
    return m_counts.tokens > 0 ? (m_logLik + m_state.logPrior) / m_counts.tokens
                               : std::numeric_limits<double>::quiet_NaN();
  }
  // The best start so far moves to `best` (and what `best` held comes here, to be seeded anew).
  void keepAsBest(topic::PlsaState& best) { std::swap(best, m_state); }
  // The chain continues from `best` when a start was kept; when stopped before any start, from
  // the start a stop leaves (corpus word frequencies in every topic).
  void continueFrom(topic::PlsaState& best, bool haveBest) {
    if (haveBest) std::swap(m_state, best);
    if (m_state.phi.size() == 0)
      topic::initPlsa(m_counts, m_options.topics, m_settings.seed, 0, m_sweep, m_state, m_stop);
  }

  bool step(const StepPlan& plan, IterationReport& report) override {
    if (!sweep()) return false;
    const double now = objective();
    m_converged = m_options.tolerance > 0 && plan.iteration > 1 && std::abs(now - m_previous) < m_options.tolerance;
    m_previous = now;
    report.trainObjective = now;
    if (m_counts.tokens > 0) report.extras.emplace_back("log_likelihood_per_token", m_logLik / m_counts.tokens);
    if (plan.evaluate || m_converged) {
      const Eigen::MatrixXd topicWord = m_state.phi.transpose();
      report.heldout = topic::heldoutPerplexity(m_data, topicWord, plsaFoldIn(topicWord, m_sweep), m_settings.seed);
    }
    return true;
  }
  bool converged() const override { return m_converged; }
  std::vector<NamedMatrix> snapshot(const StepPlan&) override { return {{topic::kTopicWord, m_state.phi.transpose()}}; }

  // Results, also for a stopped run (then the last complete iteration, or the start).
  void finish(FitResult& result) override {
    if (result.iterations > 0) {
      result.finalMetrics["train_objective"] = m_previous;
      if (m_counts.tokens > 0) result.finalMetrics["train_log_likelihood_per_token"] = m_logLik / m_counts.tokens;
    }
    const Eigen::MatrixXd topicWord = m_state.phi.transpose();
    const Eigen::MatrixXd docTopic = m_state.theta;
    const FoldIn fold = plsaFoldIn(topicWord, m_sweep);
    result.matrices.push_back({topic::kTopicWord, topicWord});
    result.matrices.push_back({topic::kDocTopic, topic::assembleDocTopic(m_data, docTopic, fold, m_settings.seed)});
    result.tokenTopics = topic::mostLikelyTopics(*m_data.corpus, topicWord, docTopic);
    if (result.status != FitStatus::Cancelled)
      topic::addFinalHeldoutMetrics(result.finalMetrics, m_data, topicWord, fold, m_settings.seed);
  }

 private:
  const FitData& m_data;
  const FitSettings& m_settings;
  const PlsaOptions& m_options;
  std::stop_token m_stop;
  topic::PlsaSettings m_sweep;
  topic::DocWordCounts m_counts;
  topic::PlsaState m_state, m_next;
  double m_logLik = 0.0;
  double m_previous = std::numeric_limits<double>::quiet_NaN();
  bool m_converged = false;
};

class PlsaModel final : public DescribedModel<&plsaInfo> {
 public:
  FitResult fit(const FitData& data, const FitSettings& settings, TrainingObserver& observer,
                std::stop_token stop) override {
    const Stopwatch clock;
    const auto options = PlsaOptions::table().parse(settings.options, info().name);
    PlsaChain chain(data, settings, options, stop);

    // Restarts: each seeded start runs a few sweeps (fewer once it settles); the best objective continues.
    StartPhase starts(FitPhase::Restarts, settings, observer, stop, clock);
    topic::PlsaState best;
    const bool cancelled =
        stop.stop_requested() || !runSeededStarts(chain, starts, options.restarts, kPlsaRestartSweeps,
                                                  options.tolerance, [&] { chain.keepAsBest(best); });
    chain.continueFrom(best, starts.best() > 0);

    const ChainSchedule schedule{options.iterations, options.snapshotEvery};
    return driveChain(chain, schedule, settings, observer, stop, clock, cancelled);
  }
};

}  // namespace

const OptionTable<PlsaOptions>& PlsaOptions::table() {
  static const auto table = [] {
    OptionTable<PlsaOptions> t;
    t.add(topic::topicsOption(), &PlsaOptions::topics)
        .add(topic::iterationsOption(
                 "EM iterations at most; each one updates every document's topic mix and every topic."),
             &PlsaOptions::iterations)
        .add(choiceOption("method", {},
                          "em: plain EM; tem: tempered EM, which softens each word's topic responsibilities by the "
                          "temperature."),
             &PlsaOptions::method, {{"em", Method::Em}, {"tem", Method::Tem}})
        .add(realOption("temperature", 0.0, 1.0, true,
                        "Tempered EM only: the power (0 to 1] applied in the E step; lower values fit the training "
                        "documents less closely (003 searched 0.5 to 1)."),
             &PlsaOptions::temperature)
        .add(realOption(
                 "regularization", 0.0, kNoMaximum, true,
                 "Pseudo-count added to every word of every topic: larger values smooth the topics towards uniform."),
             &PlsaOptions::regularization)
        .add(restartsOption("Independent seeded starts, each run for 10 iterations; the best one is continued. More "
                            "starts make a poor local optimum (one theme split in two while two others share a topic) "
                            "less likely."),
             &PlsaOptions::restarts)
        .add(topic::toleranceOption(), &PlsaOptions::tolerance)
        .add(topic::snapshotEveryOption(), &PlsaOptions::snapshotEvery);
    return t;
  }();
  return table;
}

ModelDefinition plsaModel() { return defineModel<PlsaModel>(); }

}  // namespace latent::core
