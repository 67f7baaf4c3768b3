// SPDX-License-Identifier: GPL-3.0-or-later
// LDA-HMM: options, the chain under the fit driver (sweeps, reports, snapshots, stop), the held-out
// metrics and the results for the topic views and the reader. References: 000 §27.4.3 (eq.
// 27.61-27.64, Fig. 27.13-27.14, Table 27.1); Griffiths, Steyvers, Blei & Tenenbaum 2005.
//
// Parallelism: documents are swept in parts, each against its own copy of the shared counts,
// merged after every sweep (AD-LDA; lda_hmm_sampler.hpp). One part (the command line's default of
// one thread) is the exact collapsed sampler of the paper; the numbers depend on the seed and the
// number of parts (option partitions), never on the number of threads.
#include "core/models/topic/lda_hmm.hpp"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <limits>
#include <memory>

#include "core/models/fit_driver.hpp"
#include "core/models/topic/lda_hmm_heldout.hpp"
#include "core/models/topic/lda_hmm_sampler.hpp"
#include "core/models/topic/topic_model_support.hpp"
#include "core/util/clock.hpp"
#include "core/util/random.hpp"

namespace latent::core {
namespace {

constexpr std::uint64_t kLdaHmmRestartStream = 0x4C4441484D4D5253ULL;  // "LDAHMMRS"

constexpr const char* kLdaHmmEstimator =
    "theta folded in from the observed half in place in the word sequence (Gibbs over the classes with the "
    "parameters fixed), the scored half's probability given the observed half summed over the class chain by the "
    "forward algorithm";

ResourceNeeds ldaHmmNeeds(const FitData& data, const nlohmann::json& options) {
  const auto K = options.at("k").get<std::uint64_t>();
  const auto C = options.at("classes").get<std::uint64_t>();
  const auto P = std::max<std::uint64_t>(1, options.at("partitions").get<std::uint64_t>());
  const auto V = static_cast<std::uint64_t>(data.corpus->vocabularySize());
  const auto D = static_cast<std::uint64_t>(data.fullDocumentCount);
  const auto N = static_cast<std::uint64_t>(data.corpus->tokenCount());
  // The counts and a copy per part; n_dk; per token its topic, class and two content probabilities;
  // the estimates (a sample, their running sums, the result) of topics and classes.
  return ResourceNeeds{V * (K + C) * 4 * (P + 1) + D * K * 12 + N * 13 + (K + C) * V * 8 * 3,
                       std::max({K * V, C * V, D * K}) * 8};
}

ModelInfo ldaHmmInfo() {
  ModelInfo info;
  info.name = "lda-hmm";
  info.kind = DataKind::Corpus;
  info.family = ResultFamily::Topics;
  info.title = "LDA-HMM (topics and syntax, collapsed Gibbs)";
  info.description =
      "A hidden Markov chain of syntactic classes runs along each document's words: one class draws its word from "
      "the document's topics (LDA), every other class from its own list of words, so function words such as 'the' "
      "and 'of' gather in the classes and the topics keep the content words. It needs the function words: import "
      "the corpus with --stopwords none (and no --max-df), or it has little to model the classes with.";
  info.objectiveName =
      "log joint log p(W, C, Z of class-0 tokens | alpha, beta, delta, gamma) per token, the other tokens' topics "
      "integrated out (nats)";
  info.options = LdaHmmOptions::table().specs();
  info.needs = &ldaHmmNeeds;
  return info;
}

class LdaHmmChain final : public FitChain {
 public:
  LdaHmmChain(const FitData& data, const FitSettings& settings, const LdaHmmOptions& options,
              const topic::LdaHmmPriors& priors, std::stop_token stop)
      : m_data(data),
        m_settings(settings),
        m_stop(std::move(stop)),
        m_priors(priors),
        m_wordMoves(options.wordMoves),
        m_annealSweeps(options.annealSweeps),
        m_partitions(static_cast<int>(options.partitions > 0 ? options.partitions : std::max(1, settings.threads))),
        m_state(std::make_unique<topic::LdaHmmState>(*data.corpus, priors, m_partitions, settings.seed)),
        m_content(data.corpus->tokenCount(), 0.0F),
        // As lda-gibbs does: the estimates returned are averaged over the sweeps of the last fifth of
        // the chain, a better estimate of the posterior mean than one sample's, and so is each
        // token's probability of being a content word (Rao-Blackwellised: the conditional
        // p(c_i = 0 | rest) of each draw, not the 0/1 of the class drawn).
        m_averageFrom(options.iterations - std::max<std::int64_t>(1, options.iterations / 5) + 1) {}

