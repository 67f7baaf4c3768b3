// SPDX-License-Identifier: GPL-3.0-or-later
// Multinomial ePCA: options, the Adam ascent under the fit driver, held-out perplexity under both
// protocols of 003 with the model's own predictive softmax(W z + b), and results in SVD form.
// References: 000 §27.2.2 (eq. 27.8; the point estimate is "very prone to overfitting"), 003 §3.5
// (EPCA as point-posterior EM) and §4-5 (folding-in), Collins et al. 2002, Kingma & Ba 2015.
#include "core/models/topic/epca.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <utility>

#include "core/data/response_groups.hpp"
#include "core/eval/response_evaluation.hpp"
#include "core/eval/topic_evaluation.hpp"
#include "core/models/fit_driver.hpp"
#include "core/models/topic/doc_word_counts.hpp"
#include "core/models/topic/epca_kernels.hpp"
#include "core/models/topic/epca_variational.hpp"
#include "core/models/topic/topic_model_support.hpp"
#include "core/results/embedding_results.hpp"
#include "core/util/clock.hpp"
#include "core/util/errors.hpp"

namespace latent::core {
namespace {

ResourceNeeds epcaNeeds(const FitData& data, const nlohmann::json& options) {
  const auto K = options.at("k").get<std::uint64_t>();
  const auto V = static_cast<std::uint64_t>(data.corpus->vocabularySize());
  const auto D = static_cast<std::uint64_t>(data.fullDocumentCount);
  // The state, its gradient and Adam's two moments (4 copies), 8 ranges' gradients of W, the
  // dense logits of one block of documents per thread; variational: two covariances per document.
  const bool variational = options.contains("inference") && options.at("inference").get<std::string>() == "variational";
  const std::uint64_t covariances = variational ? 2 * D * K * K : 0;
  return ResourceNeeds{(12 * (V + D) * K + 16 * 16 * V + covariances) * 8, std::max(V, D) * K * 8};
}

ModelInfo epcaInfo() {
  ModelInfo info;
  info.name = "epca";
  info.kind = DataKind::Corpus;
  info.family = ResultFamily::Embeddings;
  info.heldoutKey = topic::kHeldoutPerplexity;
  info.title = "ePCA (multinomial or Poisson; point estimates or variational)";
  info.description =
      "Places each document at a point in K dimensions from which its words are drawn through a softmax, like PCA "
      "for counts; the points and the word loadings are fitted as fixed numbers (no integrating out), which 003 "
      "shows makes full folding-in far too optimistic. With --inference variational the points are integrated out "
      "under their Gaussian prior instead (variational EM), which overfits less. Held-out perplexity is by document "
      "completion.";
  info.objectiveName =
      "map: log p(words | Z, W, b) + Gaussian log priors on Z and W (without their constants); variational: the "
      "lower bound on log p(words | W, b) with Z integrated out, + W's Gaussian log prior; per token (nats; the "
      "Poisson likelihood without log x!)";
  info.options = EpcaOptions::table().specs();
  info.needs = &epcaNeeds;
  return info;
}

ModelInfo catpcaInfo() {
  ModelInfo info;
  info.name = "catpca";
  info.kind = DataKind::Corpus;
  info.family = ResultFamily::Embeddings;
  info.heldoutKey = topic::kHeldoutPerplexity;
  info.title = "Categorical PCA (survey answers)";
  info.description =
      "For survey answers (imported with --format responses): places each respondent at a point in K dimensions, "
      "and each question's answer is drawn through a softmax over that question's answers of its own loadings "
      "times the point (000 eq. 27.7); the points are integrated out under their Gaussian prior (variational EM; "
      "--inference map fits them as point estimates, which overfits). The Map page places the answers on two "
      "components. Held-out respondents' hidden answers are predicted from their others: log loss "
      "and accuracy per question, beside the answers' frequencies as a baseline.";
  info.objectiveName =
      "variational: the lower bound on log p(answers | W, b) with Z integrated out; map: log p(answers | Z, W, b) + "
      "the Gaussian log prior on Z; both + W's Gaussian log prior, per answer (nats)";
  info.options = CatpcaOptions::table().specs();
  info.needs = &epcaNeeds;
  return info;
}

class EpcaChain final : public FitChain {
 public:
  // `questions`: categorical PCA's, which must outlive the chain; null for epca.
  EpcaChain(const FitData& data, const FitSettings& settings, const EpcaOptions& options,
            const ResponseGroups* questions, std::stop_token stop)
      : m_data(data),
        m_settings(settings),
        m_options(options),
        m_stop(std::move(stop)),
        m_counts(topic::buildDocWordCounts(*data.corpus)),
        m_priors{options.zPrecision, options.wPrecision, options.likelihood, questions} {
    const auto limit = std::min<std::int64_t>(static_cast<std::int64_t>(m_counts.documents()), m_counts.vocabulary);
    if (options.components >= limit)
      throw UsageError(std::string(questions ? "catpca" : "epca") +
                       ": --k must be below the number of training documents and of words (here " +
                       std::to_string(limit) + ")");
    m_state = topic::initEpca(m_counts, options.components, settings.seed, options.likelihood);
    m_adam = std::make_unique<topic::EpcaAdam>(m_state);
    if (variational())
      m_covariances = topic::initEpcaCovariances(m_counts.documents(), options.components, options.zPrecision);
  }

