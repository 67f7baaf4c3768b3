// SPDX-License-Identifier: GPL-3.0-or-later
// Labeled LDA: options, the chain under the fit driver (sweeps, reports, snapshots, stop), label
// prediction for held-out documents and the results, its topics named by their labels.
#include "core/models/topic/labeled_lda.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "core/data/document_fields.hpp"
#include "core/eval/linear_baselines.hpp"
#include "core/eval/response_metrics.hpp"
#include "core/models/fit_driver.hpp"
#include "core/models/topic/labeled_lda_prediction.hpp"
#include "core/models/topic/topic_model_support.hpp"
#include "core/util/clock.hpp"
#include "core/util/errors.hpp"

namespace latent::core {
namespace {

using llda::UnlabeledDocuments;

ModelInfo labeledLdaInfo() {
  ModelInfo info;
  info.name = "labeled-lda";
  info.kind = DataKind::Corpus;
  info.family = ResultFamily::Topics;
  info.title = "Labeled LDA (a topic per label)";
  info.description =
      "Each label of the documents (a tag, a category) is a topic, and a document's words may only come from its "
      "own labels' topics and a few shared background topics: the topics come out named, as each label's words. "
      "Fitted by collapsed Gibbs sampling; it predicts the labels of held-out documents from their words.";
  info.objectiveName = "log joint log P(W, Z | alpha, beta) per token, each document's topics its labels' (nats)";
  info.options = LabeledLdaOptions::table().specs();
  // Word-topic counts (4 bytes) and topic_word, its running sum and a copy (8 each); doc_topic and
  // the label scores; a topic and a count per token.
  info.needs = [](const FitData& data, const nlohmann::json& options) {
    const auto V = static_cast<std::uint64_t>(data.corpus->vocabularySize());
    const auto D = static_cast<std::uint64_t>(data.fullDocumentCount);
    const auto N = static_cast<std::uint64_t>(data.corpus->tokenCount());
    // The labels are the field's categories: reading them is one pass over the documents' label
    // texts. A field that cannot be read needs nothing here: the fit refuses it with its own message.
    std::uint64_t labels = 0;
    try {
      labels =
          documentField(*data.corpus, options.at("labels").get<std::string>(), FieldKind::LabelSets).categories.size();
    } catch (const UsageError&) {
      labels = 0;
    }
    const auto K = labels + options.at("background").get<std::uint64_t>();
    return ResourceNeeds{K * V * 28 + D * K * 16 + N * 8, std::max(K * V, D * K) * 8};
  };
  return info;
}

// The labels of the training and held-out documents, read once.
struct LabeledDocuments {
  DocumentField training;                          // label sets of data.corpus
  std::vector<std::vector<std::int32_t>> heldout;  // of each held-out document, coded like training
  Corpus heldoutWhole;                             // the held-out documents whole (label prediction)
};

LabeledDocuments readLabels(const FitData& data, const std::string& fieldName) {
  LabeledDocuments labeled;
  labeled.training = documentField(*data.corpus, fieldName, FieldKind::LabelSets);
  if (labeled.training.categories.empty())
    throw UsageError("labeled-lda: no training document has a value in the field '" + fieldName +
                     "': there are no labels to make topics of");
  if (data.heldout && !data.heldout->empty()) {
    labeled.heldoutWhole = wholeHeldoutDocuments(*data.heldout);
    labeled.heldout = documentFieldLike(labeled.heldoutWhole, labeled.training).sets;
  }
  return labeled;
}

// The chain the run keeps. Reports come only at evaluations (the log joint takes a pass over the counts).
class LabeledLdaChain final : public FitChain {
 public:
  LabeledLdaChain(const FitData& data, const FitSettings& settings, const LabeledLdaOptions& options,
                  LabeledDocuments labeled, std::stop_token stop)
      : m_data(data),
        m_settings(settings),
        m_options(options),
        m_labeled(std::move(labeled)),
        m_labels(static_cast<int>(m_labeled.training.categories.size())),
        m_topics(m_labels + static_cast<int>(options.background)),
        m_stop(std::move(stop)),
        m_sampler(*data.corpus,
                  llda::allowedTopics(m_labeled.training.sets, m_labels, static_cast<int>(options.background),
                                      options.unlabeled),
                  m_topics, options.alpha, options.beta, settings.seed),
        m_heldoutAllowed(
            llda::allowedTopics(m_labeled.heldout, m_labels, static_cast<int>(options.background), options.unlabeled)),
        // As lda-gibbs: topic_word is phi averaged over every sweep of the last fifth of the chain,
        // the posterior mean from many samples of Z rather than one.
        m_averageFrom(options.iterations - std::max<std::int64_t>(1, options.iterations / 5) + 1) {}

