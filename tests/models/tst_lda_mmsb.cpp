// SPDX-License-Identifier: GPL-3.0-or-later
// LDA+MMSB (Nallapati et al. 2008): documents and links drawn from the model give back the planted
// topics and the block matrix (links within a topic, few across), and hidden links and new
// documents' links are predicted far above chance; the directed variant fits too; stops; same
// seed, same result; a corpus without links is refused.
#include <QtTest>

#include <thread>

#include <chrono>
#include <cmath>

#include "core/data/synthetic_linked.hpp"
#include "core/eval/link_metrics.hpp"
#include "core/eval/link_prediction.hpp"
#include "core/eval/topic_matching.hpp"
#include "core/models/fit_data.hpp"
#include "core/models/links/lda_mmsb.hpp"
#include "core/results/block_results.hpp"
#include "core/results/topic_results.hpp"
#include "core/util/errors.hpp"
#include "quiet_observer.hpp"
#include "result_matrix.hpp"
#include "test_case.hpp"

using namespace latent;

namespace {

core::FitResult fitLdaMmsb(const core::FitData& data, const nlohmann::json& options, std::uint64_t seed = 1,
                           std::stop_token stop = {}) {
  core::FitSettings settings;
  settings.options = core::resolveOptions(core::ldaMmsbModel().info(), options);
  settings.seed = seed;
  settings.evalEvery = 50;
  test::QuietObserver observer;
  return core::ldaMmsbModel().make()->fit(data, settings, observer, stop);
}

core::SyntheticLinkedSpec ldaMmsbSpec() {
  core::SyntheticLinkedSpec spec;
  spec.topics = 4;
  spec.documents = 300;
  spec.vocabulary = 300;
  spec.meanLength = 60;
  spec.within = 0.2;
  spec.across = 0.002;
  spec.seed = 7;
  return spec;
}

}  // namespace

class LdaMmsbTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  // Drawn from LDA+MMSB, fitted back: topics matched, B's diagonal near the planted 0.2 and its
  // off-diagonal near 0.002 (under the matching of the topics), links ranked far above chance.
  void recoversPlantedTopicsAndBlocks() {
    const auto truth = core::generateLdaMmsbCorpus(ldaMmsbSpec());
    qInfo("%zu links", truth.corpus.links.size());
    QVERIFY(truth.corpus.links.size() > 1000);
    const core::PreparedData prepared(truth.corpus, 0.2, 5);
    const auto result = fitLdaMmsb(prepared.data(), {{"k", 4}, {"iterations", 150}, {"baselines", false}}, 2);
    QCOMPARE(result.status, core::FitStatus::MaxIterations);
    const auto match = core::matchTopics(test::resultMatrix(result, core::topic::kTopicWord), truth.topicWord);
    qInfo("topics: mean TV %.3f, max %.3f", match.meanTotalVariation, match.maxTotalVariation);
    QVERIFY(match.maxTotalVariation < 0.15);

    const auto& blocks = test::resultMatrix(result, core::kBlockMatrix);
    QCOMPARE(blocks.rows(), Eigen::Index{4});
    double acrossMean = 0.0;
    for (int p = 0; p < 4; ++p)
      for (int q = 0; q < 4; ++q) {
        const auto tp = match.truthForEstimate[static_cast<std::size_t>(p)];
        const auto tq = match.truthForEstimate[static_cast<std::size_t>(q)];
        if (tp == tq) {
          qInfo("B(%d,%d) = %.4f", p, q, blocks(p, q));
          QVERIFY(std::abs(blocks(p, q) - 0.2) < 0.07);
        } else {
          acrossMean += blocks(p, q) / 12.0;
        }
      }
    qInfo("B across, mean %.4f", acrossMean);
    QVERIFY(acrossMean < 0.02);

    const auto& m = result.finalMetrics;
    qInfo("heldout AUC %.3f, P@10 %.3f, new-document AUC %.3f", m.at("heldout_auc").get<double>(),
          m.at("heldout_precision_at_10").get<double>(), m.at("new_document_auc").get<double>());
    // The ceiling: the same pairs scored with the planted theta and B.
    const auto& data = prepared.data();
    std::vector<double> scores;
    std::vector<std::uint8_t> positive;
    for (const auto& pair : data.links->hidden) {
      const auto a = data.trainDocuments[static_cast<std::size_t>(pair.a)];
      const auto b = data.trainDocuments[static_cast<std::size_t>(pair.b)];
      scores.push_back(truth.docTopic.row(a) * truth.linkTopics * truth.docTopic.row(b).transpose());
      positive.push_back(pair.linked ? 1 : 0);
    }
    const double ceiling = core::rocAuc(scores, positive);
    qInfo("planted parameters' AUC %.3f", ceiling);
    QVERIFY(m.at("heldout_auc").get<double>() > ceiling - 0.04);
    QVERIFY(m.at("heldout_auc").get<double>() > 0.75);
    QVERIFY(m.at("new_document_auc").get<double>() > 0.75);
    QVERIFY(m.at("non_link_weight").get<double>() > 1.0);
    const auto& predicted = test::resultMatrix(result, core::kPredictedLinks);
    QCOMPARE(predicted.cols(), Eigen::Index{3});
    QVERIFY(predicted.col(2).minCoeff() >= 0.0 && predicted.col(2).maxCoeff() <= 1.0);
  }

  // Ordered pairs: the links as imported (low to high index here), B no longer symmetric in use.
  void directedPairsFitToo() {
    auto spec = ldaMmsbSpec();
    spec.documents = 200;
    const auto truth = core::generateLdaMmsbCorpus(spec);
    const core::PreparedData prepared(truth.corpus, 0.2, 5);
    const auto result =
        fitLdaMmsb(prepared.data(), {{"k", 4}, {"iterations", 60}, {"direction", "directed"}, {"baselines", false}});
    QCOMPARE(result.finalMetrics.at("link_direction").get<std::string>(), std::string("directed"));
    qInfo("directed: heldout AUC %.3f", result.finalMetrics.at("heldout_auc").get<double>());
    QVERIFY(result.finalMetrics.at("heldout_auc").get<double>() > 0.75);
  }

  void refusesACorpusWithoutLinks() {
    auto spec = ldaMmsbSpec();
    spec.documents = 50;
    auto truth = core::generateLdaMmsbCorpus(spec);
    truth.corpus.links.clear();
    const core::PreparedData prepared(truth.corpus, 0.2, 1);
    QVERIFY_THROWS_EXCEPTION(core::UsageError, fitLdaMmsb(prepared.data(), {}));
  }

  void stopsWhenAsked() {
    auto spec = ldaMmsbSpec();
    spec.documents = 100;
    const auto truth = core::generateLdaMmsbCorpus(spec);
    const core::PreparedData prepared(truth.corpus, 0.2, 1);
    std::stop_source stop;
    stop.request_stop();
    const auto result = fitLdaMmsb(prepared.data(), {{"iterations", 1000}}, 1, stop.get_token());
    QCOMPARE(result.status, core::FitStatus::Cancelled);
    QVERIFY(result.iterations < 1000);
    QCOMPARE(test::resultMatrix(result, core::kBlockMatrix).rows(), Eigen::Index{20});
  }

  // A stop requested while the chain runs ends it within its sweeps, as cancelled, with results.
  void stopsWhileRunning() {
    auto spec = ldaMmsbSpec();
    spec.documents = 100;
    const auto truth = core::generateLdaMmsbCorpus(spec);
    const core::PreparedData prepared(truth.corpus, 0.2, 1);
    std::stop_source stop;
    std::thread stopper([&stop] {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      stop.request_stop();
    });
    const auto result = fitLdaMmsb(prepared.data(), {{"k", 4}, {"iterations", 10000000}}, 1, stop.get_token());
    stopper.join();
    QCOMPARE(result.status, core::FitStatus::Cancelled);
    QVERIFY(result.iterations < 10000000);
    QCOMPARE(test::resultMatrix(result, core::topic::kTopicWord).rows(), Eigen::Index{4});
  }

  void sameSeedSameResult() {
    auto spec = ldaMmsbSpec();
    spec.documents = 100;
    const auto truth = core::generateLdaMmsbCorpus(spec);
    const core::PreparedData prepared(truth.corpus, 0.2, 1);
    const nlohmann::json options = {{"k", 4}, {"iterations", 15}, {"baselines", false}};
    const auto a = fitLdaMmsb(prepared.data(), options, 4);
    const auto b = fitLdaMmsb(prepared.data(), options, 4);
    QCOMPARE(a.tokenTopics, b.tokenTopics);
    QCOMPARE(test::resultMatrix(a, core::kBlockMatrix), test::resultMatrix(b, core::kBlockMatrix));
  }
};

LATENT_TEST_CASE(LdaMmsbTest)
#include "tst_lda_mmsb.moc"
