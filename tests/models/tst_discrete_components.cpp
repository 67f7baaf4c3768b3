// SPDX-License-Identifier: GPL-3.0-or-later
// mPCA and GaP (count-splitting Gibbs): the sweep's bookkeeping and likelihood against dense
// computations, the Gamma fit against its stationarity condition, generated truth from each model
// (topics, and GaP's Gamma priors), GaP given a document's length being mPCA (000 §27.2.4), and
// the contract with the job runtime (threads, stops, the project).
#include <QtTest>

#include <tbb/task_arena.h>

#include <cmath>

#include "core/data/synthetic_lda.hpp"
#include "core/eval/topic_matching.hpp"
#include "core/jobs/fit_job.hpp"
#include "core/models/topic/discrete_components.hpp"
#include "core/models/topic/discrete_components_kernels.hpp"
#include "core/store/corpus_store.hpp"
#include "core/store/run_store.hpp"
#include "core/util/random.hpp"
#include "core/util/special_functions.hpp"
#include "result_matrix.hpp"
#include "test_case.hpp"
#include "test_datasets.hpp"
#include "test_support.hpp"

using namespace latent;

namespace {

class ComponentObserver final : public core::TrainingObserver {
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

core::FitResult fitComponents(const core::ModelDefinition& model, const core::Corpus& corpus,
                              const nlohmann::json& options, core::TrainingObserver& observer, std::uint64_t seed = 1,
                              std::stop_token stop = {}) {
  core::FitData data;
  data.corpus = &corpus;
  data.fullDocumentCount = static_cast<std::int64_t>(corpus.documentCount());
  core::FitSettings settings;
  settings.options = core::resolveOptions(model.info(), options);
  settings.seed = seed;
  settings.evalEvery = 10;
  return model.make()->fit(data, settings, observer, stop);
}

core::SyntheticLda componentCorpus(std::uint64_t seed, int topics = 3, int documents = 80) {
  core::SyntheticLdaSpec spec;
  spec.topics = topics;
  spec.vocabulary = 60;
  spec.documents = documents;
  spec.meanLength = 30;
  spec.alpha = 0.3;
  spec.beta = 0.1;
  spec.seed = seed;
  return core::generateLdaCorpus(spec);
}

// Poisson(mean) by counting uniform products (Knuth), for the small means of these tests.
int componentPoisson(core::Rng& rng, double mean) {
  const double limit = std::exp(-mean);
  int n = 0;
  for (double product = rng.uniform(); product > limit; product *= rng.uniform()) ++n;
  return n;
}

// A corpus drawn from GaP (000 eq. 27.15-27.16): b_k ~ Dir(beta), z_dk ~ Ga(shape, rate), each
// component adding Poisson(z_dk) tokens drawn from b_k.
struct GapTruth {
  core::Corpus corpus;
  Eigen::MatrixXd topicWord;
};
GapTruth generateGap(int topics, int vocabulary, int documents, double shape, double rate, double beta,
                     std::uint64_t seed) {
  core::Rng rng(seed);
  GapTruth truth;
  truth.topicWord.resize(topics, vocabulary);
  for (int k = 0; k < topics; ++k)
    truth.topicWord.row(k) = core::sampleSymmetricDirichlet(rng, vocabulary, beta).transpose();
  for (int v = 0; v < vocabulary; ++v) truth.corpus.words.push_back("w" + std::to_string(v));
  std::vector<std::int32_t> words;
  for (int d = 0; d < documents; ++d) {
    words.clear();
    for (int k = 0; k < topics; ++k) {
      const int n = componentPoisson(rng, rng.gamma(shape) / rate);
      for (int i = 0; i < n; ++i) {
        double u = rng.uniform();
        int v = 0;
        while (v + 1 < vocabulary && (u -= truth.topicWord(k, v)) >= 0.0) ++v;
        words.push_back(v);
      }
    }
    if (words.empty()) words.push_back(static_cast<std::int32_t>(rng.below(static_cast<std::uint64_t>(vocabulary))));
    truth.corpus.addDocument("d" + std::to_string(d), "", words);
  }
  return truth;
}

}  // namespace

class DiscreteComponentsTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  // Each sweep's splits add up to the counts, its n_dk and n_kw are their sums, its draws are
  // distributions (mPCA) or positive (GaP), and the likelihood it returns is that of the state it
  // started from, as a dense computation gives it.
  void sweepsKeepTheCountsAndScoreTheirStart() {
    const auto truth = componentCorpus(2);
    const auto counts = core::topic::buildDocWordCounts(truth.corpus);
    const auto entryStart = core::topic::entryTokenOffsets(counts);
    const auto D = static_cast<Eigen::Index>(truth.corpus.documentCount());
    Eigen::MatrixXd x = Eigen::MatrixXd::Zero(D, 60);
    for (Eigen::Index d = 0; d < D; ++d)
      for (const auto w : truth.corpus.document(static_cast<std::size_t>(d))) x(d, w) += 1.0;
    for (const auto kind : {core::topic::DocumentPrior::Dirichlet, core::topic::DocumentPrior::Gamma}) {
      core::topic::ComponentPriors priors;
      priors.kind = kind;
      priors.shape = Eigen::VectorXd::Constant(3, 0.3);
      priors.rate = Eigen::VectorXd::Constant(3, 0.03);
      priors.beta = 0.1;
      core::topic::ComponentSample state, next;
      core::topic::initComponents(counts, entryStart, priors, 3, 4, state);
      for (int sweep = 1; sweep <= 4; ++sweep) {
        double expected = 0.0;
        for (Eigen::Index d = 0; d < D; ++d)
          for (Eigen::Index v = 0; v < x.cols(); ++v) {
            const double rate = state.topicWord.col(v).dot(state.docFactor.col(d));
            if (x(d, v) > 0) expected += x(d, v) * std::log(rate);
            // GaP's Poisson likelihood of the count; mPCA's is that of the words in order.
            if (kind == core::topic::DocumentPrior::Gamma) expected -= rate + core::logGamma(x(d, v) + 1.0);
          }
        const double reported = core::topic::componentSweep(counts, entryStart, priors, 4, sweep, state, next, {});
        QVERIFY2(std::abs(reported - expected) < 1e-9 * std::abs(expected),
                 qPrintable(QString("sweep %1: %2 against %3").arg(sweep).arg(reported).arg(expected)));
        std::swap(state, next);
        Eigen::MatrixXi n = Eigen::MatrixXi::Zero(3, 60);
        Eigen::MatrixXi nd = Eigen::MatrixXi::Zero(3, D);
        for (std::size_t d = 0; d < counts.documents(); ++d)
          for (auto e = static_cast<std::size_t>(counts.docStart[d]);
               e < static_cast<std::size_t>(counts.docStart[d + 1]); ++e) {
            QCOMPARE(entryStart[e + 1] - entryStart[e], static_cast<std::int64_t>(counts.counts[e]));
            for (auto t = entryStart[e]; t < entryStart[e + 1]; ++t) {
              ++n(state.split[static_cast<std::size_t>(t)], counts.words[e]);
              ++nd(state.split[static_cast<std::size_t>(t)], static_cast<Eigen::Index>(d));
            }
          }
        QVERIFY(n == state.wordCounts);
        QVERIFY(nd == state.docCounts);
        for (Eigen::Index k = 0; k < 3; ++k) QVERIFY(std::abs(state.topicWord.row(k).sum() - 1.0) < 1e-12);
        QVERIFY(state.docFactor.minCoeff() >= 0.0);
        if (kind == core::topic::DocumentPrior::Dirichlet)
          for (Eigen::Index d = 0; d < D; ++d) QVERIFY(std::abs(state.docFactor.col(d).sum() - 1.0) < 1e-12);
      }
    }
  }