  bool step(const StepPlan& plan, IterationReport& report) override {
    if (!m_sampler.sweep(m_stop)) return false;
    if (plan.iteration >= m_averageFrom) {
      const Eigen::MatrixXd phi = m_sampler.topicWord();
      if (m_phiSum.size() == 0)
        m_phiSum = phi;
      else
        m_phiSum += phi;
      ++m_phiSamples;
    }
    if (plan.evaluate) {
      m_lastLogJoint = m_sampler.logJoint();
      const auto N = static_cast<double>(m_sampler.tokenCount());
      report.trainObjective = N > 0 ? m_lastLogJoint / N : std::numeric_limits<double>::quiet_NaN();
      report.heldout = llda::restrictedHeldoutPerplexity(m_data.heldout, m_heldoutAllowed, currentTopics(),
                                                         m_options.alpha, m_settings.seed);
    }
    return true;
  }

  std::vector<NamedMatrix> snapshot(const StepPlan&) override { return {{topic::kTopicWord, m_sampler.topicWord()}}; }

  void finish(FitResult& result) override {
    const Eigen::MatrixXd phi = currentTopics();
    const double alpha = m_options.alpha;
    const std::uint64_t seed = m_settings.seed;
    result.matrices.push_back({topic::kTopicWord, phi});
    result.matrices.push_back(
        {topic::kDocTopic,
         llda::assembleRestrictedDocTopic(m_sampler.docTopic(), m_data.trainDocuments, m_data.fullDocumentCount,
                                          m_data.heldout, m_heldoutAllowed, phi, alpha, seed)});
    result.matrices.push_back({topic::kAlpha, Eigen::RowVectorXd::Constant(m_topics, alpha)});
    result.tokenTopics = m_sampler.tokenTopics();
    result.matrices.push_back({topic::kLabelScores, labelScores(phi)});
    for (const auto& label : m_labeled.training.categories) result.topicNames.push_back(label);
    for (std::int64_t b = 0; b < m_options.background; ++b) result.topicNames.push_back(backgroundTopicName(b));

    auto& metrics = result.finalMetrics;
    const auto N = static_cast<double>(m_sampler.tokenCount());
    if (std::isfinite(m_lastLogJoint)) {
      metrics["log_joint"] = m_lastLogJoint;
      metrics["train_objective"] = m_lastLogJoint / N;
    }
    metrics["labels"] = m_labels;
    metrics["background_topics"] = m_options.background;
    metrics["label_field"] = m_options.labels;
    std::int64_t unlabeled = 0, assigned = 0;
    for (const auto& set : m_labeled.training.sets) {
      unlabeled += set.empty();
      assigned += static_cast<std::int64_t>(set.size());
    }
    const auto D = static_cast<std::int64_t>(m_labeled.training.sets.size());
    metrics["unlabeled_training_documents"] = unlabeled;
    if (D > unlabeled)
      metrics["labels_per_labeled_document"] = static_cast<double>(assigned) / static_cast<double>(D - unlabeled);
    metrics["topic_word_samples"] = m_phiSamples;
    metrics["train_tokens"] = m_sampler.tokenCount();
    if (m_data.heldout && !m_data.heldout->empty()) {
      llda::addLabeledHeldoutMetrics(metrics, *m_data.heldout, m_heldoutAllowed, phi, alpha, seed);
      addLabelPredictionMetrics(metrics, phi);
    }
  }

 private:
  // The topics the run would return if it stopped now: the running average, else the last sample's.
  Eigen::MatrixXd currentTopics() const {
    if (m_phiSamples == 0) return m_sampler.topicWord();
    Eigen::MatrixXd phi = m_phiSum / static_cast<double>(m_phiSamples);
    phi.array().colwise() /= phi.rowwise().sum().array();
    return phi;
  }

  // Every document's label shares from its words alone, in corpus order (D x L): training and
  // held-out documents alike, so the reader can set what the words say beside the labels given.
  Eigen::MatrixXd labelScores(const Eigen::MatrixXd& phi) {
    const Eigen::MatrixXd training =
        llda::predictLabelShares(*m_data.corpus, phi, m_options.alpha, m_labels, m_settings.seed);
    if (m_data.trainDocuments.empty() || !m_data.heldout) return training;
    Eigen::MatrixXd full = Eigen::MatrixXd::Zero(m_data.fullDocumentCount, m_labels);
    for (std::size_t d = 0; d < m_data.trainDocuments.size(); ++d)
      full.row(m_data.trainDocuments[d]) = training.row(static_cast<Eigen::Index>(d));
    if (!m_heldoutShares.size()) m_heldoutShares = heldoutShares(phi);
    for (std::size_t i = 0; i < m_data.heldout->size(); ++i)
      full.row(m_data.heldout->documents[i]) = m_heldoutShares.row(static_cast<Eigen::Index>(i));
    return full;
  }

  Eigen::MatrixXd heldoutShares(const Eigen::MatrixXd& phi) const {
    return llda::predictLabelShares(m_labeled.heldoutWhole, phi, m_options.alpha, m_labels, m_settings.seed);
  }