  ChainSchedule schedule(const LdaHmmOptions& options) const { return {options.iterations, options.snapshotEvery}; }

  // Restarts: `starts` chains, each from its own random start (the first is the run's own), run
  // `sweeps` sweeps each; the one with the highest log joint then continues as the run's chain. A
  // chain can settle where the semantic class holds a function class's words (or almost nothing
  // while a syntactic class takes the content words), or where one class's words are split
  // between two classes by their context, and stay there for hundreds of sweeps. Off by default:
  // annealing avoided those states on the generated corpora of tests/models/tst_lda_hmm.cpp (see
  // LdaHmmOptions::table()). False when stopped.
  bool chooseStart(std::int64_t starts, std::int64_t sweeps, StartPhase& phase) {
    if (starts <= 1) return true;
    const double N = std::max<double>(1.0, static_cast<double>(m_data.corpus->tokenCount()));
    std::unique_ptr<topic::LdaHmmState> best;
    for (std::int64_t r = 0; r < starts; ++r) {
      auto state = r == 0 ? std::move(m_state)
                          : std::make_unique<topic::LdaHmmState>(
                                *m_data.corpus, m_priors, m_partitions,
                                Rng(m_settings.seed, kLdaHmmRestartStream + static_cast<std::uint64_t>(r)).next());
      for (std::int64_t sweep = 1; sweep <= sweeps; ++sweep) {
        IterationReport report;
        bool going = advance(*state, sweep, report);
        if (going && sweep == sweeps) {
          const double logJoint = state->logMarginalJoint();
          m_restartLogJoints.push_back(logJoint / N);
          report.extras.emplace_back("restart_log_joint_per_token", logJoint / N);
        }
        going = phase.swept(r + 1, sweep, sweeps, std::move(report)) && going;
        if (!going) {
          m_state = best ? std::move(best) : std::move(state);
          return false;
        }
      }
      if (phase.scored(r + 1, m_restartLogJoints.back())) {
        best = std::move(state);
        m_restartChosen = r + 1;
      }
    }
    m_state = std::move(best);
    m_sweepOffset = sweeps;  // the chain's sweeps draw from streams the starts' did not use
    return true;
  }

  bool step(const StepPlan& plan, IterationReport& report) override {
    if (!advance(*m_state, m_sweepOffset + plan.iteration, report)) return false;
    if (plan.iteration >= m_averageFrom) {
      if (m_samples == 0) {
        m_sum = current();
        m_contentSum = m_content;
      } else {
        const auto sample = current();
        m_sum.topicWord += sample.topicWord;
        m_sum.classWord += sample.classWord;
        m_sum.transitions += sample.transitions;
        m_sum.start += sample.start;
        for (std::size_t t = 0; t < m_content.size(); ++t) m_contentSum[t] += m_content[t];
      }
      ++m_samples;
    }
    const double N = static_cast<double>(m_state->tokenCount());
    m_lastLogJoint = m_state->logMarginalJoint();
    report.trainObjective = N > 0 ? m_lastLogJoint / N : std::numeric_limits<double>::quiet_NaN();
    if (plan.evaluate && m_data.heldout && !m_data.heldout->empty())
      report.heldout =
          topic::scoreLdaHmmHeldout(*m_data.heldout, estimates(), HeldoutProtocol::DocumentCompletion, m_settings.seed)
              .perplexity;
    report.extras.emplace_back("content_share", m_state->contentShare());
    return true;
  }

  std::vector<NamedMatrix> snapshot(const StepPlan&) override {
    auto p = estimates();
    return {{topic::kTopicWord, std::move(p.topicWord)},
            {topic::kClassWord, std::move(p.classWord)},
            {topic::kClassTransitions, std::move(p.transitions)}};
  }