  // The Gamma fit is Minka's maximum likelihood: at its answer log a - psi(a) = log mean - mean
  // log, the rate is a / mean, and on many draws from a known Gamma it finds the truth.
  void fitGammaFindsTheMaximumLikelihood() {
    core::Rng rng(3);
    const double shape = 0.4, rate = 0.05;
    double mean = 0.0, meanLog = 0.0;
    const int n = 200000;
    for (int i = 0; i < n; ++i) {
      const double z = rng.gamma(shape) / rate;
      mean += z / n;
      meanLog += std::log(z) / n;
    }
    double a = 0.0, b = 0.0;
    core::topic::fitGamma(mean, meanLog, a, b);
    qInfo("shape %.4f rate %.5f (truth %.1f, %.2f)", a, b, shape, rate);
    QVERIFY(std::abs(std::log(a) - core::digamma(a) - (std::log(mean) - meanLog)) < 1e-10);
    QVERIFY(std::abs(b - a / mean) < 1e-12 * b);
    QVERIFY(std::abs(a / shape - 1.0) < 0.02);
    QVERIFY(std::abs(b / rate - 1.0) < 0.03);
  }

  // Topics of a corpus drawn from LDA (which is mPCA's model) come back from both models.
  void recoversGeneratedTopics() {
    core::SyntheticLdaSpec spec;
    spec.topics = 5;
    spec.vocabulary = 300;
    spec.documents = 500;
    spec.meanLength = 150;
    spec.alpha = 0.1;
    spec.beta = 0.05;
    spec.seed = 77;
    const auto truth = core::generateLdaCorpus(spec);
    for (auto* model : {&core::mpcaModel, &core::gapModel}) {
      ComponentObserver observer;
      const auto definition = (*model)();
      const auto result = fitComponents(definition, truth.corpus, {{"k", 5}, {"iterations", 200}}, observer);
      const auto match = core::matchTopics(test::resultMatrix(result, "topic_word"), truth.topicWord);
      qInfo("%s: mean TV %.4f, max TV %.4f", definition.info().name.c_str(), match.meanTotalVariation,
            match.maxTotalVariation);
      QVERIFY(match.meanTotalVariation < 0.1);
      QVERIFY(match.maxTotalVariation < 0.2);
    }
  }

