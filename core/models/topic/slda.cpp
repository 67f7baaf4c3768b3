// SPDX-License-Identifier: GPL-3.0-or-later
// sLDA: options, variational EM under the fit driver, held-out perplexity (document completion, the
// response left out), the response of every document predicted from its text, and results.
// References: 000 §27.4.4.1 (eq. 27.65-27.66), Blei & McAuliffe 2007, Wang, Blei & Fei-Fei 2009.
//
// A Gaussian response is centred and scaled to unit variance before fitting (so the start, eta = 0
// and sigma^2 = 1, is the response's own spread whatever its units); since zbar sums to one, the
// coefficients in the response's units are mean + sd * eta, and so are the predictions.
#include "core/models/topic/slda.hpp"

#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <utility>

#include "core/data/document_fields.hpp"
#include "core/eval/linear_baselines.hpp"
#include "core/eval/response_metrics.hpp"
#include "core/models/fit_driver.hpp"
#include "core/models/topic/dirichlet_hyperparameters.hpp"
#include "core/models/topic/lda_vb.hpp"
#include "core/models/topic/slda_kernels.hpp"
#include "core/models/topic/topic_model_support.hpp"
#include "core/util/clock.hpp"
#include "core/util/errors.hpp"

namespace latent::core {
namespace {

constexpr std::uint64_t kSldaInitStream = 0x534C44410000ULL;  // "SLDA"
// EM iterations of the mixture of categoricals that starts the topics (as lda-vb's "mixture" start).
constexpr int kSldaMixtureIterations = 10;

ModelInfo sldaInfo() {
  ModelInfo info;
  info.name = "slda";
  info.kind = DataKind::Corpus;
  info.family = ResultFamily::Topics;
  info.title = "sLDA (supervised LDA)";
  info.description =
      "LDA whose topics also predict a field of each document (a year, a rating, a party): the response is "
      "drawn from the document's share of each topic, so topics form around what predicts it. Variational EM; "
      "reports each topic's effect on the response and predicts held-out documents' responses from their text.";
  info.objectiveName = "the variational lower bound on log p(words, responses), per token (nats)";
  info.options = SldaOptions::table().specs();
  info.needs = [](const FitData& data, const nlohmann::json& options) {
    const auto K = options.at("k").get<std::uint64_t>();
    const auto V = static_cast<std::uint64_t>(data.corpus->vocabularySize());
    const auto D = static_cast<std::uint64_t>(data.fullDocumentCount);
    // lambda, E[log beta] and its exponential, the statistics; phi per distinct word (at most one
    // per token); gamma.
    const auto entries = static_cast<std::uint64_t>(data.corpus->tokenCount());
    return ResourceNeeds{(4 * K * V + K * entries + 2 * K * D) * 8, std::max(K * V, D * K) * 8};
  };
  return info;
}

FieldKind sldaFieldKind(const std::string& type) {
  return type == "gaussian" ? FieldKind::Numeric : type == "categorical" ? FieldKind::Categorical : FieldKind::Auto;
}

class SldaChain final : public FitChain {
 public:
  SldaChain(const FitData& data, const FitSettings& settings, const SldaOptions& options, std::stop_token stop)
      : m_data(data),
        m_settings(settings),
        m_options(options),
        m_stop(std::move(stop)),
        m_docs(topic::countDocumentWords(*data.corpus)),
        m_control{static_cast<int>(options.estepIterations), options.estepTolerance} {
    const auto K = static_cast<Eigen::Index>(options.topics);
    if (options.response.empty()) {
      std::string names;
      for (const auto& n : documentFieldNames(*data.corpus)) names += (names.empty() ? "" : ", ") + n;
      throw UsageError("slda needs --response: the document field to predict (" +
                       (names.empty() ? std::string("this corpus has none: import it with --time-column, "
                                                    "--label-column or --metadata-columns")
                                      : "this corpus has " + names) +
                       ")");
    }
    m_field = documentField(*data.corpus, options.response, sldaFieldKind(options.responseType));
    if (m_field.kind == FieldKind::LabelSets)
      throw UsageError("slda predicts one value per document; the field '" + options.response +
                       "' holds sets of labels (pick --response-type categorical to read it as one class)");
    m_response.categorical = m_field.kind == FieldKind::Categorical;
    m_response.penalty = options.penalty;
    const std::size_t D = m_docs.documentCount();
    m_targets.assign(D, {});
    if (m_response.categorical) {
      if (m_field.categories.size() < 2)
        throw UsageError("the field '" + options.response +
                         "' has fewer than two classes among the training documents");
      for (std::size_t d = 0; d < D; ++d)
        if (m_field.codes[d] >= 0) m_targets[d] = {true, 0.0, m_field.codes[d]};
      m_response.eta = Eigen::MatrixXd::Zero(K, static_cast<Eigen::Index>(m_field.categories.size()));
    } else {
      double sum = 0.0, squares = 0.0, count = 0.0;
      for (const double y : m_field.numbers)
        if (!std::isnan(y)) {
          sum += y;
          squares += y * y;
          count += 1.0;
        }
      if (count < 2) throw UsageError("the field '" + options.response + "' has fewer than two numbers to learn from");
      m_mean = sum / count;
      m_scale = std::sqrt(std::max(0.0, squares / count - m_mean * m_mean));
      if (!(m_scale > 0.0)) m_scale = 1.0;
      for (std::size_t d = 0; d < D; ++d)
        if (!std::isnan(m_field.numbers[d])) m_targets[d] = {true, (m_field.numbers[d] - m_mean) / m_scale, -1};
      m_response.eta = Eigen::MatrixXd::Zero(K, 1);
      m_response.sigma2 = 1.0;
    }
    std::vector<std::int32_t> all(D);
    std::iota(all.begin(), all.end(), 0);
    topic::WordPostings postings;
    {
      std::vector<std::int64_t> scratch(data.corpus->vocabularySize(), -1);
      postings.build(m_docs, all, scratch);
    }
    m_beta = options.beta;
    m_topics =
        topic::initialTopics("mixture", m_docs, postings, K, static_cast<Eigen::Index>(data.corpus->vocabularySize()),
                             m_beta, settings.seed, kSldaInitStream, m_stop);
    m_alpha = Eigen::VectorXd::Constant(K, options.alpha > 0.0 ? options.alpha : 1.0 / static_cast<double>(K));
    m_state.reset(m_docs, m_alpha);
  }

