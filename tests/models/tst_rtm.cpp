// SPDX-License-Identifier: GPL-3.0-or-later
// The relational topic model (Chang & Blei 2010): a fit with either link function gives every
// score and result (the planted topics and links recovered: tst_rtm_evidence.cpp); the links pull
// a document to its neighbours' topic; the exponential link's closed-form weights are probabilities
// and match the links' overlap; stops; refuses a corpus without links; same seed, same result.
#include <QtTest>

#include <cmath>

#include "core/data/synthetic_rtm.hpp"
#include "core/eval/link_prediction.hpp"
#include "core/models/fit_data.hpp"
#include "core/models/links/rtm.hpp"
#include "core/models/links/rtm_link_fit.hpp"
#include "core/results/topic_results.hpp"
#include "core/util/errors.hpp"
#include "quiet_observer.hpp"
#include "result_matrix.hpp"
#include "test_case.hpp"

using namespace latent;

namespace {

core::FitResult fitRtm(const core::FitData& data, const nlohmann::json& options, std::uint64_t seed = 1,
                       std::stop_token stop = {}) {
  core::FitSettings settings;
  settings.options = core::resolveOptions(core::rtmModel().info(), options);
  settings.seed = seed;
  settings.evalEvery = 50;
  test::QuietObserver observer;
  return core::rtmModel().make()->fit(data, settings, observer, stop);
}

double rtmMetric(const core::FitResult& result, const char* key) {
  if (!result.finalMetrics.contains(key)) return std::nan("");
  return result.finalMetrics.at(key).get<double>();
}

}  // namespace

class RtmTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  // Both link functions through the whole fit: the held-out protocols' scores are there and in
  // range, every result matrix is finite. (That the planted topics and links are recovered, and
  // predicted better than LDA-cosine does, is checked in the evidence suite, tst_rtm_evidence.cpp.)
  void fitsWithEitherLink() {
    for (const auto link : {"exponential", "sigmoid"}) {
      const auto truth = core::generateRtmCorpus({});
      const core::PreparedData prepared(truth.corpus, 0.2, 3);
      const auto result = fitRtm(prepared.data(), {{"k", 4}, {"iterations", 10}, {"link", link}}, 2);
      QCOMPARE(result.status, core::FitStatus::MaxIterations);
      for (const char* key :
           {"heldout_auc", "baseline_auc_lda_cosine", "new_document_auc", "heldout_precision_at_10"}) {
        const double value = rtmMetric(result, key);
        QVERIFY2(value >= 0.0 && value <= 1.0, key);
      }
      QCOMPARE(test::resultMatrix(result, core::topic::kLinkWeights).cols(), Eigen::Index{5});
      QVERIFY(test::resultMatrix(result, core::topic::kTopicWord).allFinite());
      QVERIFY(!test::resultMatrix(result, core::kPredictedLinks).hasNaN());
    }
  }

  // The links' factor in the conditional: a document whose only word appears nowhere else takes
  // the topic of the documents it links to, whichever they are (same seed, same start).
  void linksPullADocumentToItsNeighboursTopic() {
    core::Corpus corpus;
    corpus.words = {"a", "b", "c"};
    const std::vector<std::int32_t> as(10, 0), bs(10, 1), cs(10, 2);
    for (int d = 0; d < 40; ++d) corpus.addDocument("a" + std::to_string(d), "", as);
    for (int d = 0; d < 40; ++d) corpus.addDocument("b" + std::to_string(d), "", bs);
    corpus.addDocument("x", "", cs);
    const std::int32_t x = 80;
    const core::rtm::LinkWeights weights{Eigen::VectorXd::Constant(2, 20.0), -5.0};
    for (const std::int32_t first : {0, 40}) {  // x linked to ten "a" documents, then to ten "b" ones
      std::vector<std::vector<std::int32_t>> neighbours(81);
      for (std::int32_t d = first; d < first + 10; ++d) {
        neighbours[static_cast<std::size_t>(d)] = {x};
        neighbours[static_cast<std::size_t>(x)].push_back(d);
      }
      core::rtm::RtmSampler sampler(corpus, neighbours, 2, 0.5, 0.01, 7);
      for (int sweep = 0; sweep < 100; ++sweep)
        QVERIFY(sampler.sweep(weights, core::rtm::LinkFunction::Exponential, {}));
      const Eigen::MatrixXd zbar = sampler.empiricalTopics();
      Eigen::Index neighbourTopic = 0;
      zbar.row(first).maxCoeff(&neighbourTopic);
      QVERIFY(zbar(first, neighbourTopic) > 0.9);
      QVERIFY(zbar(x, neighbourTopic) > 0.9);
    }
  }

  // The closed form never gives a probability above one, and a topic that linked documents share
  // more than the pseudo non-links do gets a higher weight.
  void exponentialWeightsAreProbabilities() {
    Eigen::MatrixXd zbar(4, 2);
    zbar << 1.0, 0.0, 0.9, 0.1, 0.2, 0.8, 0.5, 0.5;
    const std::vector<core::Edge> links = {{0, 1, 1.0}, {1, 3, 1.0}, {2, 3, 1.0}};
    const auto w = core::rtm::fitLinkWeights(core::rtm::LinkFunction::Exponential, zbar, links, 3.0, {});
    QVERIFY(w.nu <= 0.0);
    QVERIFY((w.eta.array() + w.nu).maxCoeff() <= 0.0);
    QVERIFY(w.eta[0] > w.eta[1]);  // topic 0's overlap 0.9 + 0.45 + 0.1 against topic 1's 0.05 + 0.4
    for (Eigen::Index a = 0; a < 4; ++a)
      for (Eigen::Index b = 0; b < 4; ++b)
        QVERIFY(core::rtm::linkProbability(core::rtm::LinkFunction::Exponential,
                                           core::rtm::linkScore(w, zbar.row(a), zbar.row(b))) <= 1.0);
  }

  void refusesCorpusWithoutLinks() {
    core::SyntheticRtmSpec spec;
    spec.documents = 40;
    auto truth = core::generateRtmCorpus(spec);
    truth.corpus.links.clear();
    const core::PreparedData prepared(truth.corpus, 0.0, 1);
    QVERIFY_THROWS_EXCEPTION(core::UsageError, fitRtm(prepared.data(), {}));
  }

  void stopsWhenAsked() {
    core::SyntheticRtmSpec spec;
    spec.documents = 100;
    const auto truth = core::generateRtmCorpus(spec);
    const core::PreparedData prepared(truth.corpus, 0.2, 1);
    std::stop_source stop;
    stop.request_stop();
    const auto result = fitRtm(prepared.data(), {{"k", 4}, {"iterations", 1000}}, 1, stop.get_token());
    QCOMPARE(result.status, core::FitStatus::Cancelled);
    QVERIFY(result.iterations < 1000);
    QCOMPARE(test::resultMatrix(result, core::topic::kTopicWord).rows(), Eigen::Index{4});
    QVERIFY(!result.finalMetrics.contains("baseline_auc_lda_cosine"));  // no baselines after a stop
  }

  void sameSeedSameResult() {
    core::SyntheticRtmSpec spec;
    spec.documents = 100;
    const auto truth = core::generateRtmCorpus(spec);
    const core::PreparedData prepared(truth.corpus, 0.2, 1);
    const nlohmann::json options = {{"k", 4}, {"iterations", 15}, {"baselines", false}, {"link", "sigmoid"}};
    const auto a = fitRtm(prepared.data(), options, 4);
    const auto b = fitRtm(prepared.data(), options, 4);
    QCOMPARE(a.tokenTopics, b.tokenTopics);
    QCOMPARE(test::resultMatrix(a, core::topic::kLinkWeights), test::resultMatrix(b, core::topic::kLinkWeights));
    QCOMPARE(rtmMetric(a, "heldout_auc"), rtmMetric(b, "heldout_auc"));
  }
};

LATENT_TEST_CASE(RtmTest)
#include "tst_rtm.moc"
