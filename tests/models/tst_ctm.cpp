// SPDX-License-Identifier: GPL-3.0-or-later
// The correlated topic model (ctm): its EM bound never falls, a document's posterior is where the
// bound is stationary, and its contract with the job runtime (threads, stops, the project). That
// documents drawn from a CTM give back its topics and correlations is checked in the evidence
// suite (tst_ctm_evidence.cpp).
#include <QtTest>

#include <cmath>
#include <sstream>

#include "core/io/run_export.hpp"
#include "core/jobs/fit_job.hpp"
#include "core/models/topic/ctm.hpp"
#include "core/models/topic/ctm_kernels.hpp"
#include "core/models/topic/doc_word_counts.hpp"
#include "core/store/run_store.hpp"
#include "generated_ctm.hpp"
#include "quiet_observer.hpp"
#include "result_matrix.hpp"
#include "test_case.hpp"
#include "test_datasets.hpp"
#include "test_support.hpp"
#include "thread_counts.hpp"

using namespace latent;

namespace {

using test::generateCtm;
using test::referenceCovariance;

core::FitResult fitCtm(const core::Corpus& corpus, const nlohmann::json& options, std::stop_token stop = {}) {
  core::FitData data;
  data.corpus = &corpus;
  data.fullDocumentCount = static_cast<std::int64_t>(corpus.documentCount());
  core::FitSettings settings;
  settings.options = core::resolveOptions(core::ctmModel().info(), options);
  settings.evalEvery = 1000;
  test::QuietObserver observer;
  return core::ctmModel().make()->fit(data, settings, observer, stop);
}

}  // namespace

class CtmTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  // Without shrinkage the M step maximises the bound, so EM never lowers it.
  void boundNeverFalls() {
    const auto truth = generateCtm(200, 60, 3);
    const auto counts = core::topic::buildDocWordCounts(truth.corpus);
    core::topic::CtmGlobals globals;
    core::topic::CtmDocuments documents;
    core::topic::initCtm(counts, 4, 0.01, 1, 0, globals, documents);
    double previous = -std::numeric_limits<double>::infinity();
    const core::topic::CtmEStep estep{200, 1e-10};
    for (int iteration = 0; iteration < 25; ++iteration) {
      // The bound returned is at the new posteriors and the old globals: each one at least the last.
      const double bound = core::topic::ctmIteration(counts, estep, globals, documents, {});
      QVERIFY2(bound >= previous - 1e-6 * std::abs(previous),
               qPrintable(QString("iteration %1: %2 after %3").arg(iteration).arg(bound).arg(previous)));
      previous = bound;
    }
  }

  // A document's posterior is where the bound is stationary: with phi at its optimum,
  // sum_w n_w phi_w - N p - Sigma^-1 (lambda - mu) = 0 and 1 / nu2_k = (Sigma^-1)_kk + N p_k, with
  // p = softmax(lambda + nu2 / 2).
  void documentPosteriorIsStationary() {
    const auto truth = generateCtm(1, 80, 5);
    core::topic::CtmGlobals globals;
    globals.mu = Eigen::VectorXd::LinSpaced(3, -0.5, 0.5);
    globals.sigma = referenceCovariance(truth.sigma);
    core::topic::refreshCtmPrecision(globals);
    const auto words = truth.corpus.document(0);
    const auto q = core::topic::fitCtmDocument(words, globals, truth.topicWord, {5000, 0.0});
    const Eigen::VectorXd lambda = q.lambda.col(0), nu2 = q.nu2.col(0);
    Eigen::VectorXd expected = Eigen::VectorXd::Zero(4);
    for (const auto w : words) {
      const Eigen::VectorXd phi = lambda.array().exp() * truth.topicWord.col(w).array();
      expected += phi / phi.sum();
    }
    Eigen::VectorXd p = (lambda + 0.5 * nu2).array().exp();
    p /= p.sum();
    const double N = static_cast<double>(words.size());
    QCOMPARE(lambda[3], 0.0);
    QCOMPARE(nu2[3], 0.0);
    const Eigen::VectorXd gradient = (expected - N * p).head(3) - globals.precision * (lambda.head(3) - globals.mu);
    const Eigen::VectorXd fixedPoint = nu2.head(3).cwiseInverse() - globals.precision.diagonal() - N * p.head(3);
    qInfo("|gradient| %.2e, |nu2 fixed point| %.2e", gradient.norm(), fixedPoint.norm());
    QVERIFY(gradient.norm() < 1e-6);
    QVERIFY(fixedPoint.norm() < 1e-6);
  }

  // The fold-in reads the topics held-out words are scored with (E[b], topicWord), not the training
  // E step's exp E[log b]: with the two set apart, its proportions are those fitted to topicWord.
  void foldInReadsTheScoredTopics() {
    const auto truth = generateCtm(1, 60, 13);
    core::topic::CtmGlobals globals;
    globals.topicWord = truth.topicWord;
    globals.topics.expElogBeta = truth.topicWord.colwise().reverse();  // other topics for each word
    globals.mu = Eigen::VectorXd::Zero(3);
    globals.sigma = referenceCovariance(truth.sigma);
    core::topic::refreshCtmPrecision(globals);
    const auto words = truth.corpus.document(0);
    const core::topic::CtmEStep estep{50, 1e-8};
    Eigen::VectorXd theta(4);
    core::topic::ctmFoldIn(globals, estep, 200)(words, 5, theta);
    const auto expect = [&](const Eigen::MatrixXd& topics) -> Eigen::VectorXd {
      return core::topic::ctmExpectedProportions(core::topic::fitCtmDocument(words, globals, topics, estep), 5, 200)
          .row(0)
          .transpose();
    };
    const Eigen::VectorXd fromMean = expect(globals.topicWord), fromLog = expect(globals.topics.expElogBeta);
    qInfo("|theta - from E[b]| %.2e, |theta - from exp E[log b]| %.2e", (theta - fromMean).norm(),
          (theta - fromLog).norm());
    QVERIFY((theta - fromMean).norm() < 1e-12);
    QVERIFY((theta - fromLog).norm() > 0.1);
  }

  void sameResultOnAnyThreadCount() {
    const auto truth = generateCtm(120, 40, 9);
    QVERIFY(test::sameOnOneAndTwoThreads(
        [&] {
          return fitCtm(truth.corpus, {{"k", 3}, {"iterations", 8}});
        },
        "topic_word"));
  }

  // Through the job and the project: both held-out protocols, the covariance and correlations
  // stored; a stop before the first iteration still leaves topics.
  void endToEndThroughTheProject() {
    test::Scratch scratch;
    const auto file = scratch.path("p.latent");
    const auto truth = generateCtm(150, 50, 11);
    {
      core::Project p(file);
      test::addCorpusOf(p, "toy", truth.corpus);
    }
    core::RunRequest request;
    request.model = "ctm";
    request.dataset = "toy";
    request.options = {{"k", 4}, {"iterations", 15}};
    request.seed = 2;
    request.heldout = 0.2;
    const auto outcome = core::runFit(file, request, nullptr, {});
    QVERIFY(outcome.run.status == core::RunStatus::Finished);
    core::Project p(file, core::Project::Access::ReadOnly);
    const auto stored = core::loadRun(p, outcome.run.id);
    const double completion = stored.finalMetrics["heldout_perplexity"].get<double>();
    const double full = stored.finalMetrics["heldout_perplexity_full_folding_in"].get<double>();
    qInfo("document completion %.2f, full folding-in %.2f", completion, full);
    QVERIFY(completion > 1.0 && full < completion);
    const auto correlation = core::loadMatrix(p, outcome.run.id, "topic_correlation");
    QVERIFY(correlation.has_value());
    QVERIFY((correlation->diagonal().array() - 1.0).abs().maxCoeff() < 1e-12);
    QVERIFY(core::loadMatrix(p, outcome.run.id, "topic_covariance").has_value());
    std::ostringstream csv;
    core::exportRun(p, outcome.run.id, "topic-correlations", csv);
    const auto text = csv.str();
    QVERIFY(text.starts_with("topic,other_topic,correlation,covariance\n"));
    QCOMPARE(std::count(text.begin(), text.end(), '\n'), std::ptrdiff_t{1 + 16});

    std::stop_source stop;
    stop.request_stop();
    const auto stopped = fitCtm(truth.corpus, {{"k", 4}}, stop.get_token());
    QVERIFY(stopped.status == core::FitStatus::Cancelled);
    QCOMPARE(test::resultMatrix(stopped, "topic_word").rows(), Eigen::Index{4});
  }
};

LATENT_TEST_CASE(CtmTest)
#include "tst_ctm.moc"
