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
#include "core/models/topic/lda_online.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/models/fit_driver.hpp"
#include "core/models/topic/lda_vb.hpp"
#include "core/models/topic/lda_vb_kernels.hpp"
#include "core/models/topic/topic_model_support.hpp"
#include "core/util/clock.hpp"
#include "core/util/random.hpp"

namespace latent::core {
namespace {

constexpr std::uint64_t kOnlineInitStream = 0x4C44414F4E4C0000ULL;  // "LDAONL"
constexpr std::uint64_t kShuffleStream = 0x5348554646000000ULL;     // "SHUFF"

ModelInfo ldaOnlineInfo() {
  ModelInfo info;
  info.name = "lda-online";
  info.kind = DataKind::Corpus;
  info.family = ResultFamily::Topics;
  info.title = "LDA (online variational Bayes)";
  info.description =
      "Latent Dirichlet allocation learnt from small batches of documents at a time: after each batch the "
      "topics take a step towards what that batch suggests. It suits large corpora, where one pass can "
      "already give good topics.";
  info.objectiveName = "ELBO per token, each document scored when its minibatch was visited (nats)";
  info.options = LdaOnlineOptions::table().specs();
  info.needs = topic::variationalTopicNeeds;
  return info;
}

// The passes of online VB: each one visits every training document once, in shuffled minibatches,
// and steps the topics after each minibatch.
class LdaOnlineChain final : public FitChain {
 public:
  LdaOnlineChain(const FitData& data, const FitSettings& settings, const LdaOnlineOptions& options,
                 std::stop_token stop)
      : m_data(data),
        m_settings(settings),
        m_options(options),
        m_stop(std::move(stop)),
        m_topicCount(static_cast<Eigen::Index>(options.topics)),
        m_documents(data.corpus->documentCount()),
        m_batchSize(
            std::max<std::size_t>(1, std::min<std::size_t>(static_cast<std::size_t>(options.batchSize), m_documents))),
        m_docs(topic::countDocumentWords(*data.corpus)),
        m_scratch(data.corpus->vocabularySize(), -1),
        m_alpha(Eigen::VectorXd::Constant(
            m_topicCount, options.alpha > 0.0 ? options.alpha : 1.0 / static_cast<double>(m_topicCount))),
        m_eta(options.eta),
        m_control{options.estepIterations, options.estepTolerance},
        m_order(m_documents),
        m_estepStart(options.estepRestart ? topic::EStepStart::Fresh : topic::EStepStart::Warm) {
    if (options.init != "random") {
      std::vector<std::int32_t> all(m_documents);
      std::iota(all.begin(), all.end(), 0);
      m_postings.build(m_docs, all, m_scratch);
    }
    m_topics = topic::initialTopics(options.init, m_docs, m_postings, m_topicCount,
                                    static_cast<Eigen::Index>(data.corpus->vocabularySize()), options.eta,
                                    settings.seed, kOnlineInitStream, m_stop);
    m_state.reset(m_docs, m_alpha, m_batchSize);
    std::iota(m_order.begin(), m_order.end(), 0);
  }

  bool step(const StepPlan& plan, IterationReport& report) override {
    const std::size_t D = m_documents, B = m_batchSize;
    Rng(m_settings.seed, kShuffleStream + static_cast<std::uint64_t>(plan.iteration)).shuffle(std::span(m_order));
    for (std::size_t first = 0; first < D; first += B) {
      const auto batch = std::span<const std::int32_t>(m_order).subspan(first, std::min(B, D - first));
      m_postings.build(m_docs, batch, m_scratch);
      if (!topic::corpusEStep(m_docs, batch, m_topics.expElogBeta, m_alpha, m_control, m_estepStart, kNoBaseline,
                              m_state, m_stop) ||
          !topic::expectedWordTopicCounts(m_postings, m_state.expElogTheta, m_state.scaledCounts, m_topics.expElogBeta,
                                          m_compact, m_stop))
        return false;
      // Alg. 27.2 lines 4, 7, 8 with the minibatch's statistics scaled up to the corpus.
      ++m_updates;
      m_rho = std::pow(m_options.tau0 + static_cast<double>(m_updates), -m_options.kappa);
      const double scale = m_rho * static_cast<double>(D) / static_cast<double>(batch.size());
      m_topics.lambda.array() = (1.0 - m_rho) * m_topics.lambda.array() + m_rho * m_eta;
      for (std::size_t i = 0; i < m_postings.words.size(); ++i)
        m_topics.lambda.col(m_postings.words[i]) += scale * m_compact.col(static_cast<Eigen::Index>(i));
      m_prior = topic::refreshTopics(m_topics, m_eta, nullptr).prior;
    }
    if (m_options.optimizeEvery > 0 && plan.iteration % m_options.optimizeEvery == 0)
      m_prior += topic::reestimateHyperparameters(m_state.gammas, m_topics, m_alpha, m_eta);

    double bound = m_prior, meanPasses = 0.0;
    for (const double b : m_state.bounds) bound += b;
    for (const int p : m_state.passes) meanPasses += p;
    report.trainObjective = m_docs.tokens > 0 ? bound / m_docs.tokens : std::numeric_limits<double>::quiet_NaN();
    report.extras = {{"alpha_sum", m_alpha.sum()},
                     {"eta", m_eta},
                     {"rho", m_rho},
                     {"estep_iterations", D > 0 ? meanPasses / static_cast<double>(D) : 0.0}};
    if (plan.evaluate) report.heldout = topic::variationalHeldout(m_data, m_settings, m_topics, m_alpha);
    return true;
  }
  std::vector<NamedMatrix> snapshot(const StepPlan&) override {
    // Moved in: a braced list would copy the K x V matrix (an initializer_list's elements are const).
    std::vector<NamedMatrix> matrices;
    matrices.push_back({topic::kTopicWord, m_topics.posteriorMean()});
    return matrices;
  }

