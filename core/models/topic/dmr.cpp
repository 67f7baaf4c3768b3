// SPDX-License-Identifier: GPL-3.0-or-later
// DMR-LDA: options, the chain (Gibbs sweeps alternating with the regression), reports, snapshots,
// stop, held-out scoring with each document's own alpha, and the results.
#include "core/models/topic/dmr.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "core/eval/topic_evaluation.hpp"
#include "core/models/fit_driver.hpp"
#include "core/models/topic/dmr_features.hpp"
#include "core/models/topic/dmr_regression.hpp"
#include "core/models/topic/dmr_sampler.hpp"
#include "core/models/topic/topic_model_support.hpp"
#include "core/util/clock.hpp"

namespace latent::core {
namespace {

using topic::DmrFeatureCoder;
using topic::DmrGibbsSampler;

ModelInfo dmrInfo() {
  ModelInfo info;
  info.name = "dmr";
  info.kind = DataKind::Corpus;
  info.family = ResultFamily::Topics;
  info.title = "DMR-LDA (topics conditioned on metadata)";
  info.description =
      "LDA whose documents lean towards topics according to their metadata (time, label, metadata "
      "columns): each document's prior over topics is a log-linear function of its features. The "
      "weights say which metadata raise or lower which topic.";
  info.objectiveName = "log joint log P(W, Z | lambda, beta) per token (nats; Mimno & McCallum 2008)";
  info.options = DmrOptions::table().specs();
  info.needs = [](const FitData& data, const nlohmann::json& options) {
    const auto K = options.at("k").get<std::uint64_t>();
    const auto V = static_cast<std::uint64_t>(data.corpus->vocabularySize());
    const auto D = static_cast<std::uint64_t>(data.fullDocumentCount);
    const auto N = static_cast<std::uint64_t>(data.corpus->tokenCount());
    // Word-topic counts (4 bytes) and two K x V doubles (topic_word and its running sum);
    // doc-topic counts, alpha and doc_topic; one int per token.
    return ResourceNeeds{K * V * 20 + D * K * 20 + N * 4, std::max(K * V, D * K) * 8};
  };
  return info;
}

// Each held-out document's alpha from its features and the weights; D_heldout x K.
Eigen::MatrixXd dmrAlpha(const Eigen::MatrixXd& features, const Eigen::MatrixXd& lambda) {
  return (features * lambda.transpose()).array().exp().matrix();
}

class DmrChain final : public FitChain {
 public:
  DmrChain(DmrGibbsSampler& sampler, const DmrFeatureCoder& coder, const DmrOptions& options, const FitData& data,
           const FitSettings& settings, std::stop_token stop)
      : m_sampler(sampler),
        m_coder(coder),
        m_options(options),
        m_data(data),
        m_settings(settings),
        m_stop(std::move(stop)),
        m_features(coder.code(*data.corpus)),
        m_tokens(static_cast<double>(sampler.tokenCount())),
        // topic_word is averaged over the sweeps of the last fifth of the chain, as lda-gibbs does,
        // so that the two models' held-out numbers compare estimator for estimator.
        m_averageFrom(options.iterations - std::max<std::int64_t>(1, options.iterations / 5) + 1) {
    if (data.heldout && !data.heldout->empty()) m_heldoutFeatures = coder.code(data.heldout->observed);
    m_lambda = Eigen::MatrixXd::Zero(sampler.topics(), static_cast<Eigen::Index>(coder.size()));
    m_lambda.col(0).setConstant(std::log(options.alpha));
    m_problem.features = &m_features;
    m_problem.counts = &m_sampler.documentTopicCounts();
    m_problem.priorVariance = Eigen::VectorXd::Constant(m_lambda.cols(), options.priorVariance);
    m_problem.priorVariance[0] = options.interceptVariance;
  }

