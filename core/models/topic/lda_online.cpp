// SPDX-License-Identifier: GPL-3.0-or-later
// Online variational Bayes for LDA: minibatch E steps in parallel, stochastic natural-gradient steps
// on lambda (000 Alg. 27.2).
//
// Start: as lda-vb (option "init", topic::initialTopics): by default lambda from a mixture of
// categoricals fitted on the whole corpus, already at the scale of eta + (D / |B|) s_B. From random
// Gamma(100, 1/100) topics (Alg. 27.2 line 2, Hoffman et al.) small corpora often end in an optimum
// with two true topics merged and one split (tst_lda_online: a much lower ELBO, not an error in the
// update); scikit-learn's online LDA does the same at equal settings. On the cora sample the held-out
// perplexity (K=20/50, seeds 1-2) was 1071/1100/1032/1098 from random and 1063/1089/1075/1061 from
// the mixture; on the State of the Union (K=20) 3456 from random, 3226 from the mixture.
//
// Step t (one minibatch B of the shuffled training documents):
//   E step on every document of B (documentEStep, warm-started from its gamma of the last pass);
//   lambda^ = eta + (D / |B|) s_B, with s_B the minibatch's expected word-topic counts (Alg. 27.2
//   line 7 with a minibatch, as 000 §27.3.7 recommends);
//   lambda = (1 - rho_t) lambda + rho_t lambda^, rho_t = (tau0 + t)^-kappa (line 8).
// Each pass visits every document once, in an order shuffled by Rng(seed, pass): deterministic, and
// the E steps of a minibatch depend only on their own documents, so the thread count does not change
// the numbers either.
//
// The training objective: the ELBO per token with each document's terms taken when its minibatch
// was visited (against the topics before that minibatch's update, so in the first pass every
// document is scored before the model has learnt from it) and the topic terms at the end of the
// pass. It is not the bound of a single q, which would need a full batch E step per pass; the exact
// ELBO of the final topics is computed once at the end ("elbo_per_token").
#include "models/topic/lda_online.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "models/topic/lda_vb.hpp"
#include "models/topic/lda_vb_kernels.hpp"
#include "models/topic/topic_model_support.hpp"
#include "util/clock.hpp"
#include "util/random.hpp"