  bool step(const StepPlan& plan, IterationReport& report) override {
    // The gradient at the current state, then one step; the objective reported is the current
    // state's, i.e. before the step (the step's own would cost another pass).
    // Variational: the bound and its gradient in W and b, with every q(z_d) updated; the means
    // take their new values after W and b have stepped (their gradient is zero).
    const double objective = variational()
                                 ? topic::epcaVariationalSweep(m_counts, m_state, m_covariances, m_priors, m_gradient,
                                                               m_nextMeans, m_nextCovariances, m_stop)
                                 : topic::epcaObjective(m_counts, m_state, m_priors, &m_gradient, m_stop);
    if (std::isnan(objective)) return false;
    m_adam->apply(m_state, m_gradient, m_options.learningRate);
    if (variational()) {
      std::swap(m_state.z, m_nextMeans);
      std::swap(m_covariances, m_nextCovariances);
    }
    const double now = perToken(objective);
    m_converged = m_options.tolerance > 0 && plan.iteration > 1 && std::abs(now - m_previous) < m_options.tolerance;
    m_previous = now;
    report.trainObjective = now;
    if (plan.evaluate || m_converged) report.heldout = heldout(HeldoutProtocol::DocumentCompletion).perplexity;
    return true;
  }
  bool converged() const override { return m_converged; }
  std::vector<NamedMatrix> snapshot(const StepPlan&) override {
    const auto canonical = topic::epcaCanonical(m_state.z, m_state.w);
    return {{embedding::kWordVectors, canonical.wordVectors},
            {embedding::kSingularValues, canonical.singularValues},
            {embedding::kWordBias, m_state.b}};
  }

  // Results, also for a stopped run; the passes a stop should not wait for (the objective of the
  // state reached, the held-out documents' fold-ins) only when the run was not stopped.
  void finish(FitResult& result) override {
    const bool stopped = result.status == FitStatus::Cancelled;
    const auto canonical = topic::epcaCanonical(m_state.z, m_state.w);
    result.matrices.push_back({embedding::kSingularValues, canonical.singularValues});
    result.matrices.push_back({embedding::kWordVectors, canonical.wordVectors});
    result.matrices.push_back({embedding::kWordBias, m_state.b});
    if (stopped) return;
    result.finalMetrics["train_objective"] = perToken(finalObjective());
    result.matrices.push_back({embedding::kDocVectors, documentVectors(canonical)});
    if (m_data.heldout && !m_data.heldout->empty()) {
      topic::addHeldoutScores(result.finalMetrics, heldout(HeldoutProtocol::DocumentCompletion),
                              heldout(HeldoutProtocol::FullFoldingIn));
      if (m_priors.questions)
        addResponseScores(result.finalMetrics, scoreResponses(*m_data.heldout, *m_data.corpus, *m_priors.questions,
                                                              predictive(), m_settings.seed));
    }
  }

 private:
  double perToken(double value) const {
    return m_counts.tokens > 0 ? value / m_counts.tokens : std::numeric_limits<double>::quiet_NaN();
  }

  bool variational() const { return m_options.inference == EpcaOptions::Inference::Variational; }

  // The objective of the state reached (for the variational bound, one more sweep's, its update
  // discarded).
  double finalObjective() {
    if (!variational()) return topic::epcaObjective(m_counts, m_state, m_priors, nullptr, {});
    return topic::epcaVariationalSweep(m_counts, m_state, m_covariances, m_priors, m_gradient, m_nextMeans,
                                       m_nextCovariances, {});
  }