  bool step(const StepPlan& plan, IterationReport& report) override {
    const std::int64_t it = plan.iteration;
    const Stopwatch sweepClock;
    const bool complete = m_sampler.sweep(m_stop);
    m_samplingSeconds += sweepClock.seconds();
    if (!complete) return false;
    ++m_sweeps;
    if (it >= m_averageFrom) {
      m_sampler.addTopicWord(m_phiSum);
      ++m_phiSamples;
    }
    if (plan.evaluate) {
      m_lastLogJoint = m_sampler.logLikelihoodOfWords() + m_sampler.logPriorOfAssignments();
      report.trainObjective = m_tokens > 0 ? m_lastLogJoint / m_tokens : std::numeric_limits<double>::quiet_NaN();
      // Within the averaging stretch the report scores the running average (the topics the run
      // would return if it stopped here), as lda-gibbs does.
      const Eigen::MatrixXd phi = topicWord();
      if (m_data.heldout && !m_data.heldout->empty())
        report.heldout = scoreHeldout(phi, HeldoutProtocol::DocumentCompletion).perplexity;
    }
    // The regression step (Mimno & McCallum 2008 §4: sampling alternates with optimising lambda
    // given the topic counts), then beta by Minka's fixed point as lda-gibbs re-estimates it.
    // Not after the last sweep: no sweep would follow it, and the run's results (and its last
    // report) are those of the weights the last sweep was drawn with.
    if (m_options.optimizeEvery > 0 && it > m_options.burnIn && it % m_options.optimizeEvery == 0 && it < plan.last &&
        m_tokens > 0) {
      const Stopwatch regressionClock;
      const auto fitted = topic::maximiseDmrObjective(m_problem, m_lambda, 50, 1e-7, m_stop);
      m_regressionSeconds += regressionClock.seconds();
      m_regressionObjective = fitted.objective;
      m_sampler.setAlpha(dmrAlpha(m_features, m_lambda));
      if (m_options.optimizeBeta)
        m_sampler.setBeta(
            optimizeSymmetricBeta(m_sampler.beta(), m_sampler.vocabularySize(), m_sampler.topicWordHistograms()));
    }
    report.extras.emplace_back("alpha_sum", meanAlphaSum());
    report.extras.emplace_back("beta", m_sampler.beta());
    if (std::isfinite(m_regressionObjective)) report.extras.emplace_back("regression_objective", m_regressionObjective);
    return true;
  }

  std::vector<NamedMatrix> snapshot(const StepPlan&) override {
    Eigen::MatrixXd current;
    m_sampler.addTopicWord(current);
    return {{topic::kTopicWord, std::move(current)}, {topic::kFeatureWeights, m_lambda}};
  }

  void finish(FitResult& result) override {
    const bool cancelled = result.status == FitStatus::Cancelled;
    Eigen::MatrixXd phi = topicWord();
    result.matrices.push_back({topic::kDocTopic, docTopic(phi)});
    result.matrices.push_back({topic::kAlpha, m_sampler.alpha().colwise().mean()});
    result.matrices.push_back({topic::kFeatureWeights, m_lambda});
    result.matrices.push_back({topic::kFeatureRanges, m_coder.ranges()});
    result.tokenTopics = m_sampler.tokenTopics();

    auto& metrics = result.finalMetrics;
    if (std::isfinite(m_lastLogJoint)) {
      metrics["log_joint"] = m_lastLogJoint;
      metrics["train_objective"] = m_lastLogJoint / m_tokens;
    }
    metrics["alpha_sum"] = meanAlphaSum();
    metrics["beta"] = m_sampler.beta();
    metrics["topic_word_samples"] = m_phiSamples;
    metrics["train_tokens"] = m_sampler.tokenCount();
    metrics["sampling_seconds"] = m_samplingSeconds;
    metrics["regression_seconds"] = m_regressionSeconds;
    if (m_samplingSeconds > 0)
      metrics["tokens_per_second"] = m_tokens * static_cast<double>(m_sweeps) / m_samplingSeconds;
    if (std::isfinite(m_regressionObjective)) metrics["regression_objective"] = m_regressionObjective;
    metrics[topic::kFeatureNamesMetric] = m_coder.names();
    if (!cancelled && m_data.heldout && !m_data.heldout->empty())
      topic::addHeldoutScores(metrics, scoreHeldout(phi, HeldoutProtocol::DocumentCompletion),
                              scoreHeldout(phi, HeldoutProtocol::FullFoldingIn));
    result.matrices.insert(result.matrices.begin(), NamedMatrix{topic::kTopicWord, std::move(phi)});
  }