  bool step(const StepPlan& plan, IterationReport& report) override {
    // E step: with the response term unless two-stage (then plain LDA's E step).
    const std::span<const topic::SldaTarget> targets =
        m_options.twoStage ? std::span<const topic::SldaTarget>() : std::span<const topic::SldaTarget>(m_targets);
    if (!topic::sldaCorpusEStep(m_docs, m_topics.elogBeta, m_alpha, m_response, targets, m_control, m_state, m_stop))
      return false;
    double bound = 0.0;
    for (const double b : m_state.bounds) bound += b;
    bound += m_topicBound;
    // M step: the topics (000 eq. 27.49), beta when due, then the response's parameters.
    m_topics.lambda = topic::sldaTopicStatistics(m_docs, m_state, m_topics.vocabulary()).array() + m_beta;
    m_topicBound = topic::refreshTopics(m_topics, m_beta, nullptr).prior;
    if (m_options.optimizeEvery > 0 && plan.iteration % m_options.optimizeEvery == 0) {
      m_beta = optimizeSymmetricEtaFromLog(m_beta, m_topics.topics(), m_topics.vocabulary(), m_topics.sumElogBeta());
      m_topics.lambda = topic::sldaTopicStatistics(m_docs, m_state, m_topics.vocabulary()).array() + m_beta;
      m_topicBound = topic::refreshTopics(m_topics, m_beta, nullptr).prior;
    }
    if (m_response.categorical)
      topic::sldaCategoricalMStep(m_docs, m_state, m_targets, m_response, 50, m_stop);
    else
      topic::sldaGaussianMStep(m_docs, m_state, m_targets, m_response);

    const double now = m_docs.tokens > 0 ? bound / m_docs.tokens : std::numeric_limits<double>::quiet_NaN();
    m_converged = m_options.tolerance > 0 && plan.iteration > 2 && std::abs(now - m_previous) < m_options.tolerance;
    m_previous = now;
    report.trainObjective = now;
    double passes = 0.0;
    for (const int p : m_state.passes) passes += p;
    report.extras = {{"beta", m_beta},
                     {"estep_iterations", m_state.passes.empty() ? 0.0 : passes / double(m_state.passes.size())}};
    if (!m_response.categorical) report.extras.emplace_back("response_sd", std::sqrt(m_response.sigma2) * m_scale);
    if (plan.evaluate || m_converged) report.heldout = topic::variationalHeldout(m_data, m_settings, m_topics, m_alpha);
    return true;
  }
  bool converged() const override { return m_converged; }
  std::vector<NamedMatrix> snapshot(const StepPlan&) override {
    return {{topic::kTopicWord, m_topics.posteriorMean()}};
  }

