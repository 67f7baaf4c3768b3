// SPDX-License-Identifier: GPL-3.0-or-later
// PLSA: options, the (tempered) EM loop, reports, held-out scoring under both protocols of 003,
// and results. References: 003 §3.4 (eq. 3.23 E step, eq. 3.24 M step), 003 §5 (tempered EM,
// regularisation, folding-in by iterating the E step, eq. 5.37), 000 eq. 27.29 (perplexity).
#include "models/topic/plsa.hpp"

#include <cmath>
#include <limits>
#include <utility>

#include "models/topic/plsa_kernels.hpp"
#include "models/topic/topic_model_support.hpp"
#include "util/clock.hpp"

namespace latent::core {
namespace {

// Sweeps each restart runs before the restarts are compared.
constexpr int kRestartSweeps = 10;

ModelInfo makeInfo() {
  ModelInfo info;
  info.name = "plsa";
  info.kind = DataKind::Corpus;
  info.title = "PLSA (EM, tempered EM)";
  info.description =
      "Each document has its own mix of K topics, fitted as fixed numbers rather than drawn from a prior as in LDA; "
      "every topic gets a small pseudo-count on every word (regularization) so that no word is impossible. "
      "Its held-out perplexity by full folding-in is famously optimistic, which is why document completion is the one "
      "reported.";
  info.objectiveName =
      "log p(words | p(z|d), p(w|z)) + log Dirichlet(1 + regularization) prior on p(w|z) (without its constant), "
      "per token (nats)";
  info.heldoutName = "held-out perplexity, document completion (000 eq. 27.29)";
  info.heldoutKey = "heldout_perplexity";

  info.options = PlsaOptions::table().specs();
  return info;
}

class PlsaModel final : public DescribedModel<&makeInfo> {
 public:
  FitResult fit(const FitData& data, const FitSettings& settings, TrainingObserver& observer,
                std::stop_token stop) override {
    const Stopwatch clock;
    const auto options = PlsaOptions::table().parse(settings.options, info().name);
    const Corpus& corpus = *data.corpus;
    topic::PlsaSettings sweep;
    sweep.temperature = options.method == PlsaOptions::Method::Tem ? options.temperature : 1.0;
    sweep.regularization = options.regularization;
    const auto counts = topic::buildDocWordCounts(corpus);
    FitResult result;
    result.status = FitStatus::MaxIterations;

    // `state` is always a complete, consistent pair (p(z|d), p(w|z)); a sweep writes `next` and
    // the two are swapped only when it completes, so a stop keeps the last complete iteration.
    topic::PlsaState state, next, best;
    double logLik = 0.0;
    const auto sweepOnce = [&] {
      if (!topic::plsaTopicStep(counts, state, sweep, next, stop)) return false;
      const double ll = topic::plsaDocumentStep(counts, state, sweep, next, true, stop);
      if (std::isnan(ll)) return false;
      std::swap(state, next);
      logLik = ll;
      return true;
    };
    const auto objectiveNow = [&] {
      return counts.tokens > 0 ? (logLik + state.logPrior) / counts.tokens : std::numeric_limits<double>::quiet_NaN();
    };
    const auto begin = [&](std::uint64_t restart) {
      if (!topic::initPlsa(counts, options.topics, settings.seed, restart, sweep, state, stop)) return false;
      logLik = topic::plsaDocumentStep(counts, state, sweep, state, false, stop);
      return !std::isnan(logLik);
    };

    // Restarts: each seeded start runs a few sweeps; the best objective continues below.
    bool cancelled = stop.stop_requested();
    bool haveBest = false;
    double bestObjective = -std::numeric_limits<double>::infinity();
    for (std::int64_t r = 0; !cancelled && r < options.restarts; ++r) {
      cancelled = !begin(static_cast<std::uint64_t>(r));
      if (cancelled || options.restarts == 1) break;
      double previous = std::numeric_limits<double>::quiet_NaN();
      for (int i = 0; i < kRestartSweeps && !cancelled; ++i) {
        cancelled = !sweepOnce();
        if (cancelled || (i > 0 && std::abs(objectiveNow() - previous) < options.tolerance)) break;
        previous = objectiveNow();
      }
      if (!cancelled && (!haveBest || objectiveNow() > bestObjective)) {
        bestObjective = objectiveNow();
        std::swap(best, state);
        haveBest = true;
      }
    }
    if (haveBest) std::swap(state, best);
    // Stopped before any start: the start a stop leaves (corpus word frequencies in every topic).
    if (state.phi.size() == 0) topic::initPlsa(counts, options.topics, settings.seed, 0, sweep, state, stop);

    double previous = std::numeric_limits<double>::quiet_NaN();
    for (std::int64_t t = 1; !cancelled && t <= options.iterations; ++t) {
      if (!sweepOnce()) {
        cancelled = true;
        break;
      }
      result.iterations = t;

      const double objective = counts.tokens > 0 ? (logLik + state.logPrior) / counts.tokens
                                                 : std::numeric_limits<double>::quiet_NaN();
      const bool converged = options.tolerance > 0 && t > 1 && std::abs(objective - previous) < options.tolerance;
      previous = objective;
      IterationReport report;
      report.iteration = t;
      report.trainObjective = objective;
      if (counts.tokens > 0) report.extras.emplace_back("log_likelihood_per_token", logLik / counts.tokens);
      if (evaluationDue(t, options.iterations, settings.evalEvery) || converged) {
        const Eigen::MatrixXd topicWord = state.phi.transpose();
        report.heldout = topic::heldoutPerplexity(data, topicWord, foldIn(topicWord, sweep), settings.seed);
      }
      if (options.snapshotEvery > 0 && t % options.snapshotEvery == 0) {
        auto snapshot = std::make_shared<ModelSnapshot>();
        snapshot->iteration = t;
        snapshot->matrices.push_back({topic::kTopicWord, state.phi.transpose()});
        observer.onSnapshot(std::move(snapshot));
      }
      report.seconds = clock.seconds();
      if (!observer.onReport(report) || stop.stop_requested()) {
        cancelled = true;
        break;
      }
      result.finalMetrics["train_objective"] = objective;
      if (counts.tokens > 0) result.finalMetrics["train_log_likelihood_per_token"] = logLik / counts.tokens;
      if (converged) {
        result.status = FitStatus::Converged;
        break;
      }
    }
    if (cancelled) result.status = FitStatus::Cancelled;

    // Results, also for a stopped run (then the last complete iteration, or the start).
    const Eigen::MatrixXd topicWord = state.phi.transpose();
    const Eigen::MatrixXd docTopic = state.theta;
    const FoldIn fold = foldIn(topicWord, sweep);
    result.matrices.push_back({topic::kTopicWord, topicWord});
    result.matrices.push_back({topic::kDocTopic, topic::assembleDocTopic(data, docTopic, fold, settings.seed)});
    result.tokenTopics = topic::mostLikelyTopics(corpus, topicWord, docTopic);
    if (!cancelled) topic::addFinalHeldoutMetrics(result.finalMetrics, data, topicWord, fold, settings.seed);
    result.seconds = clock.seconds();
    return result;
  }

