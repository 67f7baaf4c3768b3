// SPDX-License-Identifier: GPL-3.0-or-later
// The relational topic model against truth, on corpora drawn from it (the planted topics and links
// recovered, better than LDA's topics compared by cosine), and on Cora:
// LATENT_CORA_DIR names the folder of docword.cora.txt, vocab.cora.txt and links.csv (the R
// package lda's Cora, /work/shared/datasets/cora); with K = 20 RTM's held-out AUC must beat both
// baselines (LDA's topics by cosine, MMSB on the links alone); its precision at 10 does not yet
// (an expected failure, reported as such). With
// LATENT_RTM_PEER_DIR also set, the Cora test instead writes its split there for R lda
// (tests/benchmarks/peers/rtm_vs_r_lda.sh), fits once without baselines at LATENT_RTM_SWEEPS
// sweeps (LATENT_RTM_LINK, LATENT_RTM_RHO and LATENT_RTM_SEED set the link function, the
// pseudo non-links and the chain's seed) and writes its scores and seconds to ours.json.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "core/data/synthetic_rtm.hpp"
#include "core/eval/link_prediction.hpp"
#include "core/eval/topic_matching.hpp"
#include "core/models/fit_data.hpp"
#include "core/models/links/link_baselines.hpp"
#include "core/models/links/rtm.hpp"
#include "core/results/topic_results.hpp"
#include "linked_cora.hpp"
#include "quiet_observer.hpp"
#include "result_matrix.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;

namespace {

core::FitResult fitRtmEvidence(const core::FitData& data, const nlohmann::json& options, std::uint64_t seed) {
  core::FitSettings settings;
  settings.options = core::resolveOptions(core::rtmModel().info(), options);
  settings.seed = seed;
  settings.evalEvery = 100;
  test::QuietObserver observer;
  return core::rtmModel().make()->fit(data, settings, observer, {});
}

double rtmEvidenceMetric(const core::FitResult& result, const char* key) {
  return result.finalMetrics.contains(key) ? result.finalMetrics.at(key).get<double>() : std::nan("");
}

// The split as R lda reads it: training documents (word, count) per line, each training
// document's neighbours (0-based, either direction) per line, and the hidden pairs (a, b, linked).
void writePeerSplit(const core::FitData& data, const std::string& dir) {
  std::ofstream documents(dir + "/documents.txt"), neighbours(dir + "/links.txt"), hidden(dir + "/hidden.csv");
  const auto& corpus = *data.corpus;
  for (std::size_t d = 0; d < corpus.documentCount(); ++d) {
    std::map<std::int32_t, int> counts;
    for (const auto w : corpus.document(d)) ++counts[w];
    for (const auto& [w, c] : counts) documents << w << ':' << c << ' ';
    documents << '\n';
    for (const auto o : data.links->neighbours[d]) neighbours << o << ' ';
    neighbours << '\n';
  }
  hidden << "a,b,linked\n";
  for (const auto& p : data.links->hidden) hidden << p.a << ',' << p.b << ',' << (p.linked ? 1 : 0) << '\n';
}

}  // namespace

class RtmEvidenceTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  // The default drawn corpus (500 short documents whose words say little and links that say more):
  // topics matched to the planted ones; hidden links, and the links of documents left out of the
  // fit, ranked far above chance and above LDA-cosine, whose topics come from the words alone.
  void plantedTopicsAndLinksRecovered() {
    for (const auto link : {"exponential", "sigmoid"}) {
      core::SyntheticRtmSpec spec;
      const auto truth = core::generateRtmCorpus(spec);
      const core::PreparedData prepared(truth.corpus, 0.2, 3);
      const auto result = fitRtmEvidence(prepared.data(), {{"k", 4}, {"iterations", 150}, {"link", link}}, 2);
      QCOMPARE(result.status, core::FitStatus::MaxIterations);
      const auto match = core::matchTopics(test::resultMatrix(result, core::topic::kTopicWord), truth.topicWord);
      qInfo() << link << "topics: max TV" << match.maxTotalVariation << "hidden AUC"
              << rtmEvidenceMetric(result, "heldout_auc") << "lda-cosine"
              << rtmEvidenceMetric(result, "baseline_auc_lda_cosine") << "mmsb"
              << rtmEvidenceMetric(result, "baseline_auc_mmsb") << "new-document AUC"
              << rtmEvidenceMetric(result, "new_document_auc") << "lda-cosine"
              << rtmEvidenceMetric(result, "baseline_new_document_auc_lda_cosine") << "P@10"
              << rtmEvidenceMetric(result, "heldout_precision_at_10") << "lda-cosine"
              << rtmEvidenceMetric(result, "baseline_precision_at_10_lda_cosine");
      QVERIFY(match.maxTotalVariation < 0.3);
      const double auc = rtmEvidenceMetric(result, "heldout_auc");
      QVERIFY(auc > 0.85);
      QVERIFY(auc > rtmEvidenceMetric(result, "baseline_auc_lda_cosine") + 0.02);
      QVERIFY(rtmEvidenceMetric(result, "new_document_auc") > 0.8);

      const auto& weights = test::resultMatrix(result, core::topic::kLinkWeights);
      QCOMPARE(weights.cols(), Eigen::Index{5});
      // Same-topic overlap makes links: every topic's weight is positive.
      QVERIFY(weights.leftCols(4).minCoeff() > 0.0);
      QVERIFY(!test::resultMatrix(result, core::kPredictedLinks).hasNaN());
    }
  }

  // A larger drawn corpus, both link functions, three seeds: topics matched, hidden links far
  // above chance and above LDA-cosine. The baselines depend on the split and the seed only, not on
  // the link function: LDA-cosine is fitted once per seed, as the RTM fit's baselines would (the
  // same sweeps and seed). MMSB, which is only reported here and visits all 320,000 training
  // pairs every sweep (nine tenths of the test's time on three seeds), on the first seed alone.
  void plantedCorpusOnThreeSeeds() {
    for (const std::uint64_t seed : {1, 2, 3}) {
      core::SyntheticRtmSpec spec;
      spec.documents = 1000;
      spec.topics = 6;
      spec.vocabulary = 120;
      spec.eta = 6.0;
      spec.nu = -8.0;
      spec.seed = seed;
      const auto truth = core::generateRtmCorpus(spec);
      const core::PreparedData prepared(truth.corpus, 0.2, seed);
      core::LinkBaselineSettings baselineSettings{6, 200, seed, 1};
      baselineSettings.blockModel = seed == 1;
      const auto baselines = core::fitLinkBaselines(prepared.data(), baselineSettings, {});
      QVERIFY(baselines.ldaHidden.has_value());
      const double lda = baselines.ldaHidden->auc;
      const double mmsb = baselines.mmsbHidden ? baselines.mmsbHidden->auc : std::nan("");
      for (const auto link : {"exponential", "sigmoid"}) {
        const auto result = fitRtmEvidence(prepared.data(),
                                           {{"k", 6}, {"iterations", 300}, {"link", link}, {"baselines", false}}, seed);
        const auto match = core::matchTopics(test::resultMatrix(result, core::topic::kTopicWord), truth.topicWord);
        const double auc = rtmEvidenceMetric(result, "heldout_auc");
        qInfo() << "seed" << seed << link << "max TV" << match.maxTotalVariation << "AUC" << auc << "lda-cosine" << lda
                << "mmsb" << mmsb << "new-document AUC" << rtmEvidenceMetric(result, "new_document_auc");
        QVERIFY(match.maxTotalVariation < 0.3);  // a swapped topic would be 0.7 away
        QVERIFY(auc > 0.85);
        QVERIFY(auc > lda);
      }
    }
  }

  void coraBeatsBothBaselines() {
    const char* dir = std::getenv("LATENT_CORA_DIR");
    if (!dir || !*dir) QSKIP("LATENT_CORA_DIR is not set (the folder of docword.cora.txt, vocab.cora.txt, links.csv)");
    test::Scratch scratch;
    const auto corpus = test::loadLinkedCora(dir, scratch.path("cora.latent"));
    QCOMPARE(corpus.documentCount(), std::size_t{2410});
    const core::PreparedData prepared(corpus, 0.1, 1);
    const char* peer = std::getenv("LATENT_RTM_PEER_DIR");
    if (peer && *peer) {
      writePeerSplit(prepared.data(), peer);
      const char* sweeps = std::getenv("LATENT_RTM_SWEEPS");
      const char* link = std::getenv("LATENT_RTM_LINK");
      core::FitSettings settings;
      settings.options =
          core::resolveOptions(core::rtmModel().info(), {{"k", 20},
                                                         {"iterations", sweeps ? std::atoi(sweeps) : 100},
                                                         {"baselines", false},
                                                         {"link", link && *link ? link : "exponential"}});
      if (const char* rho = std::getenv("LATENT_RTM_RHO")) settings.options["pseudo_non_links"] = std::atof(rho);
      const char* seed = std::getenv("LATENT_RTM_SEED");
      settings.seed = seed ? std::strtoull(seed, nullptr, 10) : 1;
      settings.evalEvery = 0;
      test::QuietObserver observer;
      const auto result = core::rtmModel().make()->fit(prepared.data(), settings, observer, {});
      nlohmann::json out = result.finalMetrics;
      out["seconds"] = result.seconds;
      const auto& weights = test::resultMatrix(result, core::topic::kLinkWeights);
      out["link_weights"] = std::vector<double>(weights.data(), weights.data() + weights.size());
      std::ofstream(std::string(peer) + "/ours.json") << out.dump(1) << '\n';
      return;
    }
    // The default link (exponential). Precision at 10 is not yet above the baselines: the
    // eta-weighted overlap ranks every document concentrated on a heavily weighted topic high for
    // any query sharing it, where cosine compares whole mixtures (see the notes of issue 18).
    const auto result = fitRtmEvidence(prepared.data(), {{"k", 20}, {"iterations", 500}}, 1);
    qInfo("%s", result.finalMetrics.dump(1).c_str());
    const double auc = rtmEvidenceMetric(result, "heldout_auc");
    const double precision = rtmEvidenceMetric(result, "heldout_precision_at_10");
    QVERIFY(auc > rtmEvidenceMetric(result, "baseline_auc_lda_cosine"));
    QVERIFY(auc > rtmEvidenceMetric(result, "baseline_auc_mmsb"));
    QVERIFY(rtmEvidenceMetric(result, "new_document_auc") > 0.75);
    QEXPECT_FAIL("", "RTM's precision at 10 on Cora is below LDA-cosine's and MMSB's", Continue);
    QVERIFY(precision > std::max(rtmEvidenceMetric(result, "baseline_precision_at_10_lda_cosine"),
                                 rtmEvidenceMetric(result, "baseline_precision_at_10_mmsb")));
  }
};

LATENT_TEST_CASE(RtmEvidenceTest)
#include "tst_rtm_evidence.moc"
