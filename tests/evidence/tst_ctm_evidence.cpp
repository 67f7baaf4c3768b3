// SPDX-License-Identifier: GPL-3.0-or-later
// The correlated topic model against truth: documents drawn from a CTM give back its topics, the
// correlations of its topics and the topics' Dirichlet prior. (Its unit tests, tests/models/tst_ctm.cpp,
// check the bound and the contract with the job runtime under the sanitizers.)
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/eval/topic_matching.hpp"
#include "core/models/fit_data.hpp"
#include "core/models/topic/ctm.hpp"
#include "core/models/topic/ctm_kernels.hpp"
#include "generated_ctm.hpp"
#include "quiet_observer.hpp"
#include "result_matrix.hpp"
#include "test_case.hpp"

using namespace latent;

class CtmEvidenceTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  // 800 documents of 100 words from four topics, the first two correlated positively in z and the
  // last two negatively: after 100 EM iterations every topic is within 0.1 of its truth and every
  // correlation within 0.15.
  void recoversTopicsAndCorrelations() {
    const auto truth = test::generateCtm(800, 100, 7);
    core::FitData data;
    data.corpus = &truth.corpus;
    data.fullDocumentCount = static_cast<std::int64_t>(truth.corpus.documentCount());
    core::FitSettings settings;
    settings.options =
        core::resolveOptions(core::ctmModel().info(), {{"k", 4}, {"iterations", 100}, {"tolerance", 0.0}});
    settings.evalEvery = 1000;
    test::QuietObserver observer;
    const auto result = core::ctmModel().make()->fit(data, settings, observer, {});
    const auto match = core::matchTopics(test::resultMatrix(result, "topic_word"), truth.topicWord);
    const auto& correlation = test::resultMatrix(result, "topic_correlation");
    // The estimated topics that match true topics 0..3.
    std::vector<Eigen::Index> of(4);
    for (Eigen::Index k = 0; k < 4; ++k)
      of[static_cast<std::size_t>(match.truthForEstimate[static_cast<std::size_t>(k)])] = k;
    // Against the truth's centred correlations (softmax ignores the sum of z).
    const Eigen::MatrixXd trueCorrelation = core::topic::ctmCorrelations(test::referenceCovariance(truth.sigma));
    double worst = 0.0;
    for (Eigen::Index a = 0; a < 4; ++a)
      for (Eigen::Index b = a + 1; b < 4; ++b)
        worst = std::max(worst, std::abs(correlation(of[static_cast<std::size_t>(a)], of[static_cast<std::size_t>(b)]) -
                                         trueCorrelation(a, b)));
    qInfo("topics: mean TV %.3f, max %.3f; correlations: the true pair apart %.2f (truth %.2f), largest error %.2f",
          match.meanTotalVariation, match.maxTotalVariation, correlation(of[2], of[3]), trueCorrelation(2, 3), worst);
    QVERIFY(match.maxTotalVariation < 0.1);
    QVERIFY(worst < 0.15);
    // The topics were drawn from a symmetric Dirichlet(0.05): beta's empirical Bayes estimate.
    const double beta = result.finalMetrics.at("beta").get<double>();
    qInfo("beta %.4f (the topics' prior 0.05)", beta);
    QVERIFY(beta > 0.025 && beta < 0.1);
  }
};

LATENT_TEST_CASE(CtmEvidenceTest)
#include "tst_ctm_evidence.moc"
