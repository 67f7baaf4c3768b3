// SPDX-License-Identifier: GPL-3.0-or-later
// The relational topic model: options, the chain under the fit driver (sweeps, the link weights'
// fit between them, reports, snapshots, stop), link prediction for hidden pairs and new documents,
// and the results.
#include "core/models/links/rtm.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/eval/link_prediction.hpp"
#include "core/eval/topic_evaluation.hpp"
#include "core/models/fit_driver.hpp"
#include "core/models/links/link_baselines.hpp"
#include "core/models/links/linked_model_support.hpp"
#include "core/models/links/rtm_link_fit.hpp"
#include "core/models/topic/topic_model_support.hpp"
#include "core/util/clock.hpp"
#include "core/util/errors.hpp"

namespace latent::core {
namespace {

using rtm::LinkFunction;
using rtm::LinkWeights;

ModelInfo rtmInfo() {
  ModelInfo info;
  info.name = "rtm";
  info.kind = DataKind::Corpus;
  info.family = ResultFamily::Topics;
  info.title = "Relational topic model (topics and links)";
  info.description =
      "LDA for documents that link to each other (citations, hyperlinks): two documents are linked with a "
      "probability that grows with the topics their words share, so links shape the topics and the topics predict "
      "links. Fitted by collapsed Gibbs sampling; it predicts hidden links and the links of new documents from "
      "their text alone.";
  info.objectiveName =
      "log P(W, Z | alpha, beta) + sum over training links of log psi, per token (nats); psi the link probability";
  info.options = RtmOptions::table().specs();
  // As lda-gibbs (word-topic counts, topic_word, its running sum and a copy; doc_topic; a topic per
  // token) plus zbar and its running sum, and the sigmoid fit's overlap of every training link.
  info.needs = [](const FitData& data, const nlohmann::json& options) {
    const auto V = static_cast<std::uint64_t>(data.corpus->vocabularySize());
    const auto D = static_cast<std::uint64_t>(data.fullDocumentCount);
    const auto N = static_cast<std::uint64_t>(data.corpus->tokenCount());
    const auto L = static_cast<std::uint64_t>(data.links ? data.links->train.size() : 0);
    const auto K = options.at("k").get<std::uint64_t>();
    return ResourceNeeds{K * V * 28 + D * K * 36 + N * 8 + L * K * 8, std::max(K * V, D * K) * 8};
  };
  return info;
}

// rows x K of empirical shares turned into topic proportions smoothed by the prior:
// (N_d zbar_dk + alpha) / (N_d + K alpha), the posterior mean of theta_d given the counts.
Eigen::RowVectorXd rtmSmoothedShares(const Eigen::Ref<const Eigen::RowVectorXd>& zbar, double length, double alpha) {
  const auto K = static_cast<double>(zbar.size());
  return ((zbar.array() * length + alpha) / (length + K * alpha)).matrix();
}

class RtmChain final : public FitChain {
 public:
  RtmChain(const FitData& data, const FitSettings& settings, const RtmOptions& options, std::stop_token stop)
      : m_data(data),
        m_settings(settings),
        m_options(options),
        m_stop(std::move(stop)),
        m_sampler(*data.corpus, data.links->neighbours, static_cast<int>(options.topics), options.alpha, options.beta,
                  settings.seed),
        m_rho(options.pseudoNonLinks * static_cast<double>(std::max<std::size_t>(1, data.links->train.size()))),
        // As lda-gibbs: topic_word and the shares the links are scored with are averaged over every
        // sweep of the last fifth of the chain, the posterior mean rather than one sample of Z.
        m_averageFrom(options.iterations - std::max<std::int64_t>(1, options.iterations / 5) + 1) {
    // The weights of the random start: close to no link effect, since random topics overlap as
    // much among linked documents as among the pseudo non-links.
    m_weights = rtm::fitLinkWeights(m_options.link, m_sampler.empiricalTopics(), m_data.links->train, m_rho, {});
    m_noLinks.eta = Eigen::VectorXd::Zero(options.topics);
  }