 private:
  Eigen::MatrixXd topicWord() const {
    Eigen::MatrixXd phi;
    if (m_phiSamples == 0) {
      m_sampler.addTopicWord(phi);
      return phi;
    }
    phi = m_phiSum / static_cast<double>(m_phiSamples);
    phi.array().colwise() /= phi.rowwise().sum().array();
    return phi;
  }

  double meanAlphaSum() const { return m_sampler.alpha().rowwise().sum().mean(); }

  // Document completion (003) with lda-gibbs's fold-in (gibbsFoldIn, its sweeps and seeds), each
  // held-out document under its own alpha = exp(lambda x_d) from its features.
  TopicHeldoutScore scoreHeldout(const Eigen::MatrixXd& phi, HeldoutProtocol protocol) const {
    const Eigen::MatrixXd alpha = dmrAlpha(m_heldoutFeatures, m_lambda);
    const DocumentFoldIn foldIn = [&](std::size_t d, std::span<const std::int32_t> words, std::uint64_t seed,
                                      Eigen::Ref<Eigen::VectorXd> theta) {
      gibbsFoldIn(phi, alpha.row(static_cast<Eigen::Index>(d)).transpose())(words, seed, theta);
    };
    return scoreHeldoutByDocument(*m_data.heldout, phi, foldIn, protocol, m_settings.seed);
  }

  // doc_topic in corpus order, the held-out rows folded in on the whole document (as
  // topic::assembleDocTopic does, with the document's own alpha).
  Eigen::MatrixXd docTopic(const Eigen::MatrixXd& phi) const {
    const Eigen::MatrixXd train = m_sampler.documentTopics();
    if (m_data.trainDocuments.empty()) return train;
    Eigen::MatrixXd full = Eigen::MatrixXd::Zero(m_data.fullDocumentCount, train.cols());
    for (std::size_t d = 0; d < m_data.trainDocuments.size(); ++d)
      full.row(m_data.trainDocuments[d]) = train.row(static_cast<Eigen::Index>(d));
    if (!m_data.heldout) return full;
    const auto& h = *m_data.heldout;
    const Eigen::MatrixXd alpha = dmrAlpha(m_heldoutFeatures, m_lambda);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, h.size(), 8), [&](const auto& range) {
      Eigen::VectorXd theta(train.cols());
      std::vector<std::int32_t> words;
      for (std::size_t i = range.begin(); i != range.end(); ++i) {
        const auto a = h.observed.document(i), b = h.scored.document(i);
        words.assign(a.begin(), a.end());
        words.insert(words.end(), b.begin(), b.end());
        gibbsFoldIn(phi, alpha.row(static_cast<Eigen::Index>(i)).transpose())(
            words, m_settings.seed + static_cast<std::uint64_t>(h.documents[i]), theta);
        full.row(h.documents[i]) = theta.transpose();
      }
    });
    return full;
  }

  DmrGibbsSampler& m_sampler;
  const DmrFeatureCoder& m_coder;
  const DmrOptions& m_options;
  const FitData& m_data;
  const FitSettings& m_settings;
  std::stop_token m_stop;
  Eigen::MatrixXd m_features;         // training documents, D x F
  Eigen::MatrixXd m_heldoutFeatures;  // held-out documents
  Eigen::MatrixXd m_lambda;           // K x F
  topic::DmrRegressionProblem m_problem;
  double m_tokens;
  std::int64_t m_averageFrom;
  std::int64_t m_sweeps = 0;
  std::int64_t m_phiSamples = 0;
  Eigen::MatrixXd m_phiSum;
  double m_samplingSeconds = 0.0;
  double m_regressionSeconds = 0.0;
  double m_lastLogJoint = std::numeric_limits<double>::quiet_NaN();
  double m_regressionObjective = std::numeric_limits<double>::quiet_NaN();
};

