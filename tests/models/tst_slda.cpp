// SPDX-License-Identifier: GPL-3.0-or-later
// Supervised LDA (slda): a document's E step never lowers its bound, the Gaussian M step is least
// squares when the assignments are known, the categorical M step ends at the maximum of its
// objective, and documents drawn from sLDA give back its topics and coefficients and predict
// held-out responses to near the noise; a categorical response is fitted (and predicted well above
// chance in the evidence suite, tst_slda_evidence.cpp).
#include <QtTest>

#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/data/synthetic_slda.hpp"
#include "core/eval/topic_matching.hpp"
#include "core/models/topic/slda_kernels.hpp"
#include "core/util/errors.hpp"
#include "core/util/random.hpp"
#include "result_matrix.hpp"
#include "slda_fit.hpp"
#include "test_case.hpp"
#include "thread_counts.hpp"

using namespace latent;

namespace {

using test::fitSlda;
using test::sldaSpec;

// Random topics as E[log beta] (K x V) for the kernel tests.
Eigen::MatrixXd randomLogTopics(int K, int V, std::uint64_t seed) {
  core::Rng rng(seed);
  Eigen::MatrixXd topics(K, V);
  for (int k = 0; k < K; ++k) topics.row(k) = core::sampleSymmetricDirichlet(rng, V, 0.1).transpose();
  return topics.array().max(1e-12).log();
}

}  // namespace

class SldaTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  // With every word once, each sweep of the E step is Blei & McAuliffe's coordinate ascent: phi_n
  // then gamma each set to their optimum given the rest, so the document's bound never falls. For
  // the Gaussian response and (through the same code path) without one.
  void documentEStepNeverLowersTheBound() {
    const int K = 3, V = 60;
    const Eigen::MatrixXd elogBeta = randomLogTopics(K, V, 5);
    std::vector<std::int32_t> words(40);
    std::iota(words.begin(), words.end(), 5);
    const std::vector<double> counts(words.size(), 1.0);
    const Eigen::VectorXd alpha = Eigen::VectorXd::Constant(K, 0.5);
    core::topic::SldaResponseModel response;
    response.eta = Eigen::Vector3d(-1.5, 0.2, 2.0);
    response.sigma2 = 0.3;
    for (const bool withResponse : {true, false}) {
      const core::topic::SldaTarget target{withResponse, 1.2, -1};
      Eigen::MatrixXd phi = Eigen::MatrixXd::Constant(K, 40, 1.0 / K);
      Eigen::VectorXd gamma = alpha.array() + 40.0 / K;
      double previous = core::topic::sldaDocumentBound(words, counts, elogBeta, alpha, response, target, phi, gamma);
      for (int sweep = 0; sweep < 30; ++sweep) {
        core::topic::sldaDocumentEStep(words, counts, elogBeta, alpha, response, target, phi, gamma, {1, 0.0});
        const double bound =
            core::topic::sldaDocumentBound(words, counts, elogBeta, alpha, response, target, phi, gamma);
        QVERIFY2(bound >= previous - 1e-9 * std::abs(previous),
                 qPrintable(QString("sweep %1: %2 after %3").arg(sweep).arg(bound).arg(previous)));
        previous = bound;
      }
      // gamma = alpha + sum_n phi_n at the end of every sweep.
      QVERIFY((gamma - alpha - phi.rowwise().sum()).cwiseAbs().maxCoeff() < 1e-12);
    }
  }

  // The response pulls the assignments: a high response puts more of a document's words in the
  // topic with the high coefficient than the same document without its response.
  void responseTermMovesTheAssignments() {
    const int K = 2, V = 10;
    const Eigen::MatrixXd elogBeta = Eigen::MatrixXd::Constant(K, V, std::log(1.0 / V));
    std::vector<std::int32_t> words(10);
    std::iota(words.begin(), words.end(), 0);
    const std::vector<double> counts(10, 1.0);
    const Eigen::VectorXd alpha = Eigen::VectorXd::Constant(K, 1.0);
    core::topic::SldaResponseModel response;
    response.eta = Eigen::Vector2d(-1.0, 1.0);
    response.sigma2 = 0.1;
    Eigen::MatrixXd phi = Eigen::MatrixXd::Constant(K, 10, 0.5);
    Eigen::VectorXd gamma = alpha.array() + 5.0;
    core::topic::sldaDocumentEStep(words, counts, elogBeta, alpha, response, {true, 0.8, -1}, phi, gamma, {200, 1e-10});
    const double share = phi.row(1).mean();
    qInfo("share of topic 2 with y = 0.8: %.3f", share);
    // Without the uncertainty term the optimum of E[zbar_2] would be 0.9 (y = -1 + 2 zbar_2).
    QVERIFY(share > 0.8 && share < 0.95);
  }

  // With one-hot assignments E[A^T A] = A^T A, so the Gaussian M step is ordinary least squares of
  // y on each document's topic shares, and sigma^2 the mean squared residual.
  void gaussianMStepIsLeastSquaresWhenAssignmentsAreKnown() {
    const int K = 3, D = 50;
    core::Rng rng(9);
    core::topic::DocumentWordCounts docs;
    core::topic::SldaDocuments state;
    std::vector<core::topic::SldaTarget> targets;
    Eigen::MatrixXd shares = Eigen::MatrixXd::Zero(D, K);
    Eigen::VectorXd y(D);
    std::vector<Eigen::VectorXd> columns;
    for (int d = 0; d < D; ++d) {
      const int n = 5 + static_cast<int>(rng.below(10));
      double length = 0.0;
      for (int i = 0; i < n; ++i) {
        const int k = static_cast<int>(rng.below(K));
        const double c = 1.0 + static_cast<double>(rng.below(3));
        docs.words.push_back(i);
        docs.counts.push_back(c);
        columns.push_back(Eigen::VectorXd::Unit(K, k));
        shares(d, k) += c;
        length += c;
      }
      docs.offsets.push_back(docs.offsets.back() + n);
      docs.lengths.push_back(length);
      shares.row(d) /= length;
      y[d] = rng.normal();
      targets.push_back({true, y[d], -1});
    }
    state.phi.resize(K, static_cast<Eigen::Index>(columns.size()));
    for (std::size_t e = 0; e < columns.size(); ++e) state.phi.col(static_cast<Eigen::Index>(e)) = columns[e];
    core::topic::SldaResponseModel response;
    core::topic::sldaGaussianMStep(docs, state, targets, response, 0.0);
    const Eigen::VectorXd ols = shares.colPivHouseholderQr().solve(y);
    const double mse = (y - shares * ols).squaredNorm() / D;
    QVERIFY((response.eta.col(0) - ols).cwiseAbs().maxCoeff() < 1e-9);
    QVERIFY(std::abs(response.sigma2 - mse) < 1e-9);
  }

  // The categorical M step ends at the maximum of its concave objective: no small move of any
  // coefficient raises it.
  void categoricalMStepReachesTheMaximum() {
    const auto truth = core::generateSldaCorpus(sldaSpec(60, 4));
    const auto docs = core::topic::countDocumentWords(truth.lda.corpus);
    core::topic::SldaDocuments state;
    state.reset(docs, Eigen::VectorXd::Constant(4, 0.3));
    core::Rng rng(2);
    for (Eigen::Index e = 0; e < state.phi.cols(); ++e) {
      state.phi.col(e) = core::sampleSymmetricDirichlet(rng, 4, 1.0);
    }
    std::vector<core::topic::SldaTarget> targets;
    for (Eigen::Index d = 0; d < truth.response.size(); ++d)
      targets.push_back({true, 0.0, truth.response[d] > 1.0 ? 2 : truth.response[d] > 0.0 ? 1 : 0});
    core::topic::SldaResponseModel response;
    response.categorical = true;
    response.penalty = 0.5;
    response.eta = Eigen::MatrixXd::Zero(4, 3);
    const double start = core::topic::sldaCategoricalObjective(docs, state, targets, response);
    const double best = core::topic::sldaCategoricalMStep(docs, state, targets, response, 500);
    QVERIFY(best > start);
    QVERIFY(std::abs(best - core::topic::sldaCategoricalObjective(docs, state, targets, response)) < 1e-9);
    double largestGain = -std::numeric_limits<double>::infinity();
    for (Eigen::Index k = 0; k < 4; ++k)
      for (Eigen::Index c = 0; c < 3; ++c)
        for (const double h : {-1e-3, 1e-3}) {
          auto moved = response;
          moved.eta(k, c) += h;
          largestGain =
              std::max(largestGain, core::topic::sldaCategoricalObjective(docs, state, targets, moved) - best);
        }
    qInfo("objective %.6f from %.6f; largest gain of a small move %.2e", best, start, largestGain);
    QVERIFY(largestGain < 1e-6);
  }

  // Documents drawn from sLDA with a Gaussian response: the topics come back, so do the
  // coefficients (after matching the topics), and held-out responses predicted from the text alone
  // are nearly as close as the noise allows.
  void recoversTopicsCoefficientsAndPredictsHeldoutResponses() {
    const auto spec = sldaSpec(500, 7);
    const auto truth = core::generateSldaCorpus(spec);
    const auto run = fitSlda(truth.lda.corpus, {{"k", 4}, {"iterations", 40}, {"response", "response"}});
    const auto& result = run.result;
    const auto match = core::matchTopics(test::resultMatrix(result, "topic_word"), truth.lda.topicWord);
    const auto& coefficients = test::resultMatrix(result, "response_coefficients");
    QCOMPARE(coefficients.rows(), Eigen::Index{4});
    QCOMPARE(coefficients.cols(), Eigen::Index{1});
    double worst = 0.0;
    for (Eigen::Index k = 0; k < 4; ++k)
      worst =
          std::max(worst, std::abs(coefficients(k, 0) - spec.eta[match.truthForEstimate[static_cast<std::size_t>(k)]]));
    const double rmse = result.finalMetrics.at("heldout_response_rmse").get<double>();
    const double noise = result.finalMetrics.at("response_noise_sd").get<double>();
    qInfo("topics: max TV %.3f; coefficients: largest error %.3f; held-out RMSE %.3f (noise %.2f, fitted %.3f)",
          match.maxTotalVariation, worst, rmse, spec.noise, noise);
    QVERIFY(match.maxTotalVariation < 0.1);
    QVERIFY(worst < 0.3);
    QVERIFY(rmse < 1.3 * spec.noise);
    QVERIFY(noise > 0.7 * spec.noise && noise < 1.3 * spec.noise);
    QCOMPARE(result.finalMetrics.at("heldout_responses").get<std::int64_t>(), std::int64_t{100});
    // The baselines beside it, on the same documents: the training mean and ridge on the words.
    const double mean = result.finalMetrics.at("baseline_response_rmse_mean").get<double>();
    const double ridge = result.finalMetrics.at("baseline_response_rmse_ridge").get<double>();
    qInfo("baselines: training mean %.3f, ridge %.3f", mean, ridge);
    QVERIFY(rmse < ridge && ridge < mean);
    // Every document's prediction in corpus order, the held-out ones marked.
    const auto& predicted = test::resultMatrix(result, "response_predicted");
    const auto& heldout = test::resultMatrix(result, "response_heldout");
    QCOMPARE(predicted.rows(), Eigen::Index{500});
    QCOMPARE(heldout.sum(), 100.0);
    for (const auto d : run.split.heldout.documents) QCOMPARE(heldout(d, 0), 1.0);
    const double spread = std::sqrt((truth.response.array() - truth.response.mean()).square().mean());
    const double trainRmse = result.finalMetrics.at("train_response_rmse").get<double>();
    QVERIFY(trainRmse < 0.5 * spread);
    QCOMPARE(result.finalMetrics.at("response_name").get<std::string>(), std::string("response"));
  }

  // A class cut from the same response (low, middle, high): the fit of a categorical response
  // gives one coefficient and one predicted probability per class and is scored against the
  // majority class. (That it predicts held-out classes well is checked in the evidence suite,
  // tst_slda_evidence.cpp, without the logistic baseline, which is not what it checks.)
  void categoricalResponseFitted() {
    auto truth = core::generateSldaCorpus(sldaSpec(60, 11));
    test::cutIntoLevels(truth);
    const auto run =
        fitSlda(truth.lda.corpus, {{"k", 4}, {"iterations", 3}, {"response", "level"}, {"baselines", false}});
    const auto& result = run.result;
    const double accuracy = result.finalMetrics.at("heldout_accuracy").get<double>();
    QVERIFY(accuracy >= 0.0 && accuracy <= 1.0);
    QVERIFY(result.finalMetrics.contains("baseline_accuracy_majority"));
    QVERIFY(!result.finalMetrics.contains("baseline_accuracy_logistic"));
    QCOMPARE(test::resultMatrix(result, "response_coefficients").cols(), Eigen::Index{3});
    const auto& predicted = test::resultMatrix(result, "response_predicted");
    QCOMPARE(predicted.cols(), Eigen::Index{3});
    QVERIFY(((predicted.rowwise().sum().array() - 1.0).abs() < 1e-9).all());
    QCOMPARE(result.finalMetrics.at("response_classes").size(), std::size_t{3});
  }

  // Every reduction runs over fixed blocks in order: the same numbers on any thread count.
  void sameResultOnAnyThreadCount() {
    const auto truth = core::generateSldaCorpus(sldaSpec(80, 17));
    for (const char* name : {"topic_word", "response_coefficients", "response_predicted"})
      QVERIFY2(test::sameOnOneAndTwoThreads(
                   [&] {
                     return fitSlda(truth.lda.corpus, {{"k", 3}, {"iterations", 5}, {"response", "response"}}).result;
                   },
                   name),
               name);
  }

  // Without --response the error names the fields there are; documents without a value are fitted
  // (as plain LDA documents) and still get a prediction.
  void responseFieldAndMissingValues() {
    auto truth = core::generateSldaCorpus(sldaSpec(60, 13));
    try {
      fitSlda(truth.lda.corpus, {{"k", 2}, {"iterations", 2}});
      QFAIL("expected a usage error");
    } catch (const core::UsageError& e) {
      QVERIFY2(QString(e.what()).contains("response"), e.what());
    }
    for (std::size_t d = 0; d < 60; d += 3) truth.lda.corpus.metadata[0].values[d].clear();
    const auto run = fitSlda(truth.lda.corpus, {{"k", 2}, {"iterations", 3}, {"response", "response"}}, 0.0);
    QVERIFY(run.result.status == core::FitStatus::MaxIterations);
    const auto& predicted = test::resultMatrix(run.result, "response_predicted");
    QCOMPARE(predicted.rows(), Eigen::Index{60});
    QVERIFY(predicted.allFinite());
    QCOMPARE(run.result.finalMetrics.at("train_responses").get<std::int64_t>(), std::int64_t{40});
  }
};

LATENT_TEST_CASE(SldaTest)
#include "tst_slda.moc"
