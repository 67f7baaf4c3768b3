// SPDX-License-Identifier: GPL-3.0-or-later
// Discriminative categorical PCA (core/models/topic/dcatpca.*) on corpora generated from the model
// (000 eq. 27.73-27.74): the fitted model's held-out label predictions come near the generating
// model's own (its parameters recovered up to a rotation of the latent space, compared through
// the predictive probabilities), far above the label frequencies; the model run through the
// registry reports its scores beside the baselines and stores its embedding; label sets; a stop.
#include <QtTest>

#include <cmath>
#include <stop_token>

#include "core/data/document_fields.hpp"
#include "core/eval/heldout.hpp"
#include "core/eval/linear_baselines.hpp"
#include "core/eval/response_metrics.hpp"
#include "core/eval/word_features.hpp"
#include "core/models/topic/dcatpca.hpp"
#include "core/models/topic/dcatpca_fit.hpp"
#include "core/results/embedding_results.hpp"
#include "core/util/random.hpp"
#include "quiet_observer.hpp"
#include "result_matrix.hpp"
#include "test_case.hpp"

using namespace latent;

namespace {

struct DcatpcaGenerated {
  core::Corpus corpus;
  core::topic::DcatpcaParameters truth;
  std::vector<std::vector<std::int32_t>> sets;  // per document
};

// Documents with Dirichlet(0.5) word proportions; z_d ~ N(V x_d, 0.25 I) from their word features,
// and `draws` labels per document from Cat(S(W z_d)) (kept once each; "c0".."c3").
DcatpcaGenerated dcatpcaGenerate(int documents, int words, int labels, int draws, std::uint64_t seed) {
  core::Rng rng(seed);
  DcatpcaGenerated g;
  for (int w = 0; w < words; ++w) g.corpus.words.push_back("w" + std::to_string(w));
  for (int d = 0; d < documents; ++d) {
    std::vector<double> cumulative(static_cast<std::size_t>(words));
    double total = 0.0;
    for (auto& c : cumulative) c = total += rng.gamma(0.5);
    std::vector<std::int32_t> tokens;
    for (int t = 0; t < 60; ++t) {
      const auto at = std::upper_bound(cumulative.begin(), cumulative.end(), rng.uniform() * total);
      tokens.push_back(static_cast<std::int32_t>(std::min<std::ptrdiff_t>(at - cumulative.begin(), words - 1)));
    }
    g.corpus.addDocument("d" + std::to_string(d), "", tokens);
  }
  const int k = 2;
  auto& t = g.truth;
  t.inputWeights = Eigen::MatrixXd(words, k);
  for (auto& v : t.inputWeights.reshaped()) v = 4.0 * rng.normal();
  t.labelWeights = Eigen::MatrixXd(k, labels);
  for (auto& v : t.labelWeights.reshaped()) v = 2.5 * rng.normal();
  t.labelBias = Eigen::VectorXd::Zero(labels);
  t.covariance = 0.25 * Eigen::MatrixXd::Identity(k, k);
  const Eigen::MatrixXd means = core::wordFeatures(g.corpus, static_cast<std::size_t>(words)) * t.inputWeights;
  for (int d = 0; d < documents; ++d) {
    Eigen::RowVectorXd z = means.row(d);
    for (int j = 0; j < k; ++j) z[j] += 0.5 * rng.normal();
    Eigen::RowVectorXd p = z * t.labelWeights;
    p = (p.array() - p.maxCoeff()).exp();
    p /= p.sum();
    std::vector<std::int32_t> set;
    for (int r = 0; r < draws; ++r) {
      double u = rng.uniform(), c = 0.0;
      int l = 0;
      while (l < labels - 1 && (c += p[l]) <= u) ++l;
      if (std::find(set.begin(), set.end(), l) == set.end()) set.push_back(l);
    }
    std::sort(set.begin(), set.end());
    std::string text;
    for (const auto l : set) text += (text.empty() ? "c" : ";c") + std::to_string(l);
    g.corpus.labels.push_back(text);
    g.sets.push_back(set);
  }
  if (draws > 1) g.corpus.labelSeparator = ";";
  return g;
}

core::Corpus dcatpcaPart(const core::Corpus& corpus, int from, int to) {
  core::Corpus part;
  part.words = corpus.words;
  part.takeFieldLayoutOf(corpus);
  for (int d = from; d < to; ++d) {
    part.addDocument(corpus.documentIds[static_cast<std::size_t>(d)], "", corpus.document(static_cast<std::size_t>(d)));
    part.appendFieldsOf(corpus, static_cast<std::size_t>(d));
  }
  return part;
}

core::FitResult dcatpcaFit(const core::FitData& data, const nlohmann::json& options, std::stop_token stop = {}) {
  core::FitSettings settings;
  settings.options = core::resolveOptions(core::dcatpcaModel().info(), options);
  test::QuietObserver observer;
  return core::dcatpcaModel().make()->fit(data, settings, observer, stop);
}

}  // namespace

class DcatpcaTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void predictsNearTheGeneratingModel() {
    const auto g = dcatpcaGenerate(600, 60, 4, 1, 5);
    const auto train = dcatpcaPart(g.corpus, 0, 400), test = dcatpcaPart(g.corpus, 400, 600);
    const auto x = core::wordFeatures(train, 60), xTest = core::wordFeatures(test, 60);
    const std::vector<std::vector<std::int32_t>> trainSets(g.sets.begin(), g.sets.begin() + 400);
    std::vector<std::int32_t> testCodes, trainCodes;
    for (int d = 0; d < 600; ++d) (d < 400 ? trainCodes : testCodes).push_back(g.sets[static_cast<std::size_t>(d)][0]);

    core::topic::DcatpcaSettings settings;
    settings.latent = 2;
    const auto fitted = core::topic::fitDcatpca(x, trainSets, 4, settings);
    const Eigen::MatrixXd p =
        core::topic::dcatpcaLabelProbabilities(fitted, core::topic::dcatpcaLatentMeans(fitted, x, xTest), 512, 1);
    const Eigen::MatrixXd pTrue =
        core::topic::dcatpcaLabelProbabilities(g.truth, core::topic::dcatpcaLatentMeans(g.truth, x, xTest), 512, 1);
    const auto model = core::scoreClasses(p, testCodes), truth = core::scoreClasses(pTrue, testCodes);
    const auto frequency = core::scoreClasses(core::majorityProbabilities(trainCodes, 4, 200), testCodes);
    const double gap = (p - pTrue).cwiseAbs().mean();
    qInfo("dcatpca accuracy %.3f log loss %.3f; generating model %.3f %.3f; frequencies %.3f %.3f; |p - p_true| %.3f",
          model.accuracy, model.logLoss, truth.accuracy, truth.logLoss, frequency.accuracy, frequency.logLoss, gap);
    // The MAP fit (point posteriors of the training latents) stays short of the generating model's
    // log loss on 400 documents; its probabilities are close to the truth's all the same.
    QVERIFY(model.logLoss < truth.logLoss + 0.3);
    QVERIFY(model.accuracy > truth.accuracy - 0.08);
    QVERIFY(gap < 0.08);
    QVERIFY(model.logLoss < 0.7 * frequency.logLoss);
  }

  void runsThroughTheRegistry() {
    const auto g = dcatpcaGenerate(300, 60, 4, 1, 6);
    const auto split = core::splitForDocumentCompletion(g.corpus, 0.25, 2);
    core::FitData data;
    data.corpus = &split.train;
    data.heldout = &split.heldout;
    data.trainDocuments = split.trainDocuments;
    data.fullDocumentCount = 300;
    const auto result = dcatpcaFit(data, {{"k", 2}});
    QVERIFY(result.status == core::FitStatus::Converged || result.status == core::FitStatus::MaxIterations);
    const auto& m = result.finalMetrics;
    for (const char* key : {"heldout_accuracy", "heldout_macro_f1", "heldout_log_loss", "heldout_auc",
                            "heldout_label_log_loss", "baseline_accuracy_logistic", "baseline_accuracy_majority"})
      QVERIFY2(m.contains(key), key);
    qInfo("dcatpca accuracy %.3f log loss %.3f; logistic %.3f %.3f; majority %.3f %.3f",
          m["heldout_accuracy"].get<double>(), m["heldout_log_loss"].get<double>(),
          m["baseline_accuracy_logistic"].get<double>(), m["baseline_log_loss_logistic"].get<double>(),
          m["baseline_accuracy_majority"].get<double>(), m["baseline_log_loss_majority"].get<double>());
    // On 225 training documents the MAP fit is overconfident: its log loss is no better than the
    // frequencies' (notes/responses.md); its ranking and its most probable label are.
    QVERIFY(m["heldout_auc"].get<double>() > 0.7);
    QVERIFY(m["heldout_accuracy"].get<double>() >= m["baseline_accuracy_majority"].get<double>());
    QCOMPARE(test::resultMatrix(result, core::embedding::kDocVectors).rows(), Eigen::Index{300});
    QCOMPARE(test::resultMatrix(result, core::embedding::kDocVectors).cols(), Eigen::Index{2});
    QCOMPARE(test::resultMatrix(result, core::embedding::kWordVectors).rows(), Eigen::Index{60});
    QCOMPARE(test::resultMatrix(result, core::embedding::kLabelWeights).rows(), Eigen::Index{4});
    QCOMPARE(test::resultMatrix(result, core::embedding::kLatentCovariance).rows(), Eigen::Index{2});
    const auto& s = test::resultMatrix(result, core::embedding::kSingularValues);
    QVERIFY(s(0, 0) >= s(1, 0) && s(1, 0) > 0.0);
  }

  void labelSets() {
    const auto g = dcatpcaGenerate(300, 60, 4, 2, 7);
    const auto split = core::splitForDocumentCompletion(g.corpus, 0.25, 2);
    core::FitData data;
    data.corpus = &split.train;
    data.heldout = &split.heldout;
    data.trainDocuments = split.trainDocuments;
    data.fullDocumentCount = 300;
    const auto result = dcatpcaFit(data, {{"k", 2}});
    const auto& m = result.finalMetrics;
    QVERIFY(m.contains("heldout_micro_f1") && m.contains("baseline_micro_f1_frequency"));
    qInfo("dcatpca micro F1 %.3f AUC %.3f; logistic %.3f %.3f; frequencies %.3f", m["heldout_micro_f1"].get<double>(),
          m["heldout_auc"].get<double>(), m["baseline_micro_f1_logistic"].get<double>(),
          m["baseline_auc_logistic"].get<double>(), m["baseline_micro_f1_frequency"].get<double>());
    QVERIFY(m["heldout_auc"].get<double>() > 0.6);  // the frequencies' is 0.5
  }

  void stopsWhenAsked() {
    const auto g = dcatpcaGenerate(100, 30, 3, 1, 8);
    core::FitData data;
    data.corpus = &g.corpus;
    data.fullDocumentCount = 100;
    std::stop_source source;
    source.request_stop();
    const auto result = dcatpcaFit(data, {{"k", 2}}, source.get_token());
    QVERIFY(result.status == core::FitStatus::Cancelled);
  }

  void refusesASingleLabel() {
    auto g = dcatpcaGenerate(20, 30, 3, 1, 9);
    for (auto& l : g.corpus.labels) l = "same";
    core::FitData data;
    data.corpus = &g.corpus;
    data.fullDocumentCount = 20;
    QVERIFY_THROWS_EXCEPTION(std::exception, dcatpcaFit(data, {{"k", 2}}));
  }
};

LATENT_TEST_CASE(DcatpcaTest)
#include "tst_dcatpca.moc"