  void finish(FitResult& result) override {
    const auto& priors = m_state->priors();
    const double N = static_cast<double>(m_state->tokenCount());
    auto parameters = estimates();

    // doc_topic in corpus order: training documents from their class-0 tokens' topics, held-out
    // ones folded in from all their words.
    Eigen::MatrixXd theta = m_state->documentTopics();
    if (!m_data.trainDocuments.empty()) {
      Eigen::MatrixXd full = Eigen::MatrixXd::Zero(m_data.fullDocumentCount, priors.topics);
      for (std::size_t d = 0; d < m_data.trainDocuments.size(); ++d)
        full.row(m_data.trainDocuments[d]) = theta.row(static_cast<Eigen::Index>(d));
      if (m_data.heldout && !m_data.heldout->empty()) {
        const Eigen::MatrixXd folded = topic::foldInHeldoutDocuments(*m_data.heldout, parameters, m_settings.seed);
        for (std::size_t i = 0; i < m_data.heldout->size(); ++i)
          full.row(m_data.heldout->documents[i]) = folded.row(static_cast<Eigen::Index>(i));
      }
      theta = std::move(full);
    }

    auto& metrics = result.finalMetrics;
    if (std::isfinite(m_lastLogJoint)) {
      metrics["log_joint"] = m_lastLogJoint;
      metrics["train_objective"] = m_lastLogJoint / N;
    }
    metrics["classes"] = priors.classes;
    metrics["content_share"] = m_state->contentShare();
    metrics["topic_word_samples"] = m_samples;  // sweeps averaged into the estimates
    metrics["partitions"] = static_cast<std::int64_t>(m_state->partitions());
    metrics["train_tokens"] = m_state->tokenCount();
    metrics["sampling_seconds"] = m_samplingSeconds;
    metrics["sampling_cpu_seconds"] = m_samplingCpuSeconds;
    if (m_samplingSeconds > 0) metrics["tokens_per_second"] = N * static_cast<double>(m_sweeps) / m_samplingSeconds;
    metrics["sampler_memory_bytes"] = static_cast<std::int64_t>(m_state->memoryBytes());
    if (!m_restartLogJoints.empty()) {
      metrics["restart_log_joints_per_token"] = m_restartLogJoints;
      metrics["restart_chosen"] = m_restartChosen;
    }
    metrics["stop_words_found"] = ldaHmmProbeWordsFound(m_data.corpus->words);
    if (result.status != FitStatus::Cancelled && m_data.heldout && !m_data.heldout->empty()) {
      topic::addHeldoutScores(
          metrics,
          topic::scoreLdaHmmHeldout(*m_data.heldout, parameters, HeldoutProtocol::DocumentCompletion, m_settings.seed),
          topic::scoreLdaHmmHeldout(*m_data.heldout, parameters, HeldoutProtocol::FullFoldingIn, m_settings.seed));
      metrics["heldout_estimator"] = kLdaHmmEstimator;
    }

    result.matrices.push_back({topic::kTopicWord, std::move(parameters.topicWord)});
    result.matrices.push_back({topic::kDocTopic, std::move(theta)});
    result.matrices.push_back({topic::kAlpha, Eigen::MatrixXd::Constant(1, priors.topics, priors.alpha)});
    result.matrices.push_back({topic::kClassWord, std::move(parameters.classWord)});
    result.matrices.push_back({topic::kClassTransitions, std::move(parameters.transitions)});
    result.matrices.push_back({topic::kClassStart, parameters.start.transpose()});
    result.tokenTopics = m_state->tokenTopics();
    result.tokenValues.push_back({topic::kTokenClass, m_state->tokenClasses()});
    result.tokenValues.push_back({topic::kTokenContentProbability, contentProbabilities()});
  }

 private:
  // One sweep of `state` and, with word_moves, the swaps of word types after it; false when stopped.
  bool advance(topic::LdaHmmState& state, std::int64_t sweep, IterationReport& report) {
    const Stopwatch clock;
    const std::clock_t cpuBefore = std::clock();
    // Annealing over the first anneal_sweeps sweeps of each start: T = 2, then 4/3, then 1.
    state.setClassHeat(sweep <= m_annealSweeps / 2 ? 0.5 : sweep <= m_annealSweeps ? 0.75 : 1.0);
    bool complete = state.sweep(sweep, m_content, m_stop);
    if (complete && m_wordMoves) {
      const auto accepted = state.swapWordClasses(sweep, m_stop);
      complete = !m_stop.stop_requested();
      report.extras.emplace_back("word_swaps", static_cast<double>(accepted));
    }
    m_samplingSeconds += clock.seconds();
    m_samplingCpuSeconds += static_cast<double>(std::clock() - cpuBefore) / CLOCKS_PER_SEC;
    if (complete) ++m_sweeps;  // the starts' sweeps too: tokens_per_second divides by all the time
    return complete;
  }

  // The estimates of one sample, or the average of those taken.
  topic::LdaHmmParameters current() const {
    return {m_state->topicWord(), m_state->classWord(), m_state->transitions(), m_state->start(),
            m_state->priors().alpha};
  }