  // GaP fitted to data drawn from GaP recovers its components and, by empirical Bayes, its Gamma
  // prior: the mean score per component a / b, and the shape, which sets how unevenly documents
  // use the components.
  void gapRecoversItsGammaPriors() {
    const double shape = 0.5, rate = 0.02;  // 25 tokens per component and document on average
    const auto truth = generateGap(4, 200, 600, shape, rate, 0.05, 21);
    ComponentObserver observer;
    const auto result =
        fitComponents(core::gapModel(), truth.corpus,
                      {{"k", 4}, {"iterations", 300}, {"shape", 1.0}, {"optimize_burn_in", 20}}, observer);
    const auto match = core::matchTopics(test::resultMatrix(result, "topic_word"), truth.topicWord);
    const auto& a = test::resultMatrix(result, "gamma_shape");
    const auto& b = test::resultMatrix(result, "gamma_rate");
    const Eigen::ArrayXXd meanScore = a.array() / b.array();
    qInfo("mean TV %.4f; shapes %.3f..%.3f, mean scores %.2f..%.2f (truth %.2f, %.1f)", match.meanTotalVariation,
          a.minCoeff(), a.maxCoeff(), meanScore.minCoeff(), meanScore.maxCoeff(), shape, shape / rate);
    QVERIFY(match.maxTotalVariation < 0.1);
    QVERIFY(std::abs(meanScore.minCoeff() / (shape / rate) - 1.0) < 0.15);
    QVERIFY(std::abs(meanScore.maxCoeff() / (shape / rate) - 1.0) < 0.15);
    QVERIFY(a.minCoeff() > 0.35 && a.maxCoeff() < 0.7);
  }

  // 000 §27.2.4 (Buntine & Jakulin 2006): GaP with equal rates, given a document's length, is
  // mPCA with alpha = the shape. So GaP's fold-in, which integrates the scores out, gives the
  // same shares as LDA's collapsed fold-in with alpha = a (up to Monte Carlo error), and the two
  // models fitted the same way predict held-out documents equally well.
  void gapGivenTheLengthIsMpca() {
    const auto truth = componentCorpus(6);
    const Eigen::VectorXd a = Eigen::VectorXd::Constant(3, 0.3);
    const auto gap =
        core::topic::gammaPoissonFoldIn(truth.topicWord, a, Eigen::VectorXd::Constant(3, 0.07), 20000, 100);
    const auto lda = core::gibbsFoldIn(truth.topicWord, a, 20000, 100);
    for (std::size_t d = 0; d < 3; ++d) {
      Eigen::VectorXd fromGap(3), fromLda(3);
      gap(truth.corpus.document(d), 11, fromGap);
      lda(truth.corpus.document(d), 12, fromLda);
      qInfo("document %zu: GaP (%.4f %.4f %.4f), LDA (%.4f %.4f %.4f)", d, fromGap[0], fromGap[1], fromGap[2],
            fromLda[0], fromLda[1], fromLda[2]);
      QVERIFY((fromGap - fromLda).cwiseAbs().maxCoeff() < 0.01);
    }

    test::Scratch scratch;
    const auto file = scratch.path("p.latent");
    const auto big = componentCorpus(7, 4, 400);
    {
      core::Project p(file);
      test::addCorpusOf(p, "toy", big.corpus);
    }
    double perplexity[2] = {};
    for (int m = 0; m < 2; ++m) {
      core::RunRequest request;
      request.model = m == 0 ? "mpca" : "gap";
      request.dataset = "toy";
      request.options = {{"k", 4}, {"iterations", 300}, {"optimize_every", 0}};
      request.options[m == 0 ? "alpha" : "shape"] = 0.3;
      request.seed = 2;
      request.heldout = 0.2;
      const auto outcome = core::runFit(file, request, nullptr, {});
      QVERIFY(outcome.run.status == core::RunStatus::Finished);
      core::Project p(file, core::Project::Access::ReadOnly);
      perplexity[m] = core::loadRun(p, outcome.run.id).finalMetrics["heldout_perplexity"].get<double>();
    }
    qInfo("held-out perplexity: mPCA %.3f, GaP %.3f", perplexity[0], perplexity[1]);
    QVERIFY(std::abs(perplexity[1] / perplexity[0] - 1.0) < 0.01);
  }

