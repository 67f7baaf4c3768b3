// SPDX-License-Identifier: GPL-3.0-or-later
// dcatpca: options, the fit as a chain of rounds (L-BFGS at the current Sigma, then Sigma's M
// step), the held-out label scores beside the baselines, and the results. References: 000
// §27.4.4.3 (eq. 27.73-27.74, Fig. 27.17), §12.4 (catPCA's variational EM and Bohning's bound).
#include "core/models/topic/dcatpca.hpp"

#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include "core/data/document_fields.hpp"
#include "core/eval/heldout.hpp"
#include "core/eval/linear_baselines.hpp"
#include "core/eval/response_metrics.hpp"
#include "core/eval/word_features.hpp"
#include "core/models/fit_driver.hpp"
#include "core/models/topic/dcatpca_fit.hpp"
#include "core/models/topic/topic_model_support.hpp"
#include "core/results/embedding_results.hpp"
#include "core/util/clock.hpp"
#include "core/util/errors.hpp"

namespace latent::core {
namespace {

// L-BFGS iterations per round: a round is an iteration of the run, short enough to honour a stop.
constexpr int kDcatpcaRoundIterations = 20;

ModelInfo dcatpcaInfo() {
  ModelInfo info;
  info.name = "dcatpca";
  info.kind = DataKind::Corpus;
  info.family = ResultFamily::Embeddings;
  info.title = "Discriminative categorical PCA (labels from words)";
  info.description =
      "Predicts a document's labels from its words through K latent dimensions: the words set the mean of a "
      "Gaussian latent, the labels are categorical draws from a softmax of it. Documents are placed in the latent "
      "space; held-out documents' labels are predicted from their words alone, beside a logistic regression.";
  info.objectiveName = "mean over documents of -log p(labels, latent | words) plus the penalties";
  info.heldoutKey = embedding::kHeldoutLabelLogLoss;
  info.options = DcatpcaOptions::table().specs();
  return info;
}

// The labels as the model reads them: label sets where the label has a separator, else a category.
DocumentField dcatpcaField(const Corpus& corpus, const std::string& name) {
  const bool sets = name == "label" && !corpus.labelSeparator.empty();
  return documentField(corpus, name, sets ? FieldKind::LabelSets : FieldKind::Categorical);
}

std::vector<std::int32_t> dcatpcaLabelsOf(const DocumentField& field, std::size_t d) {
  if (field.kind == FieldKind::LabelSets) return field.sets[d];
  return {field.codes[d]};
}

class DcatpcaChain final : public FitChain {
 public:
  DcatpcaChain(const FitData& data, const DcatpcaOptions& options, const FitSettings& settings)
      : m_data(data), m_options(options), m_settings(settings), m_field(dcatpcaField(*data.corpus, options.labels)) {
    const auto& corpus = *data.corpus;
    m_labels = static_cast<int>(m_field.categories.size());
    if (m_labels < 2)
      throw UsageError("dcatpca: the field '" + options.labels + "' has " + std::to_string(m_labels) +
                       " distinct value(s) among the training documents; it needs two or more");
    double drawn = 0.0;
    for (std::size_t d = 0; d < corpus.documentCount(); ++d) {
      if (m_field.missing(d)) continue;
      m_rows.push_back(static_cast<std::int64_t>(d));
      m_sets.push_back(dcatpcaLabelsOf(m_field, d));
      drawn += static_cast<double>(m_sets.back().size());
    }
    if (m_rows.size() < 2) throw UsageError("dcatpca: fewer than two training documents have '" + options.labels + "'");
    m_meanLabels = drawn / static_cast<double>(m_rows.size());
    m_features = wordFeatures(corpus, corpus.vocabularySize(), m_rows);
    topic::DcatpcaSettings fit;
    fit.latent = static_cast<int>(options.latent);
    fit.iterations = static_cast<int>(options.iterations);
    fit.penalty = options.penalty;
    fit.predictiveDraws = static_cast<int>(options.draws);
    fit.seed = settings.seed;
    m_fitter.emplace(m_features, m_sets, m_labels, fit);
    if (data.heldout && !data.heldout->empty()) {
      m_heldout = wholeHeldoutDocuments(*data.heldout);
      m_heldoutField = documentFieldLike(m_heldout, m_field);
      m_heldoutFeatures = wordFeatures(m_heldout, corpus.vocabularySize());
    }
  }

