// SPDX-License-Identifier: GPL-3.0-or-later
// Link-LDA: options, the chain under the fit driver (sweeps, reports, snapshots, stop), link
// prediction and the results.
#include "core/models/links/link_lda.hpp"

#include <cmath>
#include <limits>
#include <numeric>

#include "core/models/fit_driver.hpp"
#include "core/models/links/linked_model_support.hpp"
#include "core/models/topic/topic_model_support.hpp"
#include "core/util/clock.hpp"
#include "core/util/errors.hpp"

namespace latent::core {
namespace {

using LinkLdaDirection = links::LinkDirection;

ModelInfo linkLdaInfo() {
  ModelInfo info;
  info.name = "link-lda";
  info.kind = DataKind::Corpus;
  info.family = ResultFamily::Topics;
  info.title = "Link-LDA (topics of words and citations)";
  info.description =
      "LDA for documents that cite each other: a document's words and its links share its topic mix, and each "
      "topic has, besides its words, the documents its links point to. Fitted by collapsed Gibbs sampling; it "
      "predicts hidden links and the documents a new text would cite.";
  info.objectiveName = "log joint log P(W, L, Z, Y) per word and link token (nats)";
  info.options = LinkLdaOptions::table().specs();
  // Word-topic and target-topic counts (4 bytes) and their matrices (8, twice with the running
  // means); doc_topic; two ints per token.
  info.needs = [](const FitData& data, const nlohmann::json& options) {
    const auto K = options.at("k").get<std::uint64_t>();
    const auto V = static_cast<std::uint64_t>(data.corpus->vocabularySize());
    const auto D = static_cast<std::uint64_t>(data.fullDocumentCount);
    const auto N = static_cast<std::uint64_t>(data.corpus->tokenCount());
    return ResourceNeeds{(K * V + K * D) * 20 + D * K * 24 + N * 8, std::max({K * V, D * K}) * 8};
  };
  return info;
}

// The probability that documents a and b are linked, from the model's predictive for one link of
// a bag: p(a -> b) = sum_k theta_ak Omega_kb. A bag of lambda draws links a to b when any draw
// hits b, and the pair is linked when a's bag hits b or b's bag hits a:
// 1 - (1 - p(a->b))^lambda (1 - p(b->a))^lambda, which for the small p of one draw among D
// documents is 1 - exp(-lambda (p(a->b) + p(b->a))): a probability in [0, 1], on the scale of the
// number of links a document makes, as the link perplexity (001 eq. 8) needs.
// lambda is the mean bag size of the training documents, the same for every document. The model
// generates a bag's targets, not its size, and a document's own training bag is the wrong size
// for the pairs scored: its hidden links are exactly what is missing from it, and a document whose
// every link was hidden would get lambda = 0 and lose the prediction its words make through
// theta_a; on Cora the own bag size ranked hidden links far worse than the mean
// (tests/evidence/tst_linked_topics_cora.cpp). A new document gets the same lambda, and only
// p(h -> t): Omega has no mass on a document it never saw, so Link-LDA cannot predict that a
// training document cites a new one (001: it does not generalise to documents "without previously
// seen links").
class LinkLdaScorer {
 public:
  LinkLdaScorer(const Eigen::MatrixXd& theta, const Eigen::MatrixXd& omega, double meanBag)
      : m_theta(theta), m_targets(omega.transpose()), m_meanBag(meanBag) {}

  double trainPair(std::int32_t a, std::int32_t b) const {
    const double rate = m_theta.row(a).dot(m_targets.row(b)) + m_theta.row(b).dot(m_targets.row(a));
    return -std::expm1(-m_meanBag * rate);
  }
  double newPair(const Eigen::MatrixXd& heldoutTheta, std::int32_t h, std::int32_t t) const {
    return -std::expm1(-m_meanBag * heldoutTheta.row(h).dot(m_targets.row(t)));
  }
  double meanBag() const noexcept { return m_meanBag; }

 private:
  const Eigen::MatrixXd& m_theta;  // training documents x K
  Eigen::MatrixXd m_targets;       // Omega transposed: training documents x K
  double m_meanBag = 0.0;
};

double linkLdaMeanBag(const std::vector<std::int32_t>& sizes) {
  return sizes.empty() ? 0.0 : std::accumulate(sizes.begin(), sizes.end(), 0.0) / static_cast<double>(sizes.size());
}

class LinkLdaChain final : public FitChain {
 public:
  LinkLdaChain(const FitData& data, const FitSettings& settings, const LinkLdaOptions& options, std::stop_token stop)
      : m_data(data),
        m_settings(settings),
        m_options(options),
        m_stop(std::move(stop)),
        m_sampler(*data.corpus, links::linkTokens(data.links->train, options.direction),
                  static_cast<int>(options.topics), options.alpha, options.beta, options.gamma, settings.seed),
        m_meanBag(linkLdaMeanBag(m_sampler.bagSizes())),
        m_averageFrom(links::averagingStart(options.iterations)) {}