  void finish(FitResult& result) override {
    const bool cancelled = result.status == FitStatus::Cancelled;
    topic::finishVariationalLda(m_data, m_settings, m_topics, m_state.gammas, m_alpha, m_beta, cancelled, result);
    if (!std::isnan(m_previous)) result.finalMetrics["train_objective"] = m_previous;
    result.finalMetrics["response_name"] = m_field.name;
    result.finalMetrics["response_type"] = m_response.categorical ? "categorical" : "gaussian";
    result.finalMetrics["two_stage"] = m_options.twoStage;
    if (m_response.categorical) {
      result.finalMetrics["response_classes"] = m_field.categories;
      result.matrices.push_back({topic::kResponseCoefficients, m_response.eta});
    } else {
      result.finalMetrics["response_noise_sd"] = std::sqrt(m_response.sigma2) * m_scale;
      result.finalMetrics["response_mean"] = m_mean;
      result.matrices.push_back({topic::kResponseCoefficients, (m_scale * m_response.eta).array() + m_mean});
    }
    if (cancelled) return;

    // Every document's response from its text alone, in corpus order.
    const Eigen::MatrixXd train = predict(m_docs);
    const auto D = static_cast<Eigen::Index>(
        std::max<std::int64_t>(m_data.fullDocumentCount, static_cast<std::int64_t>(m_docs.documentCount())));
    Eigen::MatrixXd predicted = Eigen::MatrixXd::Zero(D, train.cols());
    Eigen::MatrixXd heldout = Eigen::MatrixXd::Zero(D, 1);
    for (Eigen::Index d = 0; d < train.rows(); ++d)
      predicted.row(m_data.trainDocuments.empty() ? d : m_data.trainDocuments[static_cast<std::size_t>(d)]) =
          train.row(d);
    addTrainScores(result.finalMetrics, train);
    if (m_data.heldout && !m_data.heldout->empty()) {
      const Corpus whole = wholeHeldoutDocuments(*m_data.heldout);
      const Eigen::MatrixXd test = predict(topic::countDocumentWords(whole));
      for (std::size_t i = 0; i < m_data.heldout->size(); ++i) {
        predicted.row(m_data.heldout->documents[i]) = test.row(static_cast<Eigen::Index>(i));
        heldout(m_data.heldout->documents[i], 0) = 1.0;
      }
      const DocumentField truth = documentFieldLike(whole, m_field);
      if (m_response.categorical)
        addScores(result.finalMetrics, scoreClasses(test, truth.codes));
      else
        addScores(result.finalMetrics, scoreNumeric(Eigen::VectorXd(test.col(0)), truth.numbers));
      // The baselines on the same held-out documents: the training mean or majority class, and
      // ridge or logistic regression on the words.
      addBaselineScores(result.finalMetrics, *m_data.corpus, m_field, whole, m_settings.seed, m_options.baselines);
    }
    result.matrices.push_back({topic::kResponsePredicted, predicted});
    result.matrices.push_back({topic::kResponseHeldout, heldout});
  }