  bool step(const StepPlan& plan, IterationReport& report) override {
    const int remaining = static_cast<int>(m_options.iterations) - m_fitter->iterations();
    m_fitter->round(std::min(kDcatpcaRoundIterations, std::max(remaining, 1)));
    report.trainObjective = m_fitter->objective();
    if (plan.evaluate || m_fitter->converged()) report.heldout = heldoutLogLoss(heldoutProbabilities());
    return true;
  }
  bool converged() const override { return m_fitter->converged(); }
  std::vector<NamedMatrix> snapshot(const StepPlan&) override { return {}; }

  void finish(FitResult& result) override {
    const auto parameters = m_fitter->parameters();
    result.finalMetrics["train_objective"] = m_fitter->objective();
    result.finalMetrics["train_labelled_documents"] = static_cast<std::int64_t>(m_rows.size());
    storeMatrices(parameters, result);
    if (m_heldout.documentCount() == 0 || result.status == FitStatus::Cancelled) return;
    const Eigen::MatrixXd probabilities = heldoutProbabilities();
    if (const double logLoss = heldoutLogLoss(probabilities); !std::isnan(logLoss))
      result.finalMetrics[embedding::kHeldoutLabelLogLoss] = logLoss;
    if (m_field.kind == FieldKind::LabelSets)
      addScores(result.finalMetrics,
                scoreLabelSets(topic::dcatpcaLabelSetScores(probabilities, m_meanLabels), m_heldoutField.sets));
    else
      addScores(result.finalMetrics, scoreClasses(probabilities, m_heldoutField.codes));
    addBaselineScores(result.finalMetrics, *m_data.corpus, m_field, m_heldout, m_settings.seed, m_options.baselines);
  }

 private:
  Eigen::MatrixXd heldoutProbabilities() const {
    if (m_heldout.documentCount() == 0) return {};
    const auto parameters = m_fitter->parameters();
    return topic::dcatpcaLabelProbabilities(parameters,
                                            topic::dcatpcaLatentMeans(parameters, m_features, m_heldoutFeatures),
                                            static_cast<int>(m_options.draws), m_settings.seed);
  }

  // Mean over the held-out documents' labels of -log p(label | words); NaN when none has a label.
  double heldoutLogLoss(const Eigen::MatrixXd& probabilities) const {
    double sum = 0.0, count = 0.0;
    for (std::size_t d = 0; d < m_heldoutField.size(); ++d) {
      if (m_heldoutField.missing(d)) continue;
      for (const auto l : dcatpcaLabelsOf(m_heldoutField, d)) {
        sum -= std::log(std::max(probabilities(static_cast<Eigen::Index>(d), l), 1e-15));
        count += 1.0;
      }
    }
    return count > 0.0 ? sum / count : std::numeric_limits<double>::quiet_NaN();
  }

