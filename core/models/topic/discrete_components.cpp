// SPDX-License-Identifier: GPL-3.0-or-later
// mPCA and GaP: options, the count-splitting Gibbs sweeps under the fit driver, empirical Bayes for
// the priors, held-out perplexity under both protocols of 003, and results for the topic views.
// References: 000 §27.2.3-27.2.4 (eq. 27.11-27.16; GaP given a document's length is mPCA),
// Buntine & Jakulin 2006 (discrete component analysis and its Gibbs sampler), Canny 2004 (GaP).
#include "core/models/topic/discrete_components.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>

#include "core/data/response_groups.hpp"
#include "core/eval/response_evaluation.hpp"
#include "core/eval/topic_evaluation.hpp"
#include "core/models/fit_driver.hpp"
#include "core/models/topic/discrete_components_kernels.hpp"
#include "core/models/topic/doc_word_counts.hpp"
#include "core/models/topic/topic_model_support.hpp"
#include "core/util/clock.hpp"

namespace latent::core {
namespace {

constexpr const char* kGammaShape = "gamma_shape";  // GaP: 1 x K, each component's Gamma shape a_k
constexpr const char* kGammaRate = "gamma_rate";    // GaP: 1 x K, each component's Gamma rate b_k

ResourceNeeds discreteComponentNeeds(const FitData& data, const nlohmann::json& options) {
  const auto K = options.at("k").get<std::uint64_t>();
  const auto V = static_cast<std::uint64_t>(data.corpus->vocabularySize());
  const auto D = static_cast<std::uint64_t>(data.fullDocumentCount);
  const auto tokens = static_cast<std::uint64_t>(data.corpus->tokenCount());
  // Two samples (the current one and the one a sweep writes): b and n_kw, the factors and n_dk,
  // one component per token; and the topics read out.
  return ResourceNeeds{2 * (K * V * 12 + K * D * 12 + tokens * 4) + K * V * 8, std::max(K * V, K * D) * 8};
}

ModelInfo mpcaInfo() {
  ModelInfo info;
  info.name = "mpca";
  info.kind = DataKind::Corpus;
  info.family = ResultFamily::Topics;
  info.title = "mPCA (multinomial PCA, Gibbs on counts)";
  info.description =
      "Buntine's multinomial PCA: each document's counts are multinomial given its share of each of K components, "
      "which has a Dirichlet prior; the same model as LDA, fitted differently: every count is split over the "
      "components, then every document's shares and every component's words are drawn, which runs in parallel "
      "without approximation and costs per distinct word of a document, not per token.";
  info.objectiveName = "log p(words | shares, components) of the state each sweep starts from, per token (nats)";
  info.options = DiscreteComponentOptions::mpcaTable().specs();
  info.needs = &discreteComponentNeeds;
  return info;
}

ModelInfo gapInfo() {
  ModelInfo info;
  info.name = "gap";
  info.kind = DataKind::Corpus;
  info.family = ResultFamily::Topics;
  info.title = "GaP (Gamma-Poisson factorisation)";
  info.description =
      "Canny's Gamma-Poisson model: each count is Poisson with a rate that sums K components' word weights times "
      "the document's non-negative scores, which have Gamma priors; NMF with the KL loss is its prior-less limit, "
      "and for a document's given length it is mPCA. Fitted by Gibbs sampling of how the counts split, with each "
      "Gamma's shape and rate estimated from the data.";
  info.objectiveName =
      "log p(counts | scores, components), the Poisson likelihood of the state each sweep starts from, per token "
      "(nats)";
  info.options = DiscreteComponentOptions::gapTable().specs();
  info.needs = &discreteComponentNeeds;
  return info;
}

ModelInfo urpInfo() {
  ModelInfo info;
  info.name = "urp";
  info.kind = DataKind::Corpus;
  info.family = ResultFamily::Topics;
  info.title = "URP (simplex factor model of survey answers)";
  info.description =
      "For survey answers (imported with --format responses): Marlin's user rating profile model, mPCA's version of "
      "categorical PCA. Each respondent mixes K profiles with a Dirichlet prior, and each profile gives every "
      "question its own distribution over that question's answers; fitted by the same Gibbs sampling of counts as "
      "mpca. Held-out respondents' hidden answers are predicted from their others: log loss and accuracy per "
      "question, beside the answers' frequencies.";
  info.objectiveName = "log p(answers | shares, profiles) of the state each sweep starts from, per answer (nats)";
  info.options = DiscreteComponentOptions::mpcaTable().specs();
  info.needs = &discreteComponentNeeds;
  return info;
}

// Each training token's component in corpus order, from the splits: the i-th occurrence of a word
// in a document takes the i-th component split off its count.
std::vector<std::vector<std::int32_t>> tokenComponents(const Corpus& corpus, const topic::DocWordCounts& counts,
                                                       const std::vector<std::int64_t>& entryStart,
                                                       const std::vector<std::int32_t>& split) {
  std::vector<std::vector<std::int32_t>> out(corpus.documentCount());
  std::vector<std::int64_t> used;
  for (std::size_t d = 0; d < corpus.documentCount(); ++d) {
    const auto first = counts.words.begin() + counts.docStart[d];
    const auto last = counts.words.begin() + counts.docStart[d + 1];
    used.assign(static_cast<std::size_t>(last - first), 0);
    const auto words = corpus.document(d);
    out[d].resize(words.size());
    for (std::size_t i = 0; i < words.size(); ++i) {
      const auto slot = static_cast<std::size_t>(std::lower_bound(first, last, words[i]) - first);
      const auto entry = static_cast<std::size_t>(counts.docStart[d]) + slot;
      out[d][i] = split[static_cast<std::size_t>(entryStart[entry] + used[slot]++)];
    }
  }
  return out;
}

class DiscreteComponentChain final : public FitChain {
 public:
  // `responses`: the URP, whose words must be survey answers ("question=answer").
  DiscreteComponentChain(const FitData& data, const FitSettings& settings, const DiscreteComponentOptions& options,
                         topic::DocumentPrior kind, bool responses, std::stop_token stop)
      : m_data(data),
        m_settings(settings),
        m_options(options),
        m_stop(std::move(stop)),
        m_counts(topic::buildDocWordCounts(*data.corpus)),
        m_entryStart(topic::entryTokenOffsets(m_counts)),
        // As lda-gibbs does: the topics returned are averaged over the last fifth of the sweeps, a
        // better estimate of E[b | data] than one sample's, as long as no two components swap there.
        m_averageFrom(options.iterations - std::max<std::int64_t>(1, options.iterations / 5) + 1) {
    const auto K = static_cast<Eigen::Index>(options.topics);
    if (responses) {
      m_questions = responseGroups(data.corpus->words, "urp");
      m_priors.questions = &*m_questions;
    }
    m_priors.kind = kind;
    m_priors.beta = options.beta;
    m_priors.shape = Eigen::VectorXd::Constant(K, options.documentPrior);
    if (kind == topic::DocumentPrior::Gamma) {
      // The default rate puts the prior mean of a document's total, K a / b, at the mean length.
      const double meanLength =
          m_counts.documents() > 0 ? std::max(1.0, m_counts.tokens / static_cast<double>(m_counts.documents())) : 1.0;
      const double rate = options.rate > 0 ? options.rate : static_cast<double>(K) * options.documentPrior / meanLength;
      m_priors.rate = Eigen::VectorXd::Constant(K, rate);
    }
    topic::initComponents(m_counts, m_entryStart, m_priors, options.topics, settings.seed, m_state);
  }