class DmrModel final : public DescribedModel<&dmrInfo> {
 public:
  FitResult fit(const FitData& data, const FitSettings& settings, TrainingObserver& observer,
                std::stop_token stop) override {
    const Stopwatch clock;
    const auto options = DmrOptions::table().parse(settings.options, info().name);
    const DmrFeatureCoder coder(*data.corpus, options.features, static_cast<int>(options.timeBins));
    DmrGibbsSampler sampler(*data.corpus, static_cast<int>(options.topics), options.alpha, options.beta, settings.seed);
    DmrChain chain(sampler, coder, options, data, settings, stop);
    const ChainSchedule schedule{options.iterations, options.snapshotEvery, false};
    return driveChain(chain, schedule, settings, observer, stop, clock);
  }
};

}  // namespace

// Defaults: 500 sweeps and alpha 0.1 per topic as lda-gibbs (so that the two compare at equal
// settings); the prior variances of MALLET's DMR (cc.mallet.topics.DMROptimizable: 1 for the
// features, 100 for the intercept, which lets the base level of each topic move freely); lambda
// optimised every 20 sweeps after 50, as lda-gibbs re-estimates alpha; the time as a number only,
// since bins multiply the features and a few hundred documents carry little evidence per bin.
const OptionTable<DmrOptions>& DmrOptions::table() {
  static const auto table = [] {
    OptionTable<DmrOptions> t;
    t.add(topic::topicsOption(), &DmrOptions::topics)
        .add(topic::iterationsOption("Gibbs sweeps over every word; the regression runs between them."),
             &DmrOptions::iterations)
        .add(realOption("alpha", 0.0, kNoMaximum, true,
                        "Start of every document's prior per topic, before the regression fits it from the metadata."),
             &DmrOptions::alpha)
        .add(topic::betaOption(), &DmrOptions::beta)
        .add(textOption("features",
                        "Document fields the topics may depend on, as a comma list (time, label, metadata "
                        "columns); empty = every field the documents have. Numbers are standardised, categories "
                        "and labels one-hot."),
             &DmrOptions::features)
        .add(integerOption("time_bins", 0, 1000,
                           "Also code the time as one of this many equal-width periods, so a topic can rise and fall "
                           "again (a number alone only lets it rise or fall); 0 = the time as a number only."),
             &DmrOptions::timeBins)
        .add(integerOption("optimize_every", 0, 1e7,
                           "Fit the metadata weights (and beta) to the topic counts every N sweeps; 0 = never (LDA "
                           "with a fixed alpha)."),
             &DmrOptions::optimizeEvery)
        .add(integerOption("burn_in", 0, 1e7, "Sweeps before the weights are first fitted, so the topics have formed."),
             &DmrOptions::burnIn)
        .add(realOption("prior_variance", 0.0, kNoMaximum, true,
                        "Variance of the Gaussian prior on each metadata weight: smaller keeps the weights near 0."),
             &DmrOptions::priorVariance)
        .add(realOption("intercept_variance", 0.0, kNoMaximum, true,
                        "Variance of the Gaussian prior on each topic's base level (the intercept's weight)."),
             &DmrOptions::interceptVariance)
        .add(booleanOption("optimize_beta", "Re-estimate beta with the weights."), &DmrOptions::optimizeBeta)
        .add(topic::snapshotEveryOption(), &DmrOptions::snapshotEvery);
    return t;
  }();
  return table;
}

ModelDefinition dmrModel() { return defineModel<DmrModel>(); }

}  // namespace latent::core