  bool step(const StepPlan& plan, IterationReport& report) override {
    // The link term waits for the burn-in: topics shaped by the words first, so that a topic the
    // random start left with little link overlap is not pushed out of every linked document
    // before it has words of its own.
    const bool linked = plan.iteration > m_options.burnIn;
    if (!m_sampler.sweep(linked ? m_weights : m_noLinks, m_options.link, m_stop)) return false;
    const Eigen::MatrixXd zbar = m_sampler.empiricalTopics();
    m_weights = rtm::fitLinkWeights(m_options.link, zbar, m_data.links->train, m_rho, m_weights, m_stop);
    if (plan.iteration >= m_averageFrom) {
      const Eigen::MatrixXd phi = m_sampler.topicWord();
      if (m_phiSamples == 0) {
        m_phiSum = phi;
        m_zbarSum = zbar;
      } else {
        m_phiSum += phi;
        m_zbarSum += zbar;
      }
      ++m_phiSamples;
    }
    if (plan.evaluate) {
      m_lastLogJoint = m_sampler.logJoint();
      m_lastLinkLogLikelihood = rtm::linkLogLikelihood(m_options.link, m_weights, zbar, m_data.links->train);
      const auto N = static_cast<double>(m_sampler.tokenCount());
      report.trainObjective =
          N > 0 ? (m_lastLogJoint + m_lastLinkLogLikelihood) / N : std::numeric_limits<double>::quiet_NaN();
      const auto L = static_cast<double>(m_data.links->train.size());
      if (L > 0) report.extras.emplace_back("train_link_log_likelihood", m_lastLinkLogLikelihood / L);
      report.extras.emplace_back("link_nu", m_weights.nu);
      const Eigen::MatrixXd phi = currentTopics();
      report.heldout = topic::heldoutPerplexity(m_data, phi, gibbsFoldIn(phi, alphaVector()), m_settings.seed);
    }
    return true;
  }

  std::vector<NamedMatrix> snapshot(const StepPlan&) override {
    return {{topic::kTopicWord, m_sampler.topicWord()}, {topic::kLinkWeights, weightRow(m_weights)}};
  }

  void finish(FitResult& result) override {
    const Eigen::MatrixXd phi = currentTopics();
    const Eigen::MatrixXd zbar = currentShares();
    // The weights the links are predicted with, fitted to the shares they are predicted from (the
    // average over sweeps overlaps less than any one sample).
    const LinkWeights weights = rtm::fitLinkWeights(m_options.link, zbar, m_data.links->train, m_rho, m_weights);
    const FoldIn foldIn = gibbsFoldIn(phi, alphaVector());
    const Eigen::MatrixXd newShares = heldoutShares(foldIn);

    result.matrices.push_back({topic::kTopicWord, phi});
    result.matrices.push_back({topic::kDocTopic, docTopic(zbar, newShares)});
    result.matrices.push_back({topic::kAlpha, alphaVector().transpose()});
    result.matrices.push_back({topic::kLinkWeights, weightRow(weights)});
    result.tokenTopics = m_sampler.tokenTopics();

    // Scores are eta-weighted overlaps: weighting one side's shares once makes each pair a dot product.
    const Eigen::MatrixXd weighted = zbar * weights.eta.asDiagonal();
    const LinkFunction link = m_options.link;
    const auto trainScore = [&](std::int32_t a, std::int32_t b) {
      return rtm::linkProbability(link, weighted.row(a).dot(zbar.row(b)) + weights.nu);
    };
    const LinkSplit& split = *m_data.links;
    const auto hidden = scoreHiddenLinks(split, trainScore);
    LinkPredictionScores fresh;
    if (newShares.rows() > 0)
      fresh = scoreNewDocumentLinks(
          split, static_cast<std::int32_t>(newShares.rows()), [&](std::int32_t h, std::int32_t t) {
            return rtm::linkProbability(link, newShares.row(h).dot(weighted.row(t)) + weights.nu);
          });
    // Every pair's score as blocks of one matrix product (trainScore's values, summed in another order).
    const Eigen::MatrixXd shares = zbar.transpose();
    const BlockScore blockScore = [&](std::int32_t first, std::int32_t rows, Eigen::MatrixXd& out) {
      out.noalias() = weighted.middleRows(first, rows) * shares;
      for (Eigen::Index i = 0; i < out.size(); ++i)
        out.data()[i] = rtm::linkProbability(link, out.data()[i] + weights.nu);
    };
    result.matrices.push_back(predictedLinksMatrix(topPredictedLinks(split, blockScore), m_data.trainDocuments));

    auto& metrics = result.finalMetrics;
    addLinkMetrics(metrics, hidden, fresh);
    const auto N = static_cast<double>(m_sampler.tokenCount());
    if (std::isfinite(m_lastLogJoint)) {
      metrics["log_joint"] = m_lastLogJoint;
      metrics["train_link_log_likelihood"] = m_lastLinkLogLikelihood;
      metrics["train_objective"] = (m_lastLogJoint + m_lastLinkLogLikelihood) / N;
    }
    metrics["link_function"] = m_options.link == LinkFunction::Sigmoid ? "sigmoid" : "exponential";
    metrics["pseudo_non_links"] = m_rho;
    metrics["train_links"] = static_cast<std::int64_t>(split.train.size());
    metrics["topic_word_samples"] = m_phiSamples;
    metrics["train_tokens"] = m_sampler.tokenCount();
    topic::addFinalHeldoutMetrics(metrics, m_data, phi, foldIn, m_settings.seed);

    if (m_options.baselines && result.status != FitStatus::Cancelled && !m_stop.stop_requested()) {
      const Stopwatch clock;
      const LinkBaselineSettings baseline{m_options.topics, std::min<std::int64_t>(m_options.iterations, 200),
                                          m_settings.seed, m_settings.threads};
      addLinkBaselineMetrics(metrics, fitLinkBaselines(m_data, baseline, m_stop));
      metrics["baseline_seconds"] = clock.seconds();
      if (m_stop.stop_requested()) result.status = FitStatus::Cancelled;
    }
  }