  ChainSchedule schedule() const { return {m_options.iterations, m_options.snapshotEvery}; }

  bool step(const StepPlan& plan, IterationReport& report) override {
    const double logLikelihood = topic::componentSweep(m_counts, m_entryStart, m_priors, m_settings.seed,
                                                       plan.iteration, m_state, m_next, m_stop);
    if (std::isnan(logLikelihood)) return false;
    std::swap(m_state, m_next);
    report.trainObjective =
        m_counts.tokens > 0 ? logLikelihood / m_counts.tokens : std::numeric_limits<double>::quiet_NaN();
    if (plan.iteration >= m_averageFrom) {
      if (m_topicSamples == 0) m_topicSum.setZero(m_state.topicWord.rows(), m_state.topicWord.cols());
      m_topicSum += topic::posteriorTopics(m_state, m_priors.beta, m_priors.questions);
      ++m_topicSamples;
    }
    if (plan.evaluate) {
      const Eigen::MatrixXd topics = currentTopics();
      report.heldout = topic::heldoutPerplexity(m_data, topics, foldIn(topics), m_settings.seed);
    }
    const auto it = plan.iteration;
    if (m_options.optimizeEvery > 0 && it > m_options.optimizeBurnIn && it % m_options.optimizeEvery == 0)
      topic::optimizeComponentPriors(m_state, m_priors);
    if (m_priors.kind == topic::DocumentPrior::Gamma) {
      report.extras.emplace_back("shape_mean", m_priors.shape.mean());
      report.extras.emplace_back("prior_mean_total", (m_priors.shape.array() / m_priors.rate.array()).sum());
    } else {
      report.extras.emplace_back("alpha_sum", m_priors.shape.sum());
    }
    report.extras.emplace_back("beta", m_priors.beta);
    return true;
  }