  // A held-out document's coordinates: the point estimate, or the mean of q(z).
  Eigen::VectorXd foldIn(std::span<const std::int32_t> words) const {
    if (variational()) return topic::epcaVariationalFoldIn(words, m_state.w, m_state.b, m_priors).mean;
    return topic::epcaFoldIn(words, m_state.w, m_state.b, m_options.zPrecision, m_priors.questions);
  }

  // Under either likelihood, given the words' number: the Poisson counts of a document of known
  // length are multinomial with the softmax of the same logits, so one fold-in and one predictive
  // serve both. Variational: the predictive averages the softmax over q(z), integrating z out.
  // Categorical PCA: the probabilities of each question's answers.
  LogPredictive predictive() const {
    return [this](std::span<const std::int32_t> words, std::uint64_t seed) {
      if (variational())
        return topic::epcaPredictiveLogProbabilities(
            m_state.w, m_state.b, topic::epcaVariationalFoldIn(words, m_state.w, m_state.b, m_priors), seed, 200,
            m_priors.questions);
      return topic::epcaLogProbabilities(m_state.w, m_state.b, foldIn(words), m_priors.questions);
    };
  }
  TopicHeldoutScore heldout(HeldoutProtocol protocol) const {
    if (!m_data.heldout || m_data.heldout->empty()) return {};
    return scoreHeldout(*m_data.heldout, predictive(), protocol, m_settings.seed);
  }

  // U in corpus order: a training document's row of the canonical form; a held-out document's
  // coordinates folded in from all of its words, in the same frame (z W^T V diag(1/s)).
  Eigen::MatrixXd documentVectors(const topic::EpcaCanonical& canonical) const {
    const auto K = canonical.singularValues.size();
    Eigen::MatrixXd out = Eigen::MatrixXd::Zero(m_data.fullDocumentCount, K);
    for (Eigen::Index d = 0; d < canonical.docVectors.rows(); ++d)
      out.row(m_data.trainDocuments.empty() ? d : m_data.trainDocuments[static_cast<std::size_t>(d)]) =
          canonical.docVectors.row(d);
    if (!m_data.heldout) return out;
    const Eigen::MatrixXd frame = m_state.w.transpose() * canonical.wordVectors;  // K x K
    Eigen::VectorXd inverse(K);
    for (Eigen::Index k = 0; k < K; ++k)
      inverse[k] = canonical.singularValues[k] > 0 ? 1.0 / canonical.singularValues[k] : 0.0;
    const auto& h = *m_data.heldout;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, h.size(), 4), [&](const auto& range) {
      std::vector<std::int32_t> words;
      for (std::size_t i = range.begin(); i != range.end(); ++i) {
        const auto a = h.observed.document(i), b = h.scored.document(i);
        words.assign(a.begin(), a.end());
        words.insert(words.end(), b.begin(), b.end());
        const Eigen::VectorXd z = foldIn(words);
        out.row(h.documents[i]) = (frame.transpose() * z).cwiseProduct(inverse).transpose();
      }
    });
    return out;
  }

  const FitData& m_data;
  const FitSettings& m_settings;
  const EpcaOptions& m_options;
  std::stop_token m_stop;
  topic::DocWordCounts m_counts;
  topic::EpcaPriors m_priors;
  topic::EpcaState m_state, m_gradient;
  topic::EpcaCovariances m_covariances, m_nextCovariances;  // variational: each q(z_d)'s covariance
  Eigen::MatrixXd m_nextMeans;
  std::unique_ptr<topic::EpcaAdam> m_adam;
  double m_previous = std::numeric_limits<double>::quiet_NaN();
  bool m_converged = false;
};

// epca, or categorical PCA (the same chain with a softmax per question).
template <ModelInfo (*Info)(), bool Categorical>
class EpcaModel final : public DescribedModel<Info> {
 public:
  FitResult fit(const FitData& data, const FitSettings& settings, TrainingObserver& observer,
                std::stop_token stop) override {
    const Stopwatch clock;
    const auto options = Categorical ? CatpcaOptions::table().parse(settings.options, this->info().name).epca()
                                     : EpcaOptions::table().parse(settings.options, this->info().name);
    std::optional<ResponseGroups> questions;
    if (Categorical) questions = responseGroups(data.corpus->words, this->info().name);
    EpcaChain chain(data, settings, options, questions ? &*questions : nullptr, stop);
    return driveChain(chain, ChainSchedule{options.iterations, options.snapshotEvery}, settings, observer, stop, clock);
  }
};

}  // namespace