namespace latent::core {
namespace {

constexpr std::uint64_t kInitStream = 0x4C44414F4E4C0000ULL;     // "LDAONL"
constexpr std::uint64_t kShuffleStream = 0x5348554646000000ULL;  // "SHUFF"

ModelInfo makeInfo() {
  ModelInfo info;
  info.name = "lda-online";
  info.kind = DataKind::Corpus;
  info.title = "LDA (online variational Bayes)";
  info.description =
      "Latent Dirichlet allocation learnt from small batches of documents at a time: after each batch the "
      "topics take a step towards what that batch suggests. It suits large corpora, where one pass can "
      "already give good topics.";
  info.objectiveName = "ELBO per token, each document scored when its minibatch was visited (nats)";
  info.heldoutName = "held-out perplexity, document completion (000 eq. 27.29)";
  info.heldoutKey = "heldout_perplexity";
  info.options = LdaOnlineOptions::table().specs();
  return info;
}

class LdaOnlineModel final : public DescribedModel<&makeInfo> {
 public:
  FitResult fit(const FitData& data, const FitSettings& settings, TrainingObserver& observer,
                std::stop_token stop) override {
    const Stopwatch clock;
    const auto options = LdaOnlineOptions::table().parse(settings.options, info().name);
    const Corpus& corpus = *data.corpus;
    const auto K = static_cast<Eigen::Index>(options.topics);
    const auto V = static_cast<Eigen::Index>(corpus.vocabularySize());
    const std::size_t D = corpus.documentCount();
    const std::size_t B = std::max<std::size_t>(1, std::min<std::size_t>(static_cast<std::size_t>(options.batchSize), D));
    FitResult result;

    const auto docs = topic::countDocumentWords(corpus);
    std::vector<std::int64_t> scratch(static_cast<std::size_t>(V), -1);
    topic::WordPostings postings;
    if (options.init != "random") {
      std::vector<std::int32_t> all(D);
      std::iota(all.begin(), all.end(), 0);
      postings.build(docs, all, scratch);
    }
    auto topics = topic::initialTopics(options.init, docs, postings, K, V, options.eta, settings.seed, kInitStream, stop);
    Eigen::VectorXd alpha =
        Eigen::VectorXd::Constant(K, options.alpha > 0.0 ? options.alpha : 1.0 / static_cast<double>(K));
    double eta = options.eta;
    const topic::EStepControl control{options.estepIterations, options.estepTolerance};

    topic::EStepState state;
    state.reset(docs, alpha, B);
    std::vector<std::int32_t> order(D);
    std::iota(order.begin(), order.end(), 0);
    Eigen::MatrixXd compact;
    double prior = 0.0, rho = 0.0;
    std::int64_t updates = 0;
    const auto start = options.estepRestart ? topic::EStepStart::Fresh : topic::EStepStart::Warm;
    const double noBaseline = -std::numeric_limits<double>::infinity();

    bool cancelled = stop.stop_requested();
    std::int64_t done = 0;
    for (std::int64_t pass = 1; pass <= options.iterations && !cancelled; ++pass) {
      Rng(settings.seed, kShuffleStream + static_cast<std::uint64_t>(pass)).shuffle(std::span(order));
      for (std::size_t first = 0; first < D; first += B) {
        const auto batch = std::span<const std::int32_t>(order).subspan(first, std::min(B, D - first));
        postings.build(docs, batch, scratch);
        if (!topic::corpusEStep(docs, batch, topics.expElogBeta, alpha, control, start, noBaseline, state, stop) ||
            !topic::expectedWordTopicCounts(postings, state.expElogTheta, state.scaledCounts, topics.expElogBeta, compact,
                                            stop)) {
          cancelled = true;
          break;
        }
        // Alg. 27.2 lines 4, 7, 8 with the minibatch's statistics scaled up to the corpus.
        ++updates;
        rho = std::pow(options.tau0 + static_cast<double>(updates), -options.kappa);
        const double scale = rho * static_cast<double>(D) / static_cast<double>(batch.size());
        topics.lambda.array() = (1.0 - rho) * topics.lambda.array() + rho * eta;
        for (std::size_t i = 0; i < postings.words.size(); ++i)
          topics.lambda.col(postings.words[i]) += scale * compact.col(static_cast<Eigen::Index>(i));
        prior = topic::refreshTopics(topics, eta, nullptr).prior;
      }
      if (cancelled) break;
      if (options.optimizeEvery > 0 && pass % options.optimizeEvery == 0)
        prior += topic::reestimateHyperparameters(state.gammas, topics, alpha, eta);
      done = pass;

      double bound = prior, meanPasses = 0.0;
      for (const double b : state.bounds) bound += b;
      for (const int p : state.passes) meanPasses += p;
      IterationReport report;
      report.iteration = pass;
      report.trainObjective = docs.tokens > 0 ? bound / docs.tokens : std::numeric_limits<double>::quiet_NaN();
      report.extras = {{"alpha_sum", alpha.sum()}, {"eta", eta}, {"rho", rho},
                       {"estep_iterations", D > 0 ? meanPasses / static_cast<double>(D) : 0.0}};
      report.seconds = clock.seconds();
      if (evaluationDue(pass, options.iterations, settings.evalEvery))
        report.heldout = topic::variationalHeldout(data, settings, topics, alpha);
      if (options.snapshotEvery > 0 && pass % options.snapshotEvery == 0) {
        auto snapshot = std::make_shared<ModelSnapshot>();
        snapshot->iteration = pass;
        snapshot->matrices.push_back({topic::kTopicWord, topics.posteriorMean()});
        observer.onSnapshot(std::move(snapshot));
      }
      if (!observer.onReport(report) || stop.stop_requested()) cancelled = true;
    }

    // The documents' mixtures under the final topics (they were last estimated against older ones),
    // and the exact ELBO of that state, a batch E step over every document.
    if (!cancelled && D > 0) {
      std::iota(order.begin(), order.end(), 0);
      state.expElogTheta.resize(K, static_cast<Eigen::Index>(D));
      if (topic::corpusEStep(docs, order, topics.expElogBeta, alpha, control, start, noBaseline, state, stop)) {
        double bound = prior;
        for (const double b : state.bounds) bound += b;
        result.finalMetrics["elbo_per_token"] = bound / docs.tokens;
      } else {
        cancelled = true;
      }
    }
    result.iterations = done;
    result.status = cancelled ? FitStatus::Cancelled : FitStatus::MaxIterations;
    topic::finishVariationalLda(data, settings, topics, state.gammas, alpha, eta, cancelled, result);
    result.seconds = clock.seconds();
    return result;
  }
};

}  // namespace

const OptionTable<LdaOnlineOptions>& LdaOnlineOptions::table() {
  static const auto table = [] {
    // Online VB never keeps two E steps of a document (there is no bound to protect), so its
    // restart means only where each visit starts.
    OptionSpec restart = topic::estepRestartOption();
    restart.help = "Start each document's topic mix afresh (even) at every visit; false: from where its last visit ended.";
    OptionTable<LdaOnlineOptions> t;
    t.add(topic::topicsOption(), &LdaOnlineOptions::topics)
        .add(topic::iterationsOption("Passes over all documents, each in shuffled minibatches."),
             &LdaOnlineOptions::iterations)
        .add(topic::variationalAlphaOption(), &LdaOnlineOptions::alpha)
        .add(topic::betaOption(), &LdaOnlineOptions::eta)
        .add(integerOption("batch_size", 1, 1e9, "Documents per minibatch: the topics are updated after each minibatch."),
             &LdaOnlineOptions::batchSize)
        .add(realOption("tau0", 0.0, kNoMaximum, false,
                        "Delay of the step sizes (tau0 + t)^-kappa: larger values make the first minibatches count less."),
             &LdaOnlineOptions::tau0)
        .add(realOption("kappa", 0.5, 1.0, true, "Forgetting rate, above 0.5 and at most 1: larger values shrink the steps faster."),
             &LdaOnlineOptions::kappa)
        .add(topic::optimizeEveryOption(), &LdaOnlineOptions::optimizeEvery)
        .add(topic::snapshotEveryOption(), &LdaOnlineOptions::snapshotEvery)
        .add(topic::estepIterationsOption(), &LdaOnlineOptions::estepIterations)
        .add(topic::estepToleranceOption(), &LdaOnlineOptions::estepTolerance)
        .add(restart, &LdaOnlineOptions::estepRestart)
        .add(topic::initOption(), &LdaOnlineOptions::init);
    return t;
  }();
  return table;
}

ModelDefinition ldaOnlineModel() { return defineModel<LdaOnlineModel>(); }

}  // namespace latent::core