  std::vector<NamedMatrix> snapshot(const StepPlan&) override { return {{topic::kTopicWord, stored(currentTopics())}}; }

  void finish(FitResult& result) override {
    const Eigen::MatrixXd topics = currentTopics();
    const FoldIn fold = foldIn(topics);
    result.matrices.push_back({topic::kTopicWord, stored(topics)});
    result.matrices.push_back(
        {topic::kDocTopic,
         topic::assembleDocTopic(m_data, topic::expectedDocumentShares(m_state, m_priors), fold, m_settings.seed)});
    if (m_priors.kind == topic::DocumentPrior::Gamma) {
      result.matrices.push_back({kGammaShape, m_priors.shape.transpose()});
      result.matrices.push_back({kGammaRate, m_priors.rate.transpose()});
    } else {
      result.matrices.push_back({topic::kAlpha, m_priors.shape.transpose()});
    }
    result.tokenTopics = tokenComponents(*m_data.corpus, m_counts, m_entryStart, m_state.split);
    result.finalMetrics["beta"] = m_priors.beta;
    result.finalMetrics["topic_word_samples"] = m_topicSamples;  // sweeps averaged into topic_word
    if (result.status != FitStatus::Cancelled) {
      topic::addFinalHeldoutMetrics(result.finalMetrics, m_data, topics, fold, m_settings.seed);
      if (m_priors.questions && m_data.heldout && !m_data.heldout->empty()) {
        const LogPredictive predictive = [&](std::span<const std::int32_t> words, std::uint64_t seed) {
          Eigen::VectorXd theta(topics.rows());
          fold(words, seed, theta);
          return Eigen::VectorXd((topics.transpose() * theta).array().log());
        };
        addResponseScores(result.finalMetrics, scoreResponses(*m_data.heldout, *m_data.corpus, *m_priors.questions,
                                                              predictive, m_settings.seed));
      }
    }
  }

 private:
  // The average so far within the averaging stretch, else the last sample's posterior mean.
  Eigen::MatrixXd currentTopics() const {
    if (m_topicSamples > 0) return m_topicSum / static_cast<double>(m_topicSamples);
    return topic::posteriorTopics(m_state, m_priors.beta, m_priors.questions);
  }

  // As stored for the topic views, whose rows sum to one: the URP's profiles (a distribution per
  // question) divided by the number of questions.
  Eigen::MatrixXd stored(const Eigen::MatrixXd& topics) const {
    if (!m_priors.questions) return topics;
    return topics / static_cast<double>(m_priors.questions->count());
  }

  // A held-out document's shares with the topics fixed: LDA's collapsed fold-in for mPCA (the
  // same model), GaP's with its Gamma scores integrated out.
  FoldIn foldIn(const Eigen::MatrixXd& topics) const {
    if (m_priors.kind == topic::DocumentPrior::Gamma)
      return topic::gammaPoissonFoldIn(topics, m_priors.shape, m_priors.rate);
    return gibbsFoldIn(topics, m_priors.shape);
  }