const OptionTable<EpcaOptions>& EpcaOptions::table() {
  static const auto table = [] {
    OptionTable<EpcaOptions> t;
    t.add(integerOption("k", 1, 10000,
                        "Components: the dimensions each document's point lives in (its word distribution is a "
                        "softmax of K loadings times the point)."),
          &EpcaOptions::components)
        .add(topic::iterationsOption("Adam steps on all the parameters at once, each after one pass over the "
                                     "documents."),
             &EpcaOptions::iterations)
        .add(choiceOption("likelihood", {},
                          "multinomial: a document's words drawn from softmax(W z + b), its length given; poisson: "
                          "each count drawn from Poisson(exp(W z + b)), so the point also accounts for the length."),
             &EpcaOptions::likelihood,
             {{"multinomial", topic::EpcaLikelihood::Multinomial}, {"poisson", topic::EpcaLikelihood::Poisson}})
        .add(choiceOption("inference", {},
                          "map: each document's point fitted as a fixed number (Collins et al.; 003 shows it "
                          "overfits); variational: the points integrated out under their Gaussian prior by "
                          "variational EM, a Gaussian of full covariance per document (slower: K times the work per "
                          "document)."),
             &EpcaOptions::inference,
             {{"map", EpcaOptions::Inference::Map}, {"variational", EpcaOptions::Inference::Variational}})
        .add(realOption("learning_rate", 0.0, 10.0, true,
                        "Adam's step size: how far each parameter moves per step, in its own units."),
             &EpcaOptions::learningRate)
        .add(realOption("z_precision", 0.0, kNoMaximum, true,
                        "Precision of the Gaussian prior on each document's point: larger pulls the points towards "
                        "the origin (the unigram model)."),
             &EpcaOptions::zPrecision)
        .add(realOption("w_precision", 0.0, kNoMaximum, true,
                        "Precision of the Gaussian prior on each word loading: larger keeps the loadings small."),
             &EpcaOptions::wPrecision)
        .add(topic::toleranceOption(), &EpcaOptions::tolerance)
        .add(topic::snapshotEveryOption(), &EpcaOptions::snapshotEvery);
    return t;
  }();
  return table;
}

EpcaOptions CatpcaOptions::epca() const {
  EpcaOptions out;
  out.components = components;
  out.iterations = iterations;
  out.learningRate = learningRate;
  out.zPrecision = zPrecision;
  out.wPrecision = wPrecision;
  out.tolerance = tolerance;
  out.snapshotEvery = snapshotEvery;
  out.inference = inference;
  return out;
}

const OptionTable<CatpcaOptions>& CatpcaOptions::table() {
  static const auto table = [] {
    OptionTable<CatpcaOptions> t;
    t.add(integerOption("k", 1, 10000,
                        "Components: the dimensions each respondent's point lives in (each question's answer is a "
                        "softmax of its own loadings times the point)."),
          &CatpcaOptions::components)
        .add(topic::iterationsOption("Adam steps on all the parameters at once, each after one pass over the "
                                     "respondents."),
             &CatpcaOptions::iterations)
        .add(choiceOption("inference", {},
                          "map: each respondent's point fitted as a fixed number; variational: the points "
                          "integrated out under their Gaussian prior by variational EM (overfits less when K is "
                          "large for the answers each respondent gives)."),
             &CatpcaOptions::inference,
             {{"map", EpcaOptions::Inference::Map}, {"variational", EpcaOptions::Inference::Variational}})
        .add(realOption("learning_rate", 0.0, 10.0, true,
                        "Adam's step size: how far each parameter moves per step, in its own units."),
             &CatpcaOptions::learningRate)
        .add(realOption("z_precision", 0.0, kNoMaximum, true,
                        "Precision of the Gaussian prior on each respondent's point: larger pulls the points "
                        "towards the origin (every question answered by its answers' frequencies)."),
             &CatpcaOptions::zPrecision)
        .add(realOption("w_precision", 0.0, kNoMaximum, true,
                        "Precision of the Gaussian prior on each answer's loadings: larger keeps them small."),
             &CatpcaOptions::wPrecision)
        .add(topic::toleranceOption(), &CatpcaOptions::tolerance)
        .add(topic::snapshotEveryOption(), &CatpcaOptions::snapshotEvery);
    return t;
  }();
  return table;
}

ModelDefinition epcaModel() { return defineModel<EpcaModel<&epcaInfo, false>>(); }
ModelDefinition catpcaModel() { return defineModel<EpcaModel<&catpcaInfo, true>>(); }

}  // namespace latent::core