  bool step(const StepPlan& plan, IterationReport& report) override {
    const Stopwatch sweepClock;
    if (!m_sampler.sweep(m_stop)) return false;
    m_samplingSeconds += sweepClock.seconds();
    ++m_sweeps;
    if (plan.iteration >= m_averageFrom) {
      m_phi.add(m_sampler.state().topicWord());
      m_theta.add(m_sampler.state().docTopic());
      m_omega.add(m_sampler.topicDocument());
    }
    if (plan.evaluate) {
      m_lastLogJoint = m_sampler.logJoint();
      report.trainObjective = m_lastLogJoint / tokens();
      const Eigen::MatrixXd phi = currentTopicWord();
      report.heldout = topic::heldoutPerplexity(m_data, phi, gibbsFoldIn(phi, alphaVector()), m_settings.seed);
      const Eigen::MatrixXd theta = m_theta.empty() ? m_sampler.state().docTopic() : m_theta.mean();
      const LinkLdaScorer scorer(theta, m_omega.empty() ? m_sampler.topicDocument() : m_omega.mean(), m_meanBag);
      if (!m_data.links->hidden.empty())
        report.extras.emplace_back("heldout_auc", scoreHiddenLinks(*m_data.links, [&](std::int32_t a, std::int32_t b) {
                                                    return scorer.trainPair(a, b);
                                                  }).auc);
    }
    return true;
  }

  std::vector<NamedMatrix> snapshot(const StepPlan&) override {
    return {{topic::kTopicWord, m_sampler.state().topicWord()},
            {topic::kTopicDocument, fullColumns(m_sampler.topicDocument())}};
  }

  void finish(FitResult& result) override {
    const bool cancelled = result.status == FitStatus::Cancelled;
    const Eigen::MatrixXd phi = currentTopicWord();
    const Eigen::MatrixXd theta = m_theta.empty() ? m_sampler.state().docTopic() : m_theta.mean();
    const Eigen::MatrixXd omega = m_omega.empty() ? m_sampler.topicDocument() : m_omega.mean();
    const Eigen::VectorXd alpha = alphaVector();
    const FoldIn foldIn = gibbsFoldIn(phi, alpha);
    // Held-out rows folded in on their whole text alone: their links are what is predicted.
    const Eigen::MatrixXd docTopic = topic::assembleDocTopic(m_data, theta, foldIn, m_settings.seed);
    result.matrices.push_back({topic::kTopicWord, phi});
    result.matrices.push_back({topic::kDocTopic, docTopic});
    result.matrices.push_back({topic::kAlpha, alpha.transpose()});
    result.matrices.push_back({topic::kTopicDocument, fullColumns(omega)});
    result.tokenTopics = m_sampler.state().tokenTopics();

    auto& metrics = result.finalMetrics;
    if (std::isfinite(m_lastLogJoint)) {
      metrics["log_joint"] = m_lastLogJoint;
      metrics["train_objective"] = m_lastLogJoint / tokens();
    }
    metrics["train_tokens"] = m_sampler.state().tokenCount();
    metrics["link_tokens"] = m_sampler.linkTokenCount();
    metrics["train_links"] = static_cast<std::int64_t>(m_data.links->train.size());
    metrics["link_direction"] = m_options.direction == LinkLdaDirection::Undirected ? "undirected" : "outgoing";
    metrics["posterior_samples"] = m_phi.samples();
    metrics["sampling_seconds"] = m_samplingSeconds;
    if (m_sweeps > 0) metrics["seconds_per_sweep"] = m_samplingSeconds / static_cast<double>(m_sweeps);
    if (cancelled) return;
    topic::addFinalHeldoutMetrics(metrics, m_data, phi, foldIn, m_settings.seed);
    const LinkLdaScorer scorer(theta, omega, m_meanBag);
    metrics["mean_link_bag"] = scorer.meanBag();
    const Eigen::MatrixXd heldoutTheta = links::heldoutRows(docTopic, m_data);
    links::addLinkResults(
        result, m_data, [&](std::int32_t a, std::int32_t b) { return scorer.trainPair(a, b); },
        [&](std::int32_t h, std::int32_t t) { return scorer.newPair(heldoutTheta, h, t); });
    if (m_options.baselines)
      links::addLinkBaselines(result, m_data, m_options.topics, m_options.iterations, m_settings, m_stop);
  }