  // The same seed gives the same results on any number of threads.
  void sameResultOnAnyThreadCount() {
    const auto truth = componentCorpus(9);
    for (auto* model : {&core::mpcaModel, &core::gapModel}) {
      Eigen::MatrixXd first, firstTheta;
      for (const int threads : {1, 2}) {
        tbb::task_arena arena(threads);
        ComponentObserver observer;
        core::FitResult result;
        arena.execute([&] {
          result = fitComponents((*model)(), truth.corpus, {{"k", 3}, {"iterations", 60}, {"optimize_burn_in", 10}},
                                 observer, 5);
        });
        if (first.size() == 0) {
          first = test::resultMatrix(result, "topic_word");
          firstTheta = test::resultMatrix(result, "doc_topic");
        } else {
          QVERIFY(test::resultMatrix(result, "topic_word") == first);
          QVERIFY(test::resultMatrix(result, "doc_topic") == firstTheta);
        }
      }
    }
  }

  // A stop keeps the last complete sweep; the token topics are the splits (for mPCA,
  // doc_topic = (alpha_k + n_dk) / (n_d + alpha_0) of the same n_dk).
  void stopsKeepTheLastSweepAndItsSplits() {
    const auto truth = componentCorpus(10);
    {
      ComponentObserver observer;
      std::stop_source stop;
      stop.request_stop();
      const auto result = fitComponents(core::mpcaModel(), truth.corpus, {{"k", 3}}, observer, 1, stop.get_token());
      QVERIFY(result.status == core::FitStatus::Cancelled);
      QVERIFY(observer.reports.empty());
      const auto& phi = test::resultMatrix(result, "topic_word");
      for (int k = 0; k < 3; ++k) QVERIFY(std::abs(phi.row(k).sum() - 1.0) < 1e-12);
    }
    ComponentObserver observer;
    observer.stopAt = 7;
    const auto result = fitComponents(core::mpcaModel(), truth.corpus, {{"k", 3}, {"optimize_every", 0}}, observer, 1,
                                      observer.source.get_token());
    QVERIFY(result.status == core::FitStatus::Cancelled);
    QCOMPARE(result.iterations, std::int64_t{7});
    const auto& theta = test::resultMatrix(result, "doc_topic");
    QCOMPARE(result.tokenTopics.size(), truth.corpus.documentCount());
    for (std::size_t d = 0; d < truth.corpus.documentCount(); ++d) {
      Eigen::VectorXd n = Eigen::VectorXd::Zero(3);
      for (const auto k : result.tokenTopics[d]) n[k] += 1.0;
      const Eigen::VectorXd expected = (n.array() + 0.1) / (n.sum() + 0.3);
      QVERIFY((theta.row(static_cast<Eigen::Index>(d)).transpose() - expected).cwiseAbs().maxCoeff() < 1e-12);
    }
  }

  // Through the job and the project: both held-out protocols, the priors stored.
  void endToEndThroughTheProject() {
    test::Scratch scratch;
    const auto file = scratch.path("p.latent");
    const auto truth = componentCorpus(4);
    {
      core::Project p(file);
      test::addCorpusOf(p, "toy", truth.corpus);
    }
    for (const char* model : {"mpca", "gap"}) {
      core::RunRequest request;
      request.model = model;
      request.dataset = "toy";
      request.options = {{"k", 3}, {"iterations", 40}};
      request.seed = 4;
      request.heldout = 0.2;
      request.evalEvery = 10;
      const auto outcome = core::runFit(file, request, nullptr, {});
      QVERIFY(outcome.run.status == core::RunStatus::Finished);
      core::Project p(file, core::Project::Access::ReadOnly);
      const auto stored = core::loadRun(p, outcome.run.id);
      const double completion = stored.finalMetrics["heldout_perplexity"].get<double>();
      const double full = stored.finalMetrics["heldout_perplexity_full_folding_in"].get<double>();
      qInfo("%s: document completion %.2f, full folding-in %.2f", model, completion, full);
      QVERIFY(completion > 1.0 && completion < 60.0);
      QVERIFY(full > 1.0 && full < completion);
      const auto theta = core::loadMatrix(p, outcome.run.id, "doc_topic");
      QVERIFY(theta.has_value());
      QCOMPARE(theta->rows(), Eigen::Index{80});
      for (Eigen::Index d = 0; d < theta->rows(); ++d) QVERIFY(std::abs(theta->row(d).sum() - 1.0) < 1e-9);
      QVERIFY(core::loadMatrix(p, outcome.run.id, std::string(model) == "gap" ? "gamma_rate" : "alpha").has_value());
    }
  }
};

LATENT_TEST_CASE(DiscreteComponentsTest)
#include "tst_discrete_components.moc"
