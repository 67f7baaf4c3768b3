// SPDX-License-Identifier: GPL-3.0-or-later
// LDA-HMM (000 §27.4.3): the sampler's conditional against the collapsed joint (the transition
// counts' corrections included), the forward algorithm against enumeration, the held-out halves
// put back in order, recovery of a known model (classes, topics, transitions), held-out
// perplexity against lda-gibbs and the true model, determinism, stops, the stop-word warning, and
// the run end to end through the project.
#include <QtTest>

#include <tbb/task_arena.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

#include "core/data/synthetic_lda_hmm.hpp"
#include "core/eval/heldout.hpp"
#include "core/eval/topic_matching.hpp"
#include "core/io/run_export.hpp"
#include "core/jobs/fit_job.hpp"
#include "core/models/fit_data.hpp"
#include "core/models/topic/lda_gibbs.hpp"
#include "core/models/topic/lda_hmm.hpp"
#include "core/models/topic/lda_hmm_heldout.hpp"
#include "core/models/topic/lda_hmm_sampler.hpp"
#include "core/results/topic_results.hpp"
#include "core/store/run_results.hpp"
#include "core/store/run_store.hpp"
#include "core/util/errors.hpp"
#include "core/util/random.hpp"
#include "lda_gibbs_test_support.hpp"
#include "result_matrix.hpp"
#include "test_case.hpp"
#include "test_datasets.hpp"
#include "test_support.hpp"

using namespace latent;

namespace {

class HmmObserver final : public core::TrainingObserver {
 public:
  bool onReport(const core::IterationReport& r) override {
    reports.push_back(r);
    if (stopAt > 0 && r.iteration == stopAt) source.request_stop();
    return true;
  }
  std::vector<core::IterationReport> reports;
  std::int64_t stopAt = 0;
  std::stop_source source;
};

// Four classes: the semantic one (0) and three "function" classes; 1 behaves like a determiner
// (followed by content words), 2 like a preposition (followed by 1), 3 like a verb.
Eigen::MatrixXd hmmTrueTransitions() {
  Eigen::MatrixXd a(4, 4);
  a << 0.25, 0.05, 0.45, 0.25,  //
      0.90, 0.02, 0.04, 0.04,   //
      0.10, 0.80, 0.05, 0.05,   //
      0.30, 0.50, 0.15, 0.05;
  return a;
}

constexpr int kHmmFunctionWords = 6;

core::SyntheticLdaHmm hmmTruth(std::uint64_t seed, int documents = 200, int length = 80) {
  core::SyntheticLdaHmmSpec spec;
  spec.topics = 3;
  spec.contentWords = 120;
  spec.functionWordsPerClass = kHmmFunctionWords;
  spec.documents = documents;
  spec.meanLength = length;
  spec.alpha = 0.2;
  spec.beta = 0.05;
  spec.delta = 1.0;
  spec.transitions = hmmTrueTransitions();
  spec.seed = seed;
  return core::generateLdaHmmCorpus(spec);
}

core::FitResult fitHmmModel(const core::ModelDefinition& model, const core::FitData& data,
                            const nlohmann::json& options, core::TrainingObserver& observer, std::uint64_t seed = 1,
                            std::stop_token stop = {}) {
  core::FitSettings settings;
  settings.options = core::resolveOptions(model.info(), options);
  settings.seed = seed;
  settings.evalEvery = 50;
  return model.make()->fit(data, settings, observer, stop);
}

core::FitData hmmWholeCorpus(const core::Corpus& corpus) {
  core::FitData data;
  data.corpus = &corpus;
  data.fullDocumentCount = static_cast<std::int64_t>(corpus.documentCount());
  return data;
}

const std::vector<float>& hmmLayer(const core::FitResult& result, const std::string& name, std::size_t d) {
  for (const auto& layer : result.tokenValues)
    if (layer.name == name) return layer.documents.at(d);
  throw std::runtime_error("the fit returned no per-token layer " + name);
}

// The fitted syntactic class matched to each true one (1..C-1) by the total-variation distance of
// their word distributions (Hungarian method); out[0] = 0, the semantic class.
std::vector<int> hmmMatchClasses(const Eigen::MatrixXd& fitted, const Eigen::MatrixXd& truth, double& meanTv,
                                 double& maxTv) {
  const auto C = truth.rows();
  Eigen::MatrixXd cost(C - 1, C - 1);
  for (Eigen::Index t = 1; t < C; ++t)
    for (Eigen::Index f = 1; f < C; ++f)
      cost(t - 1, f - 1) = core::totalVariation(truth.row(t).transpose(), fitted.row(f).transpose());
  const auto assignment = core::minimumCostAssignment(cost);
  std::vector<int> out(static_cast<std::size_t>(C), 0);
  meanTv = maxTv = 0.0;
  for (Eigen::Index t = 1; t < C; ++t) {
    out[static_cast<std::size_t>(t)] = assignment[static_cast<std::size_t>(t - 1)] + 1;
    const double tv = cost(t - 1, assignment[static_cast<std::size_t>(t - 1)]);
    meanTv += tv / static_cast<double>(C - 1);
    maxTv = std::max(maxTv, tv);
  }
  return out;
}

}  // namespace

class LdaHmmTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  // The conditional a sweep draws (topic, class) from is the collapsed joint's ratio: p(z_t = k,
  // c_t = c | rest) ~ p(W, Z, C) with token t set to (k, c), for every token of a small corpus,
  // including tokens whose neighbours share their class (the +1 corrections of Griffiths et al.).
  void conditionalIsTheJointsRatio() {
    const auto corpus = test::corpusFromIds(5, {{0, 1, 2, 3, 4, 1}, {2, 2, 3, 0, 1}, {4, 3, 2, 1, 0, 0, 1}});
    core::topic::LdaHmmPriors priors;
    priors.topics = 2;
    priors.classes = 3;
    priors.alpha = 0.3;
    priors.beta = 0.4;
    priors.delta = 0.6;
    priors.gamma = 0.7;
    core::topic::LdaHmmState state(corpus, priors, 1, 3);
    // Runs of one class, so that c_{t-1} = c_t = c_{t+1} occurs for some tokens and classes.
    for (std::size_t t = 0; t < 4; ++t) state.setAssignment(t, static_cast<int>(t % 2), 1);
    for (std::size_t t = 12; t < 15; ++t) state.setAssignment(t, 1, 2);
    double worst = 0.0;
    for (std::size_t t = 0; t < corpus.tokenCount(); ++t) {
      const Eigen::MatrixXd conditional = state.conditional(t);
      const int z = state.topicOf(t), c = state.classOf(t);
      Eigen::MatrixXd logJoint(3, 2);
      for (int cc = 0; cc < 3; ++cc)
        for (int k = 0; k < 2; ++k) {
          state.setAssignment(t, k, cc);
          logJoint(cc, k) = state.logJoint();
        }
      state.setAssignment(t, z, c);
      const Eigen::MatrixXd exact = (logJoint.array() - logJoint.maxCoeff()).exp().matrix();
      worst = std::max(worst, (conditional - exact / exact.sum()).cwiseAbs().maxCoeff());
      QVERIFY(std::abs(conditional.sum() - 1.0) < 1e-12);
    }
    qInfo("largest difference from the joint's ratio: %.3g", worst);
    QVERIFY(worst < 1e-10);
    // The joint with the topics of tokens outside class 0 integrated out is the full one when
    // every token is in class 0.
    QVERIFY(state.logMarginalJoint() > state.logJoint());
    for (std::size_t t = 0; t < corpus.tokenCount(); ++t) state.setAssignment(t, state.topicOf(t), 0);
    QVERIFY(std::abs(state.logMarginalJoint() - state.logJoint()) < 1e-9);

    // A sweep draws the first token from that conditional: its content probability is p(c = 0).
    const double before = state.conditional(0).row(0).sum();
    std::vector<float> content(corpus.tokenCount());
    QVERIFY(state.sweep(1, content, {}));
    QVERIFY(std::abs(content[0] - before) < 1e-6);
  }

  // The swap of a word's tokens between two classes is accepted by the joint's ratio: the ratio it
  // computes from the counts it changes is the change of the whole log joint, for pairs with and
  // without the semantic class and words with adjacent tokens; and sweeps in parts, stops and
  // swaps leave the counts those of the assignments.
  void wordSwapsScoreByTheJoint() {
    const auto corpus = test::corpusFromIds(4, {{0, 1, 1, 2, 3, 1, 1}, {2, 1, 0, 1, 3}, {1, 1, 1, 0, 2, 2, 3, 1}});
    core::topic::LdaHmmPriors priors;
    priors.topics = 2;
    priors.classes = 3;
    priors.alpha = 0.3;
    priors.beta = 0.4;
    priors.delta = 0.6;
    priors.gamma = 0.7;
    core::topic::LdaHmmState state(corpus, priors, 1, 4);
    QVERIFY(state.countsMatchAssignments());
    double worst = 0.0;
    for (std::size_t w = 0; w < 4; ++w)
      for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b) {
          if (a == b) continue;
          const double before = state.logJoint();
          const double predicted = state.swapLogRatio(w, a, b);
          state.swapClasses(w, a, b);
          QVERIFY2(state.countsMatchAssignments(), qPrintable(QString("w %1 a %2 b %3").arg(w).arg(a).arg(b)));
          worst = std::max(worst, std::abs(state.logJoint() - before - predicted));
        }
    qInfo("largest difference between a swap's ratio and the joint's change: %.3g", worst);
    QVERIFY(worst < 1e-9);

    const auto truth = hmmTruth(16, 30, 30);
    core::topic::LdaHmmState parts(truth.corpus, priors, 3, 5);
    std::vector<float> content(truth.corpus.tokenCount());
    std::int64_t accepted = 0;
    for (int sweep = 1; sweep <= 5; ++sweep) {
      QVERIFY(parts.sweep(sweep, content, {}));
      accepted += parts.swapWordClasses(sweep, {});
      QVERIFY(parts.countsMatchAssignments());
    }
    std::stop_source stop;
    stop.request_stop();
    QVERIFY(!parts.sweep(6, content, stop.get_token()));
    QVERIFY(parts.countsMatchAssignments());
    qInfo("swaps accepted in 5 sweeps: %lld", static_cast<long long>(accepted));
    QVERIFY(accepted > 0);
  }

  // log p(target | given, theta) by the forward algorithm equals the ratio of sums over all C^n
  // class paths.
  void forwardAlgorithmMatchesEnumeration() {
    core::Rng rng(8);
    const int C = 3, K = 2, V = 5, n = 6;
    const auto randomRows = [&](int rows, int cols) {
      Eigen::MatrixXd m(rows, cols);
      for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c) m(r, c) = 0.1 + rng.uniform();
        m.row(r) /= m.row(r).sum();
      }
      return m;
    };
    core::topic::LdaHmmParameters p;
    p.topicWord = randomRows(K, V);
    p.classWord = randomRows(C, V);
    p.transitions = randomRows(C, C);
    p.start = randomRows(1, C).transpose();
    Eigen::VectorXd theta(K);
    theta << 0.3, 0.7;
    core::topic::LdaHmmSequence sequence;
    sequence.words = {0, 3, 1, 4, 2, 3};
    sequence.given = {1, 0, 1, 1, 0, 0};
    sequence.target = {0, 1, 0, 0, 1, 1};
    const auto emission = [&](int c, int w) { return c == 0 ? theta.dot(p.topicWord.col(w)) : p.classWord(c, w); };
    double withTargets = 0.0, givenOnly = 0.0;
    std::vector<int> path(n, 0);
    for (int code = 0; code < 729; ++code) {
      for (int i = 0, rest = code; i < n; ++i, rest /= C) path[static_cast<std::size_t>(i)] = rest % C;
      double prior = p.start[path[0]];
      for (int i = 1; i < n; ++i) prior *= p.transitions(path[i - 1], path[i]);
      double both = prior, given = prior;
      for (int i = 0; i < n; ++i) {
        const double e = emission(path[i], sequence.words[i]);
        if (sequence.given[i]) {
          both *= e;
          given *= e;
        } else if (sequence.target[i]) {
          both *= e;
        }
      }
      withTargets += both;
      givenOnly += given;
    }
    const double exact = std::log(withTargets / givenOnly);
    const double forward = core::topic::logPredictiveSequence(p, sequence, theta);
    qInfo("forward %.12f, enumeration %.12f", forward, exact);
    QVERIFY(std::abs(forward - exact) < 1e-12);
    // Every word given and scored (full folding-in): log p(all words | theta).
    std::fill(sequence.given.begin(), sequence.given.end(), 1);
    std::fill(sequence.target.begin(), sequence.target.end(), 1);
    double all = 0.0;
    for (int code = 0; code < 729; ++code) {
      for (int i = 0, rest = code; i < n; ++i, rest /= C) path[static_cast<std::size_t>(i)] = rest % C;
      double probability = p.start[path[0]] * emission(path[0], sequence.words[0]);
      for (int i = 1; i < n; ++i)
        probability *= p.transitions(path[i - 1], path[i]) * emission(path[i], sequence.words[i]);
      all += probability;
    }
    QVERIFY(std::abs(core::topic::logPredictiveSequence(p, sequence, theta) - std::log(all)) < 1e-12);
  }

  // The document-completion split keeps each held-out token's place: the halves' positions are a
  // permutation of the document's, pointing at the very words (the halves themselves are those
  // the tokens' shuffle gave before the positions were kept).
  void heldoutHalvesKeepTheirPlaces() {
    const auto truth = hmmTruth(3, 40, 30);
    const auto split = core::splitForDocumentCompletion(truth.corpus, 0.3, 9);
    const auto& h = split.heldout;
    QVERIFY(h.size() > 5);
    QCOMPARE(h.observedPositions.size(), h.observed.tokenCount());
    QCOMPARE(h.scoredPositions.size(), h.scored.tokenCount());
    core::topic::LdaHmmSequence sequence;
    for (std::size_t i = 0; i < h.size(); ++i) {
      const auto doc = truth.corpus.document(static_cast<std::size_t>(h.documents[i]));
      core::topic::heldoutSequence(h, i, core::HeldoutProtocol::DocumentCompletion, sequence);
      QVERIFY(std::equal(sequence.words.begin(), sequence.words.end(), doc.begin(), doc.end()));
      for (std::size_t t = 0; t < doc.size(); ++t) QVERIFY(sequence.given[t] + sequence.target[t] == 1);
      QCOMPARE(static_cast<std::size_t>(std::count(sequence.given.begin(), sequence.given.end(), 1)),
               h.observed.documentLength(i));
    }
  }

  // Fitted to data drawn from a known LDA-HMM, the model finds its function classes (each true
  // class's words in one fitted class), its topics and its transitions.
  void recoversClassesTopicsAndTransitions() {
    const auto truth = hmmTruth(11);
    const auto data = hmmWholeCorpus(truth.corpus);
    HmmObserver observer;
    const auto result =
        fitHmmModel(core::ldaHmmModel(), data, {{"k", 3}, {"classes", 4}, {"iterations", 300}}, observer, 5);
    QCOMPARE(result.status, core::FitStatus::MaxIterations);
    double classMean = 0.0, classMax = 0.0;
    const auto& classWord = test::resultMatrix(result, core::topic::kClassWord);
    const auto match = hmmMatchClasses(classWord, truth.classWord, classMean, classMax);
    const auto topics = core::matchTopics(test::resultMatrix(result, core::topic::kTopicWord), truth.topicWord);
    Eigen::MatrixXd transitions(4, 4);
    const auto& fitted = test::resultMatrix(result, core::topic::kClassTransitions);
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b) transitions(a, b) = fitted(match[a], match[b]);
    const double transitionError = (transitions - truth.transitions).cwiseAbs().maxCoeff();

    // Every token of a true function class's words in the fitted class matched to it, and the
    // semantic tokens in class 0.
    std::int64_t tokens = 0, agree = 0;
    for (std::size_t d = 0; d < truth.corpus.documentCount(); ++d) {
      const auto& classes = hmmLayer(result, core::topic::kTokenClass, d);
      for (std::size_t i = 0; i < classes.size(); ++i) {
        agree += static_cast<int>(classes[i]) == match[static_cast<std::size_t>(truth.classes[d][i])];
        ++tokens;
      }
    }
    const double accuracy = static_cast<double>(agree) / static_cast<double>(tokens);
    qInfo(
        "classes: mean TV %.4f, max TV %.4f; topics: mean TV %.4f, max TV %.4f; transitions: largest error %.4f; "
        "token classes right %.4f; content share %.3f",
        classMean, classMax, topics.meanTotalVariation, topics.maxTotalVariation, transitionError, accuracy,
        result.finalMetrics["content_share"].get<double>());
    // Bounds, from what this run reports (classes: max TV 0.017; topics 0.062; transitions 0.011;
    // tokens 99.8% right) with room for other seeds: about 16,000 tokens, 61% of them in the
    // three function classes (about 3,200 tokens each), whose words' frequencies a sample of that
    // size fixes within a TV of about 0.02; a topic's 120 words get about 2,000 tokens, a TV of
    // about 0.05 (the estimate's smoothing included); a row of transitions 3,000 to 6,000.
    QVERIFY(classMax < 0.08);
    QVERIFY(topics.maxTotalVariation < 0.2);
    QVERIFY(transitionError < 0.05);
    QVERIFY(accuracy > 0.97);
  }

  // Word order carries information: on held-out documents of the same split, lda-hmm predicts the
  // scored halves better than lda-gibbs with the same K, and close to the true model's parameters.
  void predictsHeldOutWordsBetterThanLda() {
    const auto truth = hmmTruth(12);
    core::PreparedData prepared(truth.corpus, 0.2, 4);
    const auto& data = prepared.data();
    HmmObserver hmmObserver, ldaObserver;
    const auto hmm =
        fitHmmModel(core::ldaHmmModel(), data, {{"k", 3}, {"classes", 4}, {"iterations", 300}}, hmmObserver, 4);
    const auto lda = fitHmmModel(core::ldaGibbsModel(), data, {{"k", 3}, {"iterations", 300}}, ldaObserver, 4);
    core::topic::LdaHmmParameters trueParameters{truth.topicWord, truth.classWord, truth.transitions, truth.start, 0.2};
    const auto best =
        core::topic::scoreLdaHmmHeldout(*data.heldout, trueParameters, core::HeldoutProtocol::DocumentCompletion, 4);
    const double hmmPerplexity = hmm.finalMetrics["heldout_perplexity"].get<double>();
    const double ldaPerplexity = lda.finalMetrics["heldout_perplexity"].get<double>();
    qInfo("held-out perplexity, document completion: lda-hmm %.3f, lda-gibbs %.3f, the true parameters %.3f",
          hmmPerplexity, ldaPerplexity, best.perplexity);
    QVERIFY(hmmPerplexity < 0.8 * ldaPerplexity);
    QVERIFY(hmmPerplexity < 1.05 * best.perplexity);
    // Full folding-in scores the whole sequence's joint probability, with theta fitted to it. Here
    // it is above document completion: a scored word's probability given its observed neighbours
    // is sharper than the chain's unconditioned, which outweighs the optimism of fitting theta to
    // the scored words (003's finding is about theta alone).
    const double full = hmm.finalMetrics["heldout_perplexity_full_folding_in"].get<double>();
    qInfo("full folding-in %.3f", full);
    QVERIFY(full > 1.0 && full < ldaPerplexity);
    QCOMPARE(hmm.finalMetrics["heldout_tokens"].get<std::int64_t>(),
             lda.finalMetrics["heldout_tokens"].get<std::int64_t>());
  }

  // Same seed and parts, same numbers on any number of threads; the parts are merged exactly.
  void sameResultOnAnyThreadCount() {
    const auto truth = hmmTruth(13, 60, 40);
    const auto data = hmmWholeCorpus(truth.corpus);
    std::vector<core::FitResult> results;
    for (const int threads : {1, 2, 2}) {
      tbb::task_arena arena(threads);
      HmmObserver observer;
      arena.execute([&] {
        results.push_back(fitHmmModel(core::ldaHmmModel(), data,
                                      {{"k", 3}, {"classes", 4}, {"iterations", 30}, {"partitions", 3}}, observer, 6));
      });
    }
    for (std::size_t r = 1; r < results.size(); ++r) {
      for (const char* name :
           {core::topic::kTopicWord, core::topic::kClassWord, core::topic::kClassTransitions, core::topic::kDocTopic})
        QVERIFY(test::resultMatrix(results[r], name) == test::resultMatrix(results[0], name));
      QVERIFY(results[r].tokenTopics == results[0].tokenTopics);
      for (std::size_t d = 0; d < truth.corpus.documentCount(); ++d)
        QVERIFY(hmmLayer(results[r], core::topic::kTokenContentProbability, d) ==
                hmmLayer(results[0], core::topic::kTokenContentProbability, d));
    }
    QCOMPARE(results[0].finalMetrics["partitions"].get<std::int64_t>(), std::int64_t{3});
    HmmObserver observer;
    const auto other = fitHmmModel(core::ldaHmmModel(), data,
                                   {{"k", 3}, {"classes", 4}, {"iterations", 30}, {"partitions", 3}}, observer, 7);
    QVERIFY(other.tokenTopics != results[0].tokenTopics);
  }

  // Restarts: every start reported in its phase, the best log joint chosen, the same numbers for
  // the same seed.
  void restartsKeepTheBestStart() {
    const auto truth = hmmTruth(17, 40, 30);
    const auto data = hmmWholeCorpus(truth.corpus);
    const nlohmann::json options = {
        {"k", 3}, {"classes", 4}, {"iterations", 20}, {"restarts", 3}, {"restart_sweeps", 6}};
    HmmObserver observer;
    const auto result = fitHmmModel(core::ldaHmmModel(), data, options, observer, 2);
    const auto scores = result.finalMetrics["restart_log_joints_per_token"].get<std::vector<double>>();
    QCOMPARE(scores.size(), std::size_t{3});
    const auto chosen = result.finalMetrics["restart_chosen"].get<std::size_t>();
    QCOMPARE(chosen, static_cast<std::size_t>(std::max_element(scores.begin(), scores.end()) - scores.begin()) + 1);
    const auto restartReports = std::count_if(observer.reports.begin(), observer.reports.end(),
                                              [](const core::IterationReport& r) { return !r.inChain(); });
    QCOMPARE(restartReports, std::ptrdiff_t{3});  // each start's last sweep (reports every 50 sweeps and at the last)
    QCOMPARE(result.iterations, std::int64_t{20});
    HmmObserver again;
    QVERIFY(fitHmmModel(core::ldaHmmModel(), data, options, again, 2).tokenTopics == result.tokenTopics);
  }

  // A stop before the start returns at once with consistent estimates; one from the observer ends
  // the run after that sweep.
  void stopsAtOnceAndAfterTheSweep() {
    const auto truth = hmmTruth(14, 40, 30);
    const auto data = hmmWholeCorpus(truth.corpus);
    {
      HmmObserver observer;
      std::stop_source stop;
      stop.request_stop();
      const auto result =
          fitHmmModel(core::ldaHmmModel(), data, {{"k", 3}, {"classes", 4}}, observer, 1, stop.get_token());
      QCOMPARE(result.status, core::FitStatus::Cancelled);
      QVERIFY(observer.reports.empty());
      const auto& phi = test::resultMatrix(result, core::topic::kTopicWord);
      for (int k = 0; k < 3; ++k) QVERIFY(std::abs(phi.row(k).sum() - 1.0) < 1e-12);
    }
    HmmObserver observer;
    observer.stopAt = 7;
    const auto result = fitHmmModel(core::ldaHmmModel(), data, {{"k", 3}, {"classes", 4}, {"iterations", 100}},
                                    observer, 1, observer.source.get_token());
    QCOMPARE(result.status, core::FitStatus::Cancelled);
    QCOMPARE(result.iterations, std::int64_t{7});
    QCOMPARE(observer.reports.size(), std::size_t{7});
    QCOMPARE(result.tokenTopics.size(), truth.corpus.documentCount());
  }

  // The fit warns when the vocabulary has none of the commonest function words, and not otherwise.
  void warnsOnACorpusWithoutStopWords() {
    QCOMPARE(core::ldaHmmProbeWordsFound({"the", "cat", "of"}), std::int64_t{2});
    QVERIFY(core::ldaHmmStopWordWarning({"cat", "in"}).empty());
    const auto warning = core::ldaHmmStopWordWarning({"cat", "dog"});
    QVERIFY(warning.find("--stopwords none") != std::string::npos);

    auto stripped = test::corpusFromIds(4, {{0, 1, 2, 3, 0}, {1, 2, 3, 3}});
    HmmObserver observer;
    const auto warned = fitHmmModel(core::ldaHmmModel(), hmmWholeCorpus(stripped),
                                    {{"k", 2}, {"classes", 3}, {"iterations", 5}}, observer);
    QCOMPARE(warned.message, warning);
    QCOMPARE(warned.finalMetrics["stop_words_found"].get<std::int64_t>(), std::int64_t{0});
    stripped.words[2] = "the";
    const auto quiet = fitHmmModel(core::ldaHmmModel(), hmmWholeCorpus(stripped),
                                   {{"k", 2}, {"classes", 3}, {"iterations", 5}}, observer);
    QVERIFY(quiet.message.empty());
  }

  // Through the job and the project: the classes' matrices, the per-token classes and content
  // probabilities of every training document (topics -1 outside class 0), the exports, the warning
  // as the run's message.
  void endToEndThroughTheProject() {
    test::Scratch scratch;
    const auto file = scratch.path("p.latent");
    const auto truth = hmmTruth(15, 60, 40);
    {
      core::Project p(file);
      test::addCorpusOf(p, "toy", truth.corpus);
    }
    core::RunRequest request;
    request.model = "lda-hmm";
    request.dataset = "toy";
    request.options = {{"k", 3}, {"classes", 4}, {"iterations", 40}};
    request.seed = 3;
    request.heldout = 0.2;
    const auto outcome = core::runFit(file, request, nullptr, {});
    QVERIFY(outcome.run.status == core::RunStatus::Finished);
    core::Project p(file, core::Project::Access::ReadOnly);
    const auto run = core::loadRun(p, outcome.run.id);
    QVERIFY(run.message.find("stop words") != std::string::npos);
    const double perplexity = run.finalMetrics["heldout_perplexity"].get<double>();
    QVERIFY(perplexity > 1.0 && perplexity < 150.0);
    const auto transitions = core::loadMatrix(p, run.id, core::topic::kClassTransitions);
    QVERIFY(transitions && transitions->rows() == 4 && transitions->cols() == 4);
    QVERIFY(core::loadMatrix(p, run.id, core::topic::kClassStart).has_value());
    const auto classWord = core::loadMatrix(p, run.id, core::topic::kClassWord);
    QVERIFY(classWord && classWord->rows() == 4);
    for (Eigen::Index c = 0; c < 4; ++c) QVERIFY(std::abs(classWord->row(c).sum() - 1.0) < 1e-9);
    QCOMPARE(core::loadMatrix(p, run.id, core::topic::kDocTopic)->rows(), Eigen::Index{60});

    const auto layers = core::listTokenValues(p, run.id);
    QCOMPARE(layers, (std::vector<std::string>{core::topic::kTokenClass, core::topic::kTokenContentProbability}));
    const auto split = core::splitForDocumentCompletion(truth.corpus, 0.2, 3);
    for (std::size_t d = 0; d < truth.corpus.documentCount(); ++d) {
      const bool heldOut = std::find(split.heldout.documents.begin(), split.heldout.documents.end(),
                                     static_cast<std::int64_t>(d)) != split.heldout.documents.end();
      const auto classes = core::loadTokenValues(p, run.id, core::topic::kTokenClass, static_cast<std::int64_t>(d));
      const auto content =
          core::loadTokenValues(p, run.id, core::topic::kTokenContentProbability, static_cast<std::int64_t>(d));
      const auto topics = core::loadTokenTopics(p, run.id, static_cast<std::int64_t>(d));
      if (heldOut) {
        QVERIFY(classes.empty() && content.empty() && topics.empty());
        continue;
      }
      QCOMPARE(classes.size(), truth.corpus.documentLength(d));
      QCOMPARE(content.size(), classes.size());
      QCOMPARE(topics.size(), classes.size());
      for (std::size_t i = 0; i < classes.size(); ++i) {
        QVERIFY(classes[i] >= 0.0F && classes[i] < 4.0F && classes[i] == std::floor(classes[i]));
        QVERIFY(content[i] >= 0.0F && content[i] <= 1.0F);
        QVERIFY((classes[i] == 0.0F) == (topics[i] >= 0));
      }
    }

    for (const char* what : {"class-word", "class-transitions", "token-classes"}) {
      std::ostringstream out;
      core::exportRun(p, run.id, what, out);
      const auto text = out.str();
      QVERIFY2(std::count(text.begin(), text.end(), '\n') > 4, what);
    }
    std::ostringstream header;
    core::exportRun(p, run.id, "token-classes", header);
    QVERIFY(header.str().rfind("document,position,word,topic,class,content_probability,begin,end\n", 0) == 0);

    // A stored layer of the wrong length is a damaged project, named as such.
    {
      core::Project writable(file);
      writable.db().exec("UPDATE token_values SET vals = x'010203' WHERE doc_index = " +
                         std::to_string(split.trainDocuments.front()) + " AND name = 'token_class'");
    }
    core::Project again(file, core::Project::Access::ReadOnly);
    QVERIFY_THROWS_EXCEPTION(
        core::InputError, core::loadTokenValues(again, run.id, core::topic::kTokenClass, split.trainDocuments.front()));
  }
};

LATENT_TEST_CASE(LdaHmmTest)
#include "tst_lda_hmm.moc"