 private:
  // Predictions from the text alone, in the response's units (D x 1) or as class probabilities.
  Eigen::MatrixXd predict(const topic::DocumentWordCounts& docs) const {
    const Eigen::MatrixXd out = topic::sldaPredict(docs, m_topics.elogBeta, m_alpha, m_response, m_control);
    if (m_response.categorical) return out;
    return (m_scale * out).array() + m_mean;
  }
  void addTrainScores(nlohmann::json& metrics, const Eigen::MatrixXd& train) const {
    nlohmann::json scores = nlohmann::json::object();
    if (m_response.categorical)
      addScores(scores, scoreClasses(train, m_field.codes));
    else
      addScores(scores, scoreNumeric(Eigen::VectorXd(train.col(0)), m_field.numbers));
    for (const auto& [key, value] : scores.items())
      if (key.starts_with("heldout_")) metrics["train_" + key.substr(8)] = value;
  }

  const FitData& m_data;
  const FitSettings& m_settings;
  const SldaOptions& m_options;
  std::stop_token m_stop;
  topic::DocumentWordCounts m_docs;
  topic::SldaEStepControl m_control;
  DocumentField m_field;
  std::vector<topic::SldaTarget> m_targets;
  double m_mean = 0.0, m_scale = 1.0;  // of a Gaussian response
  topic::SldaResponseModel m_response;
  topic::VariationalTopics m_topics;
  double m_topicBound = 0.0;
  double m_beta = 0.01;
  Eigen::VectorXd m_alpha;
  topic::SldaDocuments m_state;
  double m_previous = std::numeric_limits<double>::quiet_NaN();
  bool m_converged = false;
};

class SldaModel final : public DescribedModel<&sldaInfo> {
 public:
  FitResult fit(const FitData& data, const FitSettings& settings, TrainingObserver& observer,
                std::stop_token stop) override {
    const Stopwatch clock;
    const auto options = SldaOptions::table().parse(settings.options, info().name);
    SldaChain chain(data, settings, options, stop);
    return driveChain(chain, ChainSchedule{options.iterations, options.snapshotEvery}, settings, observer, stop, clock,
                      stop.stop_requested());
  }
};

}  // namespace

const OptionTable<SldaOptions>& SldaOptions::table() {
  static const auto table = [] {
    OptionTable<SldaOptions> t;
    t.add(topic::topicsOption(), &SldaOptions::topics)
        .add(textOption("response",
                        "The document field the topics should predict: time, label or a metadata column (a year, a "
                        "rating, a party). Documents without a value are fitted as plain LDA documents."),
             &SldaOptions::response)
        .add(choiceOption("response_type", {"auto", "gaussian", "categorical"},
                          "How the response is modelled: gaussian (a number with normal noise) or categorical (one "
                          "class per document, softmax). auto: gaussian when every value is a number."),
             &SldaOptions::responseType)
        .add(topic::iterationsOption("EM iterations at most; each updates every document's posterior, then the "
                                     "topics and the response's coefficients."),
             &SldaOptions::iterations)
        .add(topic::variationalAlphaOption(), &SldaOptions::alpha)
        .add(realOption("beta", 0.0, kNoMaximum, true,
                        "Prior on each topic's words (a symmetric Dirichlet): small values make topics use few, "
                        "distinctive words. Only the start when optimize_every is set."),
             &SldaOptions::beta)
        .add(integerOption("optimize_every", 0, 1e7,
                           "Re-estimate beta from the topics every N iterations (empirical Bayes, as LDA-VB does); "
                           "0 keeps it fixed."),
             &SldaOptions::optimizeEvery)
        .add(topic::estepIterationsOption(), &SldaOptions::estepIterations)
        .add(topic::estepToleranceOption(), &SldaOptions::estepTolerance)
        .add(booleanOption("two_stage",
                           "Fit the topics without the response (plain LDA), then regress the response on the "
                           "documents' topics: the baseline supervised topics should beat."),
             &SldaOptions::twoStage)
        .add(realOption("penalty", 0.0, kNoMaximum, false,
                        "Categorical responses: L2 penalty on the coefficients (a Gaussian prior with variance "
                        "1/penalty); it keeps them finite when a topic separates the classes."),
             &SldaOptions::penalty)
        .add(topic::toleranceOption(), &SldaOptions::tolerance)
        .add(topic::snapshotEveryOption(), &SldaOptions::snapshotEvery)
        .add(topic::wordBaselinesOption(), &SldaOptions::baselines);
    return t;
  }();
  return table;
}

ModelDefinition sldaModel() { return defineModel<SldaModel>(); }

}  // namespace latent::core