  topic::LdaHmmParameters estimates() const {
    if (m_samples == 0) return current();
    topic::LdaHmmParameters p = m_sum;
    // Rows of an average of distributions sum to one up to rounding; make it exact.
    p.topicWord.array().colwise() /= p.topicWord.rowwise().sum().array();
    p.classWord.array().colwise() /= p.classWord.rowwise().sum().array();
    p.transitions.array().colwise() /= p.transitions.rowwise().sum().array();
    p.start /= p.start.sum();
    return p;
  }

  // Per document, each token's p(class 0 | rest): averaged over the samples taken, else the last
  // sweep's conditional.
  std::vector<std::vector<float>> contentProbabilities() const {
    const Corpus& corpus = *m_data.corpus;
    std::vector<std::vector<float>> out(corpus.documentCount());
    const float scale = m_samples > 0 ? 1.0F / static_cast<float>(m_samples) : 1.0F;
    const auto& source = m_samples > 0 ? m_contentSum : m_content;
    for (std::size_t d = 0; d < out.size(); ++d)
      for (auto t = corpus.offsets[d]; t < corpus.offsets[d + 1]; ++t)
        out[d].push_back(source[static_cast<std::size_t>(t)] * scale);
    return out;
  }

  const FitData& m_data;
  const FitSettings& m_settings;
  std::stop_token m_stop;
  topic::LdaHmmPriors m_priors;
  bool m_wordMoves;
  std::int64_t m_annealSweeps;
  int m_partitions;
  std::unique_ptr<topic::LdaHmmState> m_state;
  std::int64_t m_sweepOffset = 0;
  std::vector<double> m_restartLogJoints;  // per token, each start's after its sweeps
  std::int64_t m_restartChosen = 1;
  std::vector<float> m_content, m_contentSum;
  std::int64_t m_averageFrom;
  topic::LdaHmmParameters m_sum;
  std::int64_t m_samples = 0;
  std::int64_t m_sweeps = 0;
  double m_samplingSeconds = 0.0;
  double m_samplingCpuSeconds = 0.0;
  double m_lastLogJoint = std::numeric_limits<double>::quiet_NaN();
};

class LdaHmmModel final : public DescribedModel<&ldaHmmInfo> {
 public:
  FitResult fit(const FitData& data, const FitSettings& settings, TrainingObserver& observer,
                std::stop_token stop) override {
    const Stopwatch clock;
    const auto options = LdaHmmOptions::table().parse(settings.options, info().name);
    topic::LdaHmmPriors priors;
    priors.topics = static_cast<int>(options.topics);
    priors.classes = static_cast<int>(options.classes);
    priors.alpha = options.alpha;
    priors.beta = options.beta;
    priors.delta = options.delta;
    priors.gamma = options.gamma;
    LdaHmmChain chain(data, settings, options, priors, stop);
    StartPhase starts(FitPhase::Restarts, settings, observer, stop, clock);
    const bool cancelled = stop.stop_requested() || !chain.chooseStart(options.restarts, options.restartSweeps, starts);
    FitResult result = driveChain(chain, chain.schedule(options), settings, observer, stop, clock, cancelled);
    if (options.restarts > 1) result.finalMetrics["restart_sweeps"] = options.restartSweeps;
    if (result.message.empty()) result.message = ldaHmmStopWordWarning(data.corpus->words);
    return result;
  }
};

}  // namespace

std::int64_t ldaHmmProbeWordsFound(const std::vector<std::string>& vocabulary) {
  std::int64_t found = 0;
  for (const auto& probe : ldaHmmProbeWords())
    if (std::find(vocabulary.begin(), vocabulary.end(), probe) != vocabulary.end()) ++found;
  return found;
}

std::string ldaHmmStopWordWarning(const std::vector<std::string>& vocabulary) {
  if (ldaHmmProbeWordsFound(vocabulary) > 0) return {};
  return "warning: none of the words the, of, and, to, a, in is in the vocabulary: the corpus looks stripped of "
         "stop words, which lda-hmm's syntactic classes are made of; for an English corpus, import it again with "
         "--stopwords none (and without --max-df)";
}

// Why the defaults are what they are. C = 20 classes (the semantic one included), as the paper's
// 20 (000 §27.4.3, Table 27.1): on the State of the Union addresses with their stop words (1.9
// million tokens, K = 20, 10% held out, seed 1), C = 20 gave a held-out perplexity of 222 where
// C = 10 gave 287 (lda-gibbs 572), with classes that split the function words as the table's do
// (determiners, prepositions, modals, auxiliaries, pronouns, participles) where C = 10 left the
// common adjectives in the topics; each sweep cost about 1.3 times as much. K = 20 topics: fewer
// than the paper's 200 (Brown and TASA, 13 million tokens, 000 §27.4.3 footnote 4), for corpora the
// size of that sample, and what the other topic models default to, so that their perplexities
// compare at the same K. alpha 0.1 and beta 0.01: lda-gibbs's, for the same reason (the
// document-topic and topic-word priors play the same part). delta 0.01 on the classes' words: a
// function-word class puts most of its mass on a few words, like a topic. gamma 0.1 on the
// transitions: C gamma = 2 pseudo-counts per row, next to thousands of transitions, leaves the rows
// to the data while keeping every transition possible. 500 sweeps, as lda-gibbs: on that corpus
// the held-out perplexity still fell by about 1% between sweeps 400 and 500.
//
// The chain's start (measured on corpora drawn from a known LDA-HMM with 3 topics and 3 function
// classes, 16,000 tokens each, 300 sweeps, as in tests/models/tst_lda_hmm.cpp; "recovered": every
// class's words within a TV distance of 0.05 of the truth). One plain chain from a random start
// recovered 5 of 12 corpora; with the word swaps (word_moves), 10 of 12: in one the semantic class
// had taken a function class's words, in the other a function class's words were split between two
// classes by their context, and 4 of 8 chains on another corpus split a class so. With the swaps
// and the first 50 sweeps annealed, one chain recovered 15 of 16 corpora (the 16th at 0.099) and
// 6 of 6 chains on each of the two corpora above. A sweep at temperature T draws the classes from
// the conditional to the power 1/T; 2 and 4/3 take square roots, cheap next to pow. Starting from
// the tokens drawn in turn given those before them (as the fold-in does) was worse than the random
// start: it merged classes early.
const OptionTable<LdaHmmOptions>& LdaHmmOptions::table() {
  static const auto table = [] {
    OptionTable<LdaHmmOptions> t;
    t.add(topic::topicsOption(), &LdaHmmOptions::topics)
        .add(integerOption("classes", 2, 100,
                           "Number of syntactic classes, the semantic class (the one that draws from the topics) "
                           "included: the others gather the function words by the part they play."),
             &LdaHmmOptions::classes)
        .add(topic::iterationsOption("Sweeps over every word, each drawing its topic and class; the classes settle "
                                     "within a few hundred."),
             &LdaHmmOptions::iterations)
        .add(topic::alphaOption(), &LdaHmmOptions::alpha)
        .add(topic::betaOption(), &LdaHmmOptions::beta)
        .add(realOption("delta", 0.0, kNoMaximum, true,
                        "Prior on each syntactic class's words: small values make a class use few words."),
             &LdaHmmOptions::delta)
        .add(realOption("gamma", 0.0, kNoMaximum, true,
                        "Prior on each row of class transitions: small values make each class followed by few "
                        "others."),
             &LdaHmmOptions::gamma)
        .add(restartsOption("Independent random starts, each run for restart_sweeps sweeps; the one with the highest "
                            "log joint continues. A start can settle with the semantic class holding function words or "
                            "almost nothing; 1 = a single chain."),
             &LdaHmmOptions::restarts)
        .add(integerOption("restart_sweeps", 1, 1e6,
                           "Sweeps of each start before they are compared (with restarts above 1)."),
             &LdaHmmOptions::restartSweeps)
        .add(integerOption("anneal_sweeps", 0, 1e6,
                           "Sweeps at the start of each chain that draw the classes from a flattened conditional (the "
                           "first half at temperature 2, the second at 4/3), so that words can still change class "
                           "before the chain settles; 0 = none. The topics and classes are averaged over the last "
                           "fifth of the iterations, after them when iterations is at least about 1.25 times this."),
             &LdaHmmOptions::annealSweeps)
        .add(booleanOption("word_moves",
                           "After each sweep, try for every word moving its tokens between two classes at once "
                           "(accepted by Metropolis-Hastings): a frequent word can otherwise stay for hundreds of "
                           "sweeps in the class it first fell into."),
             &LdaHmmOptions::wordMoves)
        .add(integerOption("partitions", 0, 4096,
                           "Parts the documents are split into and sampled in parallel, each against its own copy "
                           "of the counts merged after every sweep; 1 is the exact sampler, 0 = one per thread. The "
                           "same number gives the same result on any number of threads."),
             &LdaHmmOptions::partitions)
        .add(topic::snapshotEveryOption(), &LdaHmmOptions::snapshotEvery);
    return t;
  }();
  return table;
}

ModelDefinition ldaHmmModel() { return defineModel<LdaHmmModel>(); }

}  // namespace latent::core