 private:
  double tokens() const { return static_cast<double>(m_sampler.state().tokenCount() + m_sampler.linkTokenCount()); }
  Eigen::VectorXd alphaVector() const { return Eigen::VectorXd::Constant(m_options.topics, m_options.alpha); }
  Eigen::MatrixXd currentTopicWord() const {
    if (m_phi.empty()) return m_sampler.state().topicWord();
    Eigen::MatrixXd phi = m_phi.mean();
    phi.array().colwise() /= phi.rowwise().sum().array();
    return phi;
  }
  // Omega over the training documents laid out over the full corpus's (held-out columns 0).
  Eigen::MatrixXd fullColumns(const Eigen::MatrixXd& omega) const {
    if (m_data.trainDocuments.empty()) return omega;
    Eigen::MatrixXd full = Eigen::MatrixXd::Zero(omega.rows(), m_data.fullDocumentCount);
    for (std::size_t t = 0; t < m_data.trainDocuments.size(); ++t)
      full.col(m_data.trainDocuments[t]) = omega.col(static_cast<Eigen::Index>(t));
    return full;
  }

  const FitData& m_data;
  const FitSettings& m_settings;
  LinkLdaOptions m_options;
  std::stop_token m_stop;
  links::LinkLdaSampler m_sampler;
  double m_meanBag = 0.0;
  std::int64_t m_averageFrom = 1;
  links::RunningMean m_phi, m_theta, m_omega;
  std::int64_t m_sweeps = 0;
  double m_samplingSeconds = 0.0;
  double m_lastLogJoint = std::numeric_limits<double>::quiet_NaN();
};

class LinkLdaModel final : public DescribedModel<&linkLdaInfo> {
 public:
  FitResult fit(const FitData& data, const FitSettings& settings, TrainingObserver& observer,
                std::stop_token stop) override {
    const Stopwatch clock;
    const auto options = LinkLdaOptions::table().parse(settings.options, info().name);
    if (!data.links)
      throw UsageError("link-lda: the corpus has no links between its documents (import them with `import links`)");
    LinkLdaChain chain(data, settings, options, stop);
    const ChainSchedule schedule{options.iterations, options.snapshotEvery, false};
    return driveChain(chain, schedule, settings, observer, stop, clock);
  }
};

}  // namespace

// Why the defaults: k, alpha and beta as lda-gibbs's, so that its topics and perplexities compare;
// gamma 0.1, since on Cora (K = 20, three seeds) it ranked held-out links a little better at the
// top (precision at 10) than 0.01 with the same AUC, and 1 was worse on both; undirected bags,
// because on Cora they predicted held-out links far better than outgoing ones, by AUC and for new
// documents: a citation tells of shared topics whichever way it points, and an outgoing bag leaves
// a paper that is only cited with none (tests/evidence/tst_linked_topics_cora.cpp prints both);
// 500 sweeps as lda-gibbs (a sweep over the links is cheap beside the words').
const OptionTable<LinkLdaOptions>& LinkLdaOptions::table() {
  static const auto table = [] {
    OptionTable<LinkLdaOptions> t;
    t.add(topic::topicsOption(), &LinkLdaOptions::topics)
        .add(topic::iterationsOption("Sweeps over every word and link."), &LinkLdaOptions::iterations)
        .add(topic::alphaOption(), &LinkLdaOptions::alpha)
        .add(topic::betaOption(), &LinkLdaOptions::beta)
        .add(realOption("gamma", 0.0, kNoMaximum, true,
                        "Prior on each topic's distribution over the documents links point to: small values make a "
                        "topic's links go to few documents."),
             &LinkLdaOptions::gamma)
        .add(choiceOption("direction", {},
                          "A document's bag of links: undirected (the documents it cites and those citing it) or "
                          "outgoing (only the documents it links to, as imported)."),
             &LinkLdaOptions::direction,
             {{"undirected", LinkLdaDirection::Undirected}, {"outgoing", LinkLdaDirection::Outgoing}})
        .add(topic::snapshotEveryOption(), &LinkLdaOptions::snapshotEvery)
        .add(links::baselinesOption(), &LinkLdaOptions::baselines);
    return t;
  }();
  return table;
}

ModelDefinition linkLdaModel() { return defineModel<LinkLdaModel>(); }

}  // namespace latent::core