  // Held-out label prediction and the baselines beside it (label frequencies; one-vs-rest logistic
  // regression on the words). A label's score for the predicted set is its share relative to the
  // document's top label's: labels with at least half the top label's share are predicted (shares
  // sum to one over the labels, so 0.5 on the shares themselves would predict a single label for
  // nearly every document). Precision at 1 does not depend on this choice.
  void addLabelPredictionMetrics(nlohmann::json& metrics, const Eigen::MatrixXd& phi) {
    if (!m_heldoutShares.size()) m_heldoutShares = heldoutShares(phi);
    Eigen::MatrixXd relative = m_heldoutShares;
    for (Eigen::Index d = 0; d < relative.rows(); ++d)
      if (const double top = relative.row(d).maxCoeff(); top > 0) relative.row(d) /= top;
    addScores(metrics, scoreLabelSets(relative, m_labeled.heldout));
    addBaselineScores(metrics, *m_data.corpus, m_labeled.training, m_labeled.heldoutWhole, m_settings.seed,
                      m_options.baselines);
    metrics["label_prediction_rule"] = "labels with at least half the top label's share of the label topics";
  }

  const FitData& m_data;
  const FitSettings& m_settings;
  LabeledLdaOptions m_options;
  LabeledDocuments m_labeled;
  int m_labels = 0, m_topics = 0;
  std::stop_token m_stop;
  llda::LabeledLdaSampler m_sampler;
  llda::AllowedTopics m_heldoutAllowed;
  std::int64_t m_averageFrom = 1;
  Eigen::MatrixXd m_phiSum;
  std::int64_t m_phiSamples = 0;
  Eigen::MatrixXd m_heldoutShares;
  double m_lastLogJoint = std::numeric_limits<double>::quiet_NaN();
};

class LabeledLdaModel final : public DescribedModel<&labeledLdaInfo> {
 public:
  FitResult fit(const FitData& data, const FitSettings& settings, TrainingObserver& observer,
                std::stop_token stop) override {
    const Stopwatch clock;
    const auto options = LabeledLdaOptions::table().parse(settings.options, info().name);
    if (options.unlabeled == UnlabeledDocuments::BackgroundOnly && options.background == 0)
      throw UsageError("labeled-lda: --unlabeled background needs at least one background topic (--background 1)");
    LabeledLdaChain chain(data, settings, options, readLabels(data, options.labels), stop);
    const ChainSchedule schedule{options.iterations, options.snapshotEvery, false};
    return driveChain(chain, schedule, settings, observer, stop, clock);
  }
};

}  // namespace

std::string backgroundTopicName(std::int64_t b) { return "background " + std::to_string(b + 1); }

// Why the defaults: alpha and beta as lda-gibbs's starting values, so that perplexities compare;
// one background topic, because without one (Ramage et al.'s model as published) every word of a
// document must come from one of its labels, and the words all documents share ("use", "data",
// "provides") end up at the top of every label's list; 300 sweeps, because with each document's
// topics pinned to its labels the chain has far less to settle than LDA's; documents without
// labels allowed every topic, so that they fit as LDA documents over the label topics (the
// semi-supervised reading) rather than being left out; "background" keeps them from shaping the
// labels' words at all.
const OptionTable<LabeledLdaOptions>& LabeledLdaOptions::table() {
  static const auto table = [] {
    OptionTable<LabeledLdaOptions> t;
    t.add(textOption("labels",
                     "The document field whose labels become topics: 'label' (several per document with the "
                     "corpus's label separator) or any categorical metadata column."),
          &LabeledLdaOptions::labels)
        .add(integerOption("background", 0, 1000,
                           "Shared topics every document may use besides its labels; they take the words common to "
                           "all labels. 0 = the model as Ramage et al. published it."),
             &LabeledLdaOptions::background)
        .add(topic::iterationsOption("Sweeps over every word; with the topics pinned to labels a few hundred suffice."),
             &LabeledLdaOptions::iterations)
        .add(topic::alphaOption(), &LabeledLdaOptions::alpha)
        .add(topic::betaOption(), &LabeledLdaOptions::beta)
        .add(choiceOption("unlabeled", {},
                          "Documents without a label: all (may use every label's topic, as in plain LDA) or "
                          "background (only the background topics: they do not shape the labels' words)."),
             &LabeledLdaOptions::unlabeled,
             {{"all", UnlabeledDocuments::AllTopics}, {"background", UnlabeledDocuments::BackgroundOnly}})
        .add(topic::snapshotEveryOption(), &LabeledLdaOptions::snapshotEvery)
        .add(topic::wordBaselinesOption(), &LabeledLdaOptions::baselines);
    return t;
  }();
  return table;
}

ModelDefinition labeledLdaModel() { return defineModel<LabeledLdaModel>(); }

}  // namespace latent::core