 private:
  // 003 §5: a held-out document's p(z|d) by iterating the E step with p(w|z) fixed, as in
  // training: plain EM without a pseudo-count on p(z|d) (training has none either), or the same
  // tempered E step for tempered EM. `topicWord` must outlive the result.
  static FoldIn foldIn(const Eigen::MatrixXd& topicWord, const topic::PlsaSettings& sweep) {
    if (sweep.temperature < 1.0) return topic::temperedEmFoldIn(topicWord, sweep.temperature);
    return emFoldIn(topicWord);
  }
};

}  // namespace

const OptionTable<PlsaOptions>& PlsaOptions::table() {
  static const auto table = [] {
    OptionTable<PlsaOptions> t;
    t.add(topic::topicsOption(), &PlsaOptions::topics)
        .add(topic::iterationsOption("EM iterations at most; each one updates every document's topic mix and every topic."),
             &PlsaOptions::iterations)
        .add(choiceOption("method", {},
                          "em: plain EM; tem: tempered EM, which softens each word's topic responsibilities by the "
                          "temperature."),
             &PlsaOptions::method, {{"em", Method::Em}, {"tem", Method::Tem}})
        .add(realOption("temperature", 0.0, 1.0, true,
                        "Tempered EM only: the power (0 to 1] applied in the E step; lower values fit the training "
                        "documents less closely (003 searched 0.5 to 1)."),
             &PlsaOptions::temperature)
        .add(realOption("regularization", 0.0, kNoMaximum, true,
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