  // The documents' latent coordinates (a labelled training document's posterior mode, any other's
  // prior mean V x) rotated to their principal axes, as an embedding: doc_vectors U and
  // singular_values s with U diag(s) the coordinates; word_vectors with word_vectors diag(s) = V^T
  // in those axes; W, b and Sigma in those axes too.
  void storeMatrices(const topic::DcatpcaParameters& parameters, FitResult& result) const {
    const auto& corpus = *m_data.corpus;
    const Eigen::Index k = parameters.labelWeights.rows();
    const auto documents = static_cast<Eigen::Index>(
        std::max<std::int64_t>(m_data.fullDocumentCount, static_cast<std::int64_t>(corpus.documentCount())));
    const WordFeatureRows all = wordFeatures(corpus, corpus.vocabularySize());
    Eigen::MatrixXd coordinates = Eigen::MatrixXd::Zero(documents, k);
    const auto placeOf = [&](std::size_t d) {
      return static_cast<Eigen::Index>(m_data.trainDocuments.empty() ? static_cast<std::int64_t>(d)
                                                                     : m_data.trainDocuments[d]);
    };
    const Eigen::MatrixXd priorMeans = topic::dcatpcaLatentMeans(parameters, m_features, all);
    for (std::size_t d = 0; d < corpus.documentCount(); ++d)
      coordinates.row(placeOf(d)) = priorMeans.row(static_cast<Eigen::Index>(d));
    for (std::size_t r = 0; r < m_rows.size(); ++r)
      coordinates.row(placeOf(static_cast<std::size_t>(m_rows[r]))) =
          parameters.latent.row(static_cast<Eigen::Index>(r));
    if (m_heldout.documentCount() > 0) {
      const Eigen::MatrixXd heldoutMeans = topic::dcatpcaLatentMeans(parameters, m_features, m_heldoutFeatures);
      for (std::size_t i = 0; i < m_data.heldout->size(); ++i)
        coordinates.row(m_data.heldout->documents[i]) = heldoutMeans.row(static_cast<Eigen::Index>(i));
    }
    const Eigen::JacobiSVD<Eigen::MatrixXd> svd(coordinates, Eigen::ComputeThinU | Eigen::ComputeThinV);
    const Eigen::MatrixXd& rotation = svd.matrixV();  // K x K
    const Eigen::VectorXd& values = svd.singularValues();
    Eigen::VectorXd inverse(k);
    for (Eigen::Index j = 0; j < k; ++j) inverse[j] = values[j] > 0.0 ? 1.0 / values[j] : 0.0;
    // V^T on the words: in the span of the training documents, X^T (mapper V^T_reduced).
    const Eigen::MatrixXd wordMap =
        parameters.reduced
            ? Eigen::MatrixXd(m_features.transpose() * (parameters.reduction.mapper * parameters.inputWeights))
            : parameters.inputWeights;
    result.matrices.push_back({embedding::kSingularValues, values});
    result.matrices.push_back({embedding::kWordVectors, wordMap * rotation * inverse.asDiagonal()});
    result.matrices.push_back({embedding::kDocVectors, svd.matrixU()});
    result.matrices.push_back({embedding::kLabelWeights, (rotation.transpose() * parameters.labelWeights).transpose()});
    result.matrices.push_back({embedding::kLabelBias, parameters.labelBias});
    result.matrices.push_back({embedding::kLatentCovariance, rotation.transpose() * parameters.covariance * rotation});
  }

  const FitData& m_data;
  const DcatpcaOptions& m_options;
  const FitSettings& m_settings;
  DocumentField m_field;
  int m_labels = 0;
  std::vector<std::int64_t> m_rows;  // training documents with labels
  std::vector<std::vector<std::int32_t>> m_sets;
  double m_meanLabels = 1.0;
  WordFeatureRows m_features;
  std::optional<topic::DcatpcaFitter> m_fitter;
  Corpus m_heldout;
  DocumentField m_heldoutField;
  WordFeatureRows m_heldoutFeatures;
};

class DcatpcaModel final : public DescribedModel<&dcatpcaInfo> {
 public:
  FitResult fit(const FitData& data, const FitSettings& settings, TrainingObserver& observer,
                std::stop_token stop) override {
    const Stopwatch clock;
    const auto options = DcatpcaOptions::table().parse(settings.options, info().name);
    DcatpcaChain chain(data, options, settings);
    ChainSchedule schedule;
    schedule.iterations = (options.iterations + kDcatpcaRoundIterations - 1) / kDcatpcaRoundIterations;
    return driveChain(chain, schedule, settings, observer, stop, clock);
  }
};

}  // namespace

const OptionTable<DcatpcaOptions>& DcatpcaOptions::table() {
  static const auto table = [] {
    OptionTable<DcatpcaOptions> t;
    t.add(integerOption("k", 1, 1000, "Latent dimensions K between the words and the labels (2 to draw a map)."),
          &DcatpcaOptions::latent)
        .add(textOption("labels",
                        "The document field predicted: \"label\" (label sets where the corpus has a label separator) "
                        "or a metadata column, read as one category per document."),
             &DcatpcaOptions::labels)
        .add(integerOption("iterations", 1, 1e6,
                           "L-BFGS iterations in all; Sigma is re-estimated every 20 (an iteration of the run)."),
             &DcatpcaOptions::iterations)
        .add(realOption("penalty", 0.0, 1e6, false,
                        "L2 penalty on the words' map V and the label loadings W, against the mean over documents "
                        "of their log probabilities."),
             &DcatpcaOptions::penalty)
        .add(integerOption("draws", 1, 100000,
                           "Draws of the latent per held-out document to average the label probabilities over."),
             &DcatpcaOptions::draws)
        .add(topic::wordBaselinesOption(), &DcatpcaOptions::baselines);
    return t;
  }();
  return table;
}

ModelDefinition dcatpcaModel() { return defineModel<DcatpcaModel>(); }

}  // namespace latent::core