 private:
  Eigen::VectorXd alphaVector() const { return Eigen::VectorXd::Constant(m_options.topics, m_options.alpha); }

  static Eigen::RowVectorXd weightRow(const LinkWeights& weights) {
    Eigen::RowVectorXd row(weights.eta.size() + 1);
    row.head(weights.eta.size()) = weights.eta.transpose();
    row[weights.eta.size()] = weights.nu;
    return row;
  }

  // The topics the run would return if it stopped now: the running average, else the last sample's.
  Eigen::MatrixXd currentTopics() const {
    if (m_phiSamples == 0) return m_sampler.topicWord();
    Eigen::MatrixXd phi = m_phiSum / static_cast<double>(m_phiSamples);
    phi.array().colwise() /= phi.rowwise().sum().array();
    return phi;
  }

  Eigen::MatrixXd currentShares() const {
    if (m_phiSamples == 0) return m_sampler.empiricalTopics();
    return m_zbarSum / static_cast<double>(m_phiSamples);
  }

  // zbar of each held-out document from its whole text, links hidden: the Gibbs fold-in's average
  // theta with the prior's smoothing taken back out, (theta_k (N + K alpha) - alpha) / N, so that new
  // and training documents are compared on the same empirical shares.
  Eigen::MatrixXd heldoutShares(const FoldIn& foldIn) const {
    if (!m_data.heldout || m_data.heldout->empty()) return {};
    const Corpus whole = wholeHeldoutDocuments(*m_data.heldout);
    const auto K = static_cast<Eigen::Index>(m_options.topics);
    const double alpha = m_options.alpha;
    Eigen::MatrixXd shares = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(whole.documentCount()), K);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, whole.documentCount(), 8), [&](const auto& range) {
      Eigen::VectorXd theta(K);
      for (std::size_t i = range.begin(); i != range.end(); ++i) {
        const auto words = whole.document(i);
        if (words.empty()) continue;
        foldIn(words, m_settings.seed + static_cast<std::uint64_t>(m_data.heldout->documents[i]), theta);
        const auto n = static_cast<double>(words.size());
        shares.row(static_cast<Eigen::Index>(i)) =
            ((theta.array() * (n + static_cast<double>(K) * alpha) - alpha) / n).max(0.0).matrix().transpose();
      }
    });
    return shares;
  }

  // doc_topic in corpus order: every document's smoothed shares, held-out ones from their fold-in.
  Eigen::MatrixXd docTopic(const Eigen::MatrixXd& zbar, const Eigen::MatrixXd& newShares) const {
    const Corpus& corpus = *m_data.corpus;
    const double alpha = m_options.alpha;
    Eigen::MatrixXd full = Eigen::MatrixXd::Zero(m_data.fullDocumentCount, m_options.topics);
    const auto row = [&](std::size_t d) {
      return m_data.trainDocuments.empty() ? static_cast<Eigen::Index>(d) : m_data.trainDocuments[d];
    };
    for (std::size_t d = 0; d < corpus.documentCount(); ++d)
      full.row(row(d)) = rtmSmoothedShares(zbar.row(static_cast<Eigen::Index>(d)),
                                           static_cast<double>(corpus.documentLength(d)), alpha);
    for (Eigen::Index i = 0; i < newShares.rows(); ++i) {
      const auto d = m_data.heldout->documents[static_cast<std::size_t>(i)];
      const auto length = static_cast<double>(m_data.heldout->observed.documentLength(static_cast<std::size_t>(i)) +
                                              m_data.heldout->scored.documentLength(static_cast<std::size_t>(i)));
      full.row(d) = rtmSmoothedShares(newShares.row(i), length, alpha);
    }
    return full;
  }

  const FitData& m_data;
  const FitSettings& m_settings;
  RtmOptions m_options;
  std::stop_token m_stop;
  rtm::RtmSampler m_sampler;
  double m_rho = 1.0;
  LinkWeights m_weights;
  LinkWeights m_noLinks;  // eta = 0: the link term of the burn-in
  std::int64_t m_averageFrom = 1;
  Eigen::MatrixXd m_phiSum, m_zbarSum;
  std::int64_t m_phiSamples = 0;
  double m_lastLogJoint = std::numeric_limits<double>::quiet_NaN();
  double m_lastLinkLogLikelihood = std::numeric_limits<double>::quiet_NaN();
};

