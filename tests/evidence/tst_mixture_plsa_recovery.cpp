// SPDX-License-Identifier: GPL-3.0-or-later
// Recovery of known parameters over several generated corpora: the mixture of categoricals (EM and
// VB) on mixture corpora, PLSA (EM and tempered EM) on LDA corpora. Each row is a fresh corpus
// and a fresh seed, so the rows together measure how reliable the default run is.
#include <QtTest>

#include "core/data/synthetic_lda.hpp"
#include "core/eval/topic_matching.hpp"
#include "core/models/topic/mixture.hpp"
#include "core/models/topic/plsa.hpp"
#include "quiet_observer.hpp"
#include "synthetic_mixture.hpp"
#include "test_case.hpp"

using namespace latent;

namespace {

core::FitResult fitRecovery(core::Model& model, const core::ModelInfo& info, const core::Corpus& corpus,
                            const nlohmann::json& options, std::uint64_t seed) {
  core::FitData data;
  data.corpus = &corpus;
  data.fullDocumentCount = static_cast<std::int64_t>(corpus.documentCount());
  core::FitSettings settings;
  settings.options = core::resolveOptions(info, options);
  settings.seed = seed;
  test::QuietObserver quiet;
  return model.fit(data, settings, quiet, {});
}

}  // namespace

class MixturePlsaRecoveryTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void mixtureRecoversComponentsAndAssignments_data() {
    QTest::addColumn<QString>("method");
    QTest::addColumn<int>("K");
    QTest::addColumn<int>("V");
    QTest::addColumn<int>("D");
    QTest::addColumn<int>("corpusSeed");
    for (const char* method : {"em", "vb"}) {
      for (int seed = 1; seed <= 3; ++seed) {
        QTest::addRow("%s K4 V200 D200 #%d", method, seed) << method << 4 << 200 << 200 << seed;
        QTest::addRow("%s K5 V300 D300 #%d", method, seed) << method << 5 << 300 << 300 << seed + 10;
        QTest::addRow("%s K6 V500 D500 #%d", method, seed) << method << 6 << 500 << 500 << seed + 20;
      }
    }
  }

  void mixtureRecoversComponentsAndAssignments() {
    QFETCH(QString, method);
    QFETCH(int, K);
    QFETCH(int, V);
    QFETCH(int, D);
    QFETCH(int, corpusSeed);
    const auto truth = test::generateMixtureCorpus(K, V, D, 50, 200, 0.1, static_cast<std::uint64_t>(corpusSeed));
    auto model = core::mixtureModel().make();
    const auto result =
        fitRecovery(*model, core::mixtureModel().info(), truth.corpus, {{"k", K}, {"method", method.toStdString()}},
                    static_cast<std::uint64_t>(corpusSeed));
    const auto match = core::matchTopics(result.matrices[0].values, truth.topicWord);
    const auto& R = result.matrices[1].values;
    int correct = 0;
    for (int d = 0; d < D; ++d) {
      Eigen::Index best = 0;
      R.row(d).maxCoeff(&best);
      if (match.truthForEstimate[static_cast<std::size_t>(best)] == truth.component[static_cast<std::size_t>(d)])
        ++correct;
    }
    const double accuracy = static_cast<double>(correct) / D;
    qInfo("mean TV %.4f, max TV %.4f, accuracy %.4f", match.meanTotalVariation, match.maxTotalVariation, accuracy);
    QVERIFY(match.meanTotalVariation < 0.1);
    QVERIFY(accuracy > 0.95);
  }

  void plsaRecoversLdaTopics_data() {
    QTest::addColumn<QString>("method");
    QTest::addColumn<int>("K");
    QTest::addColumn<int>("V");
    QTest::addColumn<int>("D");
    QTest::addColumn<int>("length");
    QTest::addColumn<int>("corpusSeed");
    for (int seed = 1; seed <= 3; ++seed)
      QTest::addRow("em K5 V300 D500 L150 #%d", seed) << "em" << 5 << 300 << 500 << 150 << seed;
    for (int seed = 1; seed <= 2; ++seed) {
      QTest::addRow("em K8 V500 D1000 L150 #%d", seed) << "em" << 8 << 500 << 1000 << 150 << seed + 10;
      QTest::addRow("em K10 V1000 D2000 L100 #%d", seed) << "em" << 10 << 1000 << 2000 << 100 << seed + 20;
      QTest::addRow("tem K5 V300 D500 L150 #%d", seed) << "tem" << 5 << 300 << 500 << 150 << seed + 30;
    }
  }

  void plsaRecoversLdaTopics() {
    QFETCH(QString, method);
    QFETCH(int, K);
    QFETCH(int, V);
    QFETCH(int, D);
    QFETCH(int, length);
    QFETCH(int, corpusSeed);
    core::SyntheticLdaSpec spec;
    spec.topics = K;
    spec.vocabulary = V;
    spec.documents = D;
    spec.meanLength = length;
    spec.alpha = 0.1;
    spec.beta = 0.05;
    spec.seed = static_cast<std::uint64_t>(corpusSeed);
    const auto truth = core::generateLdaCorpus(spec);
    auto model = core::plsaModel().make();
    const auto result =
        fitRecovery(*model, core::plsaModel().info(), truth.corpus, {{"k", K}, {"method", method.toStdString()}},
                    static_cast<std::uint64_t>(corpusSeed));
    const auto match = core::matchTopics(result.matrices[0].values, truth.topicWord);
    qInfo("mean TV %.4f, max TV %.4f, %lld iterations", match.meanTotalVariation, match.maxTotalVariation,
          static_cast<long long>(result.iterations));
    QVERIFY(match.meanTotalVariation < 0.1);
  }
};

LATENT_TEST_CASE(MixturePlsaRecoveryTest)
#include "tst_mixture_plsa_recovery.moc"