  const FitData& m_data;
  const FitSettings& m_settings;
  const DiscreteComponentOptions& m_options;
  std::stop_token m_stop;
  topic::DocWordCounts m_counts;
  std::vector<std::int64_t> m_entryStart;
  std::optional<ResponseGroups> m_questions;
  topic::ComponentPriors m_priors;
  std::int64_t m_averageFrom;
  topic::ComponentSample m_state, m_next;
  Eigen::MatrixXd m_topicSum;
  std::int64_t m_topicSamples = 0;
};

template <ModelInfo (*Info)(), topic::DocumentPrior Kind, bool Responses = false>
class DiscreteComponentModel final : public DescribedModel<Info> {
 public:
  FitResult fit(const FitData& data, const FitSettings& settings, TrainingObserver& observer,
                std::stop_token stop) override {
    const Stopwatch clock;
    const auto& table = Kind == topic::DocumentPrior::Gamma ? DiscreteComponentOptions::gapTable()
                                                            : DiscreteComponentOptions::mpcaTable();
    const auto options = table.parse(settings.options, this->info().name);
    DiscreteComponentChain chain(data, settings, options, Kind, Responses, stop);
    return driveChain(chain, chain.schedule(), settings, observer, stop, clock, stop.stop_requested());
  }
};

// The options both models share, around the prior(s) on the document factors.
template <typename AddPrior>
OptionTable<DiscreteComponentOptions> componentTable(AddPrior&& addPrior) {
  OptionTable<DiscreteComponentOptions> t;
  t.add(topic::topicsOption(), &DiscreteComponentOptions::topics)
      .add(topic::iterationsOption("Sweeps; each splits every count over the components, then draws every "
                                   "document's factor and every component's words. Several hundred are usual."),
           &DiscreteComponentOptions::iterations);
  addPrior(t);
  t.add(topic::betaOption(), &DiscreteComponentOptions::beta)
      .add(integerOption("optimize_every", 0, 1e7,
                         "Re-estimate the priors (on the documents' factors, one per component, and beta; urp keeps "
                         "beta) from the sample every N sweeps; 0 keeps them fixed."),
           &DiscreteComponentOptions::optimizeEvery)
      .add(integerOption("optimize_burn_in", 0, 1e7,
                         "Sweeps before the priors are first re-estimated, so the components have formed."),
           &DiscreteComponentOptions::optimizeBurnIn)
      .add(topic::snapshotEveryOption(), &DiscreteComponentOptions::snapshotEvery);
  return t;
}

}  // namespace

const OptionTable<DiscreteComponentOptions>& DiscreteComponentOptions::mpcaTable() {
  static const auto table = componentTable([](OptionTable<DiscreteComponentOptions>& t) {
    t.add(topic::alphaOption(), &DiscreteComponentOptions::documentPrior);
  });
  return table;
}

const OptionTable<DiscreteComponentOptions>& DiscreteComponentOptions::gapTable() {
  static const auto table = componentTable([](OptionTable<DiscreteComponentOptions>& t) {
    t.add(realOption("shape", 0.0, kNoMaximum, true,
                     "Shape a of each component's Gamma prior on a document's score: below 1, most documents use "
                     "few components."),
          &DiscreteComponentOptions::documentPrior)
        .add(realOption("rate", 0.0, kNoMaximum, false,
                        "Rate b of each Gamma prior (its mean is a / b tokens); 0 sets it so that a document's "
                        "expected length, K a / b, is the corpus's mean length."),
             &DiscreteComponentOptions::rate);
  });
  return table;
}

ModelDefinition mpcaModel() {
  return defineModel<DiscreteComponentModel<&mpcaInfo, topic::DocumentPrior::Dirichlet>>();
}
ModelDefinition urpModel() {
  return defineModel<DiscreteComponentModel<&urpInfo, topic::DocumentPrior::Dirichlet, true>>();
}
ModelDefinition gapModel() { return defineModel<DiscreteComponentModel<&gapInfo, topic::DocumentPrior::Gamma>>(); }

}  // namespace latent::core