  // The documents' mixtures under the final topics (they were last estimated against older ones),
  // and the exact ELBO of that state, a batch E step over every document; a stop during it makes
  // the run Cancelled.
  void finish(FitResult& result) override {
    const std::size_t D = m_documents;
    if (result.status != FitStatus::Cancelled && D > 0) {
      std::iota(m_order.begin(), m_order.end(), 0);
      m_state.expElogTheta.resize(m_topicCount, static_cast<Eigen::Index>(D));
      if (topic::corpusEStep(m_docs, m_order, m_topics.expElogBeta, m_alpha, m_control, m_estepStart, kNoBaseline,
                             m_state, m_stop)) {
        double bound = m_prior;
        for (const double b : m_state.bounds) bound += b;
        result.finalMetrics["elbo_per_token"] = bound / m_docs.tokens;
      } else {
        result.status = FitStatus::Cancelled;
      }
    }
    topic::finishVariationalLda(m_data, m_settings, m_topics, m_state.gammas, m_alpha, m_eta,
                                result.status == FitStatus::Cancelled, result);
  }

 private:
  static constexpr double kNoBaseline = -std::numeric_limits<double>::infinity();

  const FitData& m_data;
  const FitSettings& m_settings;
  const LdaOnlineOptions& m_options;
  std::stop_token m_stop;
  Eigen::Index m_topicCount;
  std::size_t m_documents;
  std::size_t m_batchSize;
  topic::DocumentWordCounts m_docs;
  std::vector<std::int64_t> m_scratch;
  topic::WordPostings m_postings;
  topic::VariationalTopics m_topics;
  Eigen::VectorXd m_alpha;
  double m_eta;
  topic::EStepControl m_control;
  topic::EStepState m_state;
  std::vector<std::int32_t> m_order;
  Eigen::MatrixXd m_compact;
  double m_prior = 0.0, m_rho = 0.0;
  std::int64_t m_updates = 0;
  topic::EStepStart m_estepStart;
};

class LdaOnlineModel final : public DescribedModel<&ldaOnlineInfo> {
 public:
  FitResult fit(const FitData& data, const FitSettings& settings, TrainingObserver& observer,
                std::stop_token stop) override {
    const Stopwatch clock;
    const auto options = LdaOnlineOptions::table().parse(settings.options, info().name);
    LdaOnlineChain chain(data, settings, options, stop);
    const ChainSchedule schedule{options.iterations, options.snapshotEvery};
    return driveChain(chain, schedule, settings, observer, stop, clock);
  }
};

}  // namespace

const OptionTable<LdaOnlineOptions>& LdaOnlineOptions::table() {
  static const auto table = [] {
    // Online VB never keeps two E steps of a document (there is no bound to protect), so its
    // restart means only where each visit starts.
    OptionSpec restart = topic::estepRestartOption();
    restart.help =
        "Start each document's topic mix afresh (even) at every visit; false: from where its last visit ended.";
    OptionTable<LdaOnlineOptions> t;
    t.add(topic::topicsOption(), &LdaOnlineOptions::topics)
        .add(topic::iterationsOption("Passes over all documents, each in shuffled minibatches."),
             &LdaOnlineOptions::iterations)
        .add(topic::variationalAlphaOption(), &LdaOnlineOptions::alpha)
        .add(topic::betaOption(), &LdaOnlineOptions::eta)
        .add(integerOption("batch_size", 1, 1e9,
                           "Documents per minibatch: the topics are updated after each minibatch."),
             &LdaOnlineOptions::batchSize)
        .add(realOption(
                 "tau0", 0.0, kNoMaximum, false,
                 "Delay of the step sizes (tau0 + t)^-kappa: larger values make the first minibatches count less."),
             &LdaOnlineOptions::tau0)
        .add(realOption("kappa", 0.5, 1.0, true,
                        "Forgetting rate, above 0.5 and at most 1: larger values shrink the steps faster."),
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
