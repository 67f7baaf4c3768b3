// SPDX-License-Identifier: GPL-3.0-or-later
// The linear baselines on the words (core/eval/linear_baselines.hpp) on corpora generated so that
// the truth is known: a response that is a linear function of the word features (ridge should
// reach the noise floor), classes and label sets that plant their own words (the logistic
// regressions should separate them, far above the trivial baselines); missing truths left out;
// the same seed, the same predictions; and the reduced (dual) features equal to the words in
// every inner product that a linear fit uses.
#include <QtTest>

#include <cmath>
#include <limits>

#include "core/data/document_fields.hpp"
#include "core/eval/linear_baselines.hpp"
#include "core/eval/response_metrics.hpp"
#include "core/eval/word_features.hpp"
#include "core/util/random.hpp"
#include "test_case.hpp"

using namespace latent;

namespace {

// A document of `length` tokens drawn from unnormalised word weights.
std::vector<std::int32_t> baselineDrawDocument(core::Rng& rng, const std::vector<double>& weights, int length) {
  std::vector<double> cumulative(weights.size());
  double total = 0.0;
  for (std::size_t w = 0; w < weights.size(); ++w) cumulative[w] = total += weights[w];
  std::vector<std::int32_t> tokens;
  for (int t = 0; t < length; ++t) {
    const double u = rng.uniform() * total;
    const auto w = std::upper_bound(cumulative.begin(), cumulative.end(), u) - cumulative.begin();
    tokens.push_back(
        static_cast<std::int32_t>(std::min<std::ptrdiff_t>(w, static_cast<std::ptrdiff_t>(weights.size()) - 1)));
  }
  return tokens;
}

core::Corpus baselineEmptyCorpus(int words) {
  core::Corpus c;
  for (int w = 0; w < words; ++w) c.words.push_back("w" + std::to_string(w));
  return c;
}

// Documents with Dirichlet(0.5) word proportions; the response is linear in their word features.
struct LinearResponseData {
  core::Corpus train, test;
  std::vector<double> trainY, testY;
};

LinearResponseData linearResponseData(int words, int trainDocuments, int testDocuments, int length, int effects,
                                      double noise, std::uint64_t seed) {
  core::Rng rng(seed);
  LinearResponseData data{baselineEmptyCorpus(words), baselineEmptyCorpus(words), {}, {}};
  Eigen::VectorXd beta = Eigen::VectorXd::Zero(words);
  for (int w = 0; w < effects; ++w) beta[w] = 3.0 * rng.normal();
  for (int d = 0; d < trainDocuments + testDocuments; ++d) {
    std::vector<double> weights(static_cast<std::size_t>(words));
    for (auto& x : weights) x = rng.gamma(0.5);
    auto& corpus = d < trainDocuments ? data.train : data.test;
    corpus.addDocument("d" + std::to_string(d), "", baselineDrawDocument(rng, weights, length));
  }
  const Eigen::VectorXd trainFit = core::wordFeatures(data.train, static_cast<std::size_t>(words)) * beta;
  const Eigen::VectorXd testFit = core::wordFeatures(data.test, static_cast<std::size_t>(words)) * beta;
  for (const double f : trainFit) data.trainY.push_back(1.0 + f + noise * rng.normal());
  for (const double f : testFit) data.testY.push_back(1.0 + f + noise * rng.normal());
  return data;
}

// Documents whose label set (one label each when `single`) plants each label's own words: a
// token is one of its labels' words with probability `signal`, else a shared word.
struct PlantedLabelData {
  core::Corpus train, test;
  std::vector<std::vector<std::int32_t>> trainSets, testSets;
};

PlantedLabelData plantedLabelData(int labels, int wordsPerLabel, int sharedWords, int trainDocuments, int testDocuments,
                                  int length, double signal, bool single, std::uint64_t seed) {
  core::Rng rng(seed);
  const int words = labels * wordsPerLabel + sharedWords;
  PlantedLabelData data{baselineEmptyCorpus(words), baselineEmptyCorpus(words), {}, {}};
  for (int d = 0; d < trainDocuments + testDocuments; ++d) {
    std::vector<std::int32_t> set;
    if (single) {
      set.push_back(static_cast<std::int32_t>(rng.below(static_cast<std::uint64_t>(labels))));
    } else {
      for (int l = 0; l < labels; ++l)
        if (rng.uniform() < 0.35) set.push_back(l);
      if (set.empty()) set.push_back(static_cast<std::int32_t>(rng.below(static_cast<std::uint64_t>(labels))));
    }
    std::vector<double> weights(static_cast<std::size_t>(words), 0.0);
    for (const auto l : set)
      for (int w = 0; w < wordsPerLabel; ++w)
        weights[static_cast<std::size_t>(l * wordsPerLabel + w)] = signal / (wordsPerLabel * set.size());
    for (int w = labels * wordsPerLabel; w < words; ++w)
      weights[static_cast<std::size_t>(w)] = (1.0 - signal) / sharedWords;
    auto& corpus = d < trainDocuments ? data.train : data.test;
    corpus.addDocument("d" + std::to_string(d), "", baselineDrawDocument(rng, weights, length));
    (d < trainDocuments ? data.trainSets : data.testSets).push_back(set);
  }
  return data;
}

std::vector<std::int32_t> firstLabels(const std::vector<std::vector<std::int32_t>>& sets) {
  std::vector<std::int32_t> codes;
  for (const auto& s : sets) codes.push_back(s.front());
  return codes;
}

}  // namespace

class LinearBaselinesTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void ridgeReachesNoiseFloor() {
    // 40 words, 200 training documents: few words, the sparse (primal) form.
    const double noise = 0.05;
    const auto data = linearResponseData(40, 200, 100, 80, 40, noise, 11);
    const auto ridge = core::scoreNumeric(core::ridgePredictions(data.train, data.trainY, data.test, 1), data.testY);
    const auto mean = core::scoreNumeric(core::meanPredictions(data.trainY, data.test.documentCount()), data.testY);
    QCOMPARE(ridge.count, std::int64_t{100});
    QVERIFY2(ridge.rmse < 1.5 * noise, qPrintable(QString::number(ridge.rmse)));
    QVERIFY(ridge.rmse > 0.5 * noise);  // nothing predicts the noise
    QVERIFY(ridge.r2 > 0.95);
    QVERIFY(std::abs(mean.r2) < 0.1);
  }

  void bothFormsGiveTheSameFit() {
    // The fit in the span of the training documents (the dual) is the fit on the words.
    const auto numeric = linearResponseData(300, 80, 30, 100, 300, 0.2, 12);
    const Eigen::VectorXd ridgeWords =
        core::ridgePredictions(numeric.train, numeric.trainY, numeric.test, 2, core::BaselineForm::Words);
    const Eigen::VectorXd ridgeSpan =
        core::ridgePredictions(numeric.train, numeric.trainY, numeric.test, 2, core::BaselineForm::Span);
    QVERIFY2((ridgeWords - ridgeSpan).cwiseAbs().maxCoeff() < 1e-6,
             qPrintable(QString::number((ridgeWords - ridgeSpan).cwiseAbs().maxCoeff())));

    const auto labelled = plantedLabelData(3, 20, 200, 80, 30, 60, 0.1, false, 22);
    const auto codes = firstLabels(labelled.trainSets);
    const Eigen::MatrixXd softmaxWords =
        core::logisticProbabilities(labelled.train, codes, 3, labelled.test, 2, core::BaselineForm::Words);
    const Eigen::MatrixXd softmaxSpan =
        core::logisticProbabilities(labelled.train, codes, 3, labelled.test, 2, core::BaselineForm::Span);
    QVERIFY2((softmaxWords - softmaxSpan).cwiseAbs().maxCoeff() < 1e-4,
             qPrintable(QString::number((softmaxWords - softmaxSpan).cwiseAbs().maxCoeff())));
    const Eigen::MatrixXd binaryWords =
        core::oneVsRestScores(labelled.train, labelled.trainSets, 3, labelled.test, 2, core::BaselineForm::Words);
    const Eigen::MatrixXd binarySpan =
        core::oneVsRestScores(labelled.train, labelled.trainSets, 3, labelled.test, 2, core::BaselineForm::Span);
    QVERIFY2((binaryWords - binarySpan).cwiseAbs().maxCoeff() < 1e-4,
             qPrintable(QString::number((binaryWords - binarySpan).cwiseAbs().maxCoeff())));
  }

  void reducedFeaturesKeepInnerProducts() {
    const auto data = linearResponseData(300, 30, 10, 200, 0, 0.0, 13);
    const auto x = core::wordFeatures(data.train, 300);
    const auto xTest = core::wordFeatures(data.test, 300);
    for (Eigen::Index d = 0; d < x.rows(); ++d) QVERIFY(std::abs(x.row(d).norm() - 1.0) < 1e-12);
    const auto reduced = core::reduceWordFeatures(x);
    const Eigen::MatrixXd kernel = Eigen::MatrixXd(x * x.transpose());
    const Eigen::MatrixXd cross = Eigen::MatrixXd(xTest * x.transpose());
    QVERIFY((reduced.train * reduced.train.transpose() - kernel).cwiseAbs().maxCoeff() < 1e-10);
    QVERIFY((reduced.map(x, xTest) * reduced.train.transpose() - cross).cwiseAbs().maxCoeff() < 1e-10);
  }

  void ridgeLeavesOutMissingTruth() {
    const auto data = linearResponseData(40, 60, 20, 50, 40, 0.1, 14);
    core::Corpus withExtra = data.train;
    withExtra.addDocument("extra", "", data.test.document(0));
    std::vector<double> y = data.trainY;
    y.push_back(std::numeric_limits<double>::quiet_NaN());
    const Eigen::VectorXd a = core::ridgePredictions(data.train, data.trainY, data.test, 3);
    const Eigen::VectorXd b = core::ridgePredictions(withExtra, y, data.test, 3);
    QCOMPARE(a, b);
    QCOMPARE(core::ridgePredictions(data.train, data.trainY, data.test, 3), a);  // same seed, same answer
  }

  void logisticSeparatesPlantedClasses_data() {
    QTest::addColumn<int>("wordsPerClass");
    QTest::addColumn<int>("sharedWords");
    QTest::addColumn<int>("length");
    QTest::addColumn<bool>("reduced");
    QTest::newRow("sparse words") << 10 << 30 << 40 << false;
    QTest::newRow("span of the documents") << 100 << 1500 << 300 << true;
  }

  void logisticSeparatesPlantedClasses() {
    QFETCH(int, wordsPerClass);
    QFETCH(int, sharedWords);
    QFETCH(int, length);
    QFETCH(bool, reduced);
    const auto data = plantedLabelData(3, wordsPerClass, sharedWords, 120, 90, length, 0.15, true, 21);
    QCOMPARE(core::reducingWordFeaturesPays(core::wordFeatures(data.train, data.train.vocabularySize())), reduced);
    const auto trainCodes = firstLabels(data.trainSets), testCodes = firstLabels(data.testSets);
    const Eigen::MatrixXd p = core::logisticProbabilities(data.train, trainCodes, 3, data.test, 5);
    QCOMPARE(p.rows(), Eigen::Index{90});
    QVERIFY((p.rowwise().sum().array() - 1.0).abs().maxCoeff() < 1e-12);
    const auto logistic = core::scoreClasses(p, testCodes);
    const auto majority = core::scoreClasses(core::majorityProbabilities(trainCodes, 3, 90), testCodes);
    QVERIFY2(logistic.accuracy > 0.9, qPrintable(QString::number(logistic.accuracy)));
    QVERIFY(logistic.auc > 0.97);
    QVERIFY(logistic.logLoss < 0.5 * majority.logLoss);
    QVERIFY(majority.accuracy < 0.5);
    QCOMPARE(core::logisticProbabilities(data.train, trainCodes, 3, data.test, 5), p);
  }

  void oneVsRestFindsPlantedLabels() {
    const auto data = plantedLabelData(4, 10, 40, 200, 100, 60, 0.3, false, 31);
    const Eigen::MatrixXd s = core::oneVsRestScores(data.train, data.trainSets, 4, data.test, 7);
    const auto logistic = core::scoreLabelSets(s, data.testSets);
    const auto frequency = core::scoreLabelSets(core::labelFrequencyScores(data.trainSets, 4, 100), data.testSets);
    QVERIFY2(logistic.microF1 > 0.8, qPrintable(QString::number(logistic.microF1)));
    QVERIFY(logistic.auc > 0.9);
    QVERIFY(logistic.microF1 > frequency.microF1 + 0.2);
    QVERIFY(std::abs(frequency.auc - 0.5) < 1e-12);  // the same scores for every document
  }

  void baselineKeysForALabelField() {
    auto data = plantedLabelData(3, 10, 30, 60, 30, 40, 0.3, false, 41);
    for (auto* part : {&data.train, &data.test}) {
      const auto& sets = part == &data.train ? data.trainSets : data.testSets;
      part->labelSeparator = ";";
      for (const auto& set : sets) {
        std::string text;
        for (const auto l : set) text += (text.empty() ? "" : ";") + std::string(1, static_cast<char>('a' + l));
        part->labels.push_back(text);
      }
    }
    const auto field = core::documentField(data.train, "label");
    QCOMPARE(field.kind, core::FieldKind::LabelSets);
    nlohmann::json metrics;
    core::addBaselineScores(metrics, data.train, field, data.test, 1, true);
    for (const char* key : {"baseline_micro_f1_frequency", "baseline_micro_f1_logistic", "baseline_macro_f1_logistic",
                            "baseline_auc_logistic", "baseline_precision_at_1_logistic"})
      QVERIFY2(metrics.contains(key), key);
    QVERIFY(metrics["baseline_micro_f1_logistic"].get<double>() > metrics["baseline_micro_f1_frequency"].get<double>());
  }
};

LATENT_TEST_CASE(LinearBaselinesTest)
#include "tst_linear_baselines.moc"