class RtmModel final : public DescribedModel<&rtmInfo> {
 public:
  FitResult fit(const FitData& data, const FitSettings& settings, TrainingObserver& observer,
                std::stop_token stop) override {
    const Stopwatch clock;
    const auto options = RtmOptions::table().parse(settings.options, info().name);
    if (!data.links)
      throw UsageError("rtm: the corpus has no links between its documents (import them with `import links`)");
    RtmChain chain(data, settings, options, stop);
    const ChainSchedule schedule{options.iterations, options.snapshotEvery, false};
    return driveChain(chain, schedule, settings, observer, stop, clock);
  }
};

}  // namespace

// Why the defaults: K, alpha, beta and the sweeps as lda-gibbs, so that the baselines and
// perplexities compare; rho = as many pseudo non-links as training links, as R lda's rtm.em, which
// matches the held-out pairs (as many non-links as links); the link function: see the notes on the
// measurements (docs/DESIGN.md §3).
const OptionTable<RtmOptions>& RtmOptions::table() {
  static const auto table = [] {
    OptionTable<RtmOptions> t;
    t.add(topic::topicsOption(), &RtmOptions::topics)
        .add(topic::iterationsOption("Sweeps over every word, each followed by a fit of the link weights."),
             &RtmOptions::iterations)
        .add(topic::alphaOption(), &RtmOptions::alpha)
        .add(topic::betaOption(), &RtmOptions::beta)
        .add(choiceOption("link", {},
                          "How the topics two documents share become the probability of a link: sigmoid "
                          "(logistic in the weighted overlap) or exponential (exp of it, Chang & Blei's faster "
                          "variant with closed-form weights)."),
             &RtmOptions::link, {{"exponential", LinkFunction::Exponential}, {"sigmoid", LinkFunction::Sigmoid}})
        .add(realOption("pseudo_non_links", 0.0, kNoMaximum, true,
                        "Unlinked pairs the link weights are fitted against, as a multiple of the training links "
                        "(Chang & Blei's regularisation rho): larger values make links less likely overall."),
             &RtmOptions::pseudoNonLinks)
        .add(integerOption("burn_in", 0, 1e7,
                           "Sweeps of plain LDA before the links enter each word's topic choice (the link weights "
                           "are fitted throughout)."),
             &RtmOptions::burnIn)
        .add(links::baselinesOption(), &RtmOptions::baselines)
        .add(topic::snapshotEveryOption(), &RtmOptions::snapshotEvery);
    return t;
  }();
  return table;
}

ModelDefinition rtmModel() { return defineModel<RtmModel>(); }

}  // namespace latent::core
