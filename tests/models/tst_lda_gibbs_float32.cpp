// SPDX-License-Identifier: GPL-3.0-or-later
// lda-gibbs with its large result matrices held as floats (matrix_precision.hpp): the policy's
// threshold decides exactly, the float results are the double path's rounded, and the metrics
// are those of the rounded topics. The threshold is lowered to reach the float
// path with a corpus small enough for a unit test.
#include <QtTest>

#include <cmath>
#include <stdexcept>
#include <string>

#include "core/data/matrix_precision.hpp"
#include "core/data/synthetic_lda.hpp"
#include "core/eval/left_to_right.hpp"
#include "core/eval/topic_evaluation.hpp"
#include "core/models/topic/lda_gibbs.hpp"
#include "core/models/topic/topic_model_support.hpp"
#include "lda_gibbs_test_support.hpp"
#include "test_case.hpp"

using namespace latent;

namespace {

// K = 5 topics over V = 120 words, 120 documents: topic_word and doc_topic both hold 600 values,
// 4,800 bytes as doubles.
core::Corpus float32Corpus() {
  core::SyntheticLdaSpec spec;
  spec.topics = 5;
  spec.vocabulary = 120;
  spec.documents = 120;
  spec.meanLength = 40;
  spec.seed = 8;
  return core::generateLdaCorpus(spec).corpus;
}

const core::NamedMatrix& matrixOf(const core::FitResult& result, const char* name) {
  const auto* m = core::findNamedMatrix(result.matrices, name);
  if (m == nullptr) throw std::runtime_error(std::string("no matrix ") + name);
  return *m;
}

double relative(double a, double b) { return std::abs(a - b) / std::abs(b); }

// The final held-out metrics lda-gibbs reports, computed on `topicWord` (dense) for a fit of
// `split` (float32Corpus's 120 documents) with seed 7.
nlohmann::json finalMetricsOf(const core::CorpusSplit& split, const Eigen::MatrixXd& topicWord,
                              const Eigen::VectorXd& alpha) {
  core::FitData data;
  data.corpus = &split.train;
  data.heldout = &split.heldout;
  data.trainDocuments = split.trainDocuments;
  data.fullDocumentCount = 120;
  nlohmann::json metrics;
  core::topic::addFinalHeldoutMetrics(metrics, data, topicWord, core::gibbsFoldIn(topicWord, alpha), 7);
  return metrics;
}

}  // namespace

class LdaGibbsFloat32Test : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void thresholdDecidesExactly() {
    const auto corpus = float32Corpus();
    const auto split = test::wholeCorpus(corpus);
    const nlohmann::json options = {{"k", 5}, {"iterations", 4}, {"restarts", 1}};
    // 600 values: doubles at 4,800 bytes (not above), floats at 4,799.
    const auto at = test::fitLdaGibbs(split, 120, options, 3, 1, 1000000, {}, 0, 4800);
    QVERIFY(!matrixOf(at.result, "topic_word").isFloat());
    QVERIFY(!matrixOf(at.result, "doc_topic").isFloat());
    const auto above = test::fitLdaGibbs(split, 120, options, 3, 1, 1000000, {}, 0, 4799);
    // Above it topic_word comes sparse (largeTopicsComeSparse), its values floats'.
    QVERIFY(core::findNamedMatrix(above.result.matrices, "topic_word") == nullptr);
    QCOMPARE(above.result.sparseMatrices.size(), std::size_t{1});
    const auto& phi = above.result.sparseMatrices.front().values;
    QVERIFY(phi.toDense().cast<float>().cast<double>() == phi.toDense());
    QVERIFY(matrixOf(above.result, "doc_topic").isFloat());
    QVERIFY(!matrixOf(above.result, "alpha").isFloat());  // other matrices stay double at any size
    QCOMPARE(phi.rows, Eigen::Index{5});
    QCOMPARE(phi.cols, Eigen::Index{120});
    QVERIFY(core::isFloat32Matrix("topic_word", 1, 601, 4800));
    QVERIFY(!core::isFloat32Matrix("topic_word", 1, 600, 4800));
    QVERIFY(!core::isFloat32Matrix("alpha", 1, 601, 4800));
  }

  // Large topics come sparse (each topic's fill and the words' topics that held them), also for a
  // run that asks for the left-to-right estimator, which reads them a column at a time: the values
  // of the double path's phi rounded to floats, from the same chain, and every final score the one
  // of that dense matrix.
  void largeTopicsComeSparse() {
    const auto corpus = float32Corpus();
    const auto split = core::splitForDocumentCompletion(corpus, 0.2, 5);
    const nlohmann::json options = {
        {"k", 5}, {"iterations", 30}, {"restarts", 1}, {"left_to_right_particles", 4}, {"left_to_right_documents", 6}};
    const auto sparse = test::fitLdaGibbs(split, 120, options, 7, 1, 10, {}, 0, 0);
    const auto doubles = test::fitLdaGibbs(split, 120, options, 7, 1, 10);
    QVERIFY(sparse.result.tokenTopics == doubles.result.tokenTopics);
    QVERIFY(core::findNamedMatrix(sparse.result.matrices, "topic_word") == nullptr);
    QCOMPARE(sparse.result.sparseMatrices.size(), std::size_t{1});
    QCOMPARE(sparse.result.sparseMatrices.front().name, std::string("topic_word"));
    const auto& filled = sparse.result.sparseMatrices.front().values;
    const Eigen::MatrixXd widened = filled.toDense();
    QVERIFY(widened == matrixOf(doubles.result, "topic_word").values.cast<float>().cast<double>());
    QVERIFY(filled.entries() < static_cast<std::size_t>(widened.size()));  // some words kept to the fill
    const Eigen::VectorXd alpha = matrixOf(sparse.result, "alpha").values.transpose();
    const auto expected = finalMetricsOf(split, widened, alpha);
    const auto& m = sparse.result.finalMetrics;
    for (const char* key : {"heldout_perplexity", "heldout_perplexity_full_folding_in"})
      QVERIFY2(m[key].get<double>() == expected[key].get<double>(), key);
    const auto leftToRight = core::leftToRightHeldout(split.heldout, widened, alpha, 4, 6, 7);
    QCOMPARE(m["heldout_perplexity_left_to_right"].get<double>(), leftToRight.perplexity);
    QCOMPARE(m["heldout_perplexity_left_to_right_completion"].get<double>(), leftToRight.completionPerplexity);
    QCOMPARE(m["log_joint"].get<double>(), doubles.result.finalMetrics["log_joint"].get<double>());
  }

  void floatResultsAreTheDoublesRounded() {
    const auto corpus = float32Corpus();
    const auto split = core::splitForDocumentCompletion(corpus, 0.2, 5);
    const nlohmann::json options = {{"k", 5},
                                    {"iterations", 30},
                                    {"restarts", 1},
                                    {"snapshot_every", 10},
                                    {"left_to_right_particles", 4},
                                    {"left_to_right_documents", 6}};
    const auto doubles = test::fitLdaGibbs(split, 120, options, 7, 1, 10);
    const auto floats = test::fitLdaGibbs(split, 120, options, 7, 1, 10, {}, 0, 0);
    // The chain does not depend on how its results are held.
    QVERIFY(doubles.result.tokenTopics == floats.result.tokenTopics);

    // Large topics come sparse (largeTopicsComeSparse), with floats' values.
    const auto& phi = matrixOf(doubles.result, "topic_word");
    QVERIFY(!phi.isFloat() && core::findNamedMatrix(floats.result.matrices, "topic_word") == nullptr);
    QCOMPARE(floats.result.sparseMatrices.size(), std::size_t{1});
    const Eigen::MatrixXf phiF = floats.result.sparseMatrices.front().values.toDenseFloats();
    QVERIFY(phiF == phi.values.cast<float>());
    for (Eigen::Index k = 0; k < phiF.rows(); ++k) QVERIFY(std::abs(phiF.row(k).cast<double>().sum() - 1.0) < 1e-5);

    // doc_topic: the training rows rounded from the same values; the held-out rows are folded
    // in on phi as floats, whose draws may part from the doubles' only where a uniform falls
    // between the two cumulative sums.
    const auto& theta = matrixOf(doubles.result, "doc_topic");
    const auto& thetaF = matrixOf(floats.result, "doc_topic");
    QVERIFY(thetaF.isFloat());
    QCOMPARE(thetaF.rows(), Eigen::Index{120});
    for (const auto d : split.trainDocuments) QVERIFY(thetaF.floats.row(d) == theta.values.row(d).cast<float>());
    for (const auto d : split.heldout.documents) {
      QVERIFY(std::abs(thetaF.floats.row(d).cast<double>().sum() - 1.0) < 1e-5);
      QVERIFY((thetaF.floats.row(d).cast<double>() - theta.values.row(d)).cwiseAbs().maxCoeff() < 0.1);
    }

    // The metrics read through the floats are those of phi widened to doubles, exactly: every
    // sum is formed in doubles from the same values in the same order.
    const auto& m = doubles.result.finalMetrics;
    const auto& mF = floats.result.finalMetrics;
    const Eigen::MatrixXd widened = phiF.cast<double>();
    const Eigen::VectorXd alpha = matrixOf(floats.result, "alpha").values.transpose();
    const auto expected = finalMetricsOf(split, widened, alpha);
    QCOMPARE(mF["heldout_perplexity"].get<double>(), expected["heldout_perplexity"].get<double>());
    QCOMPARE(mF["heldout_perplexity_full_folding_in"].get<double>(),
             expected["heldout_perplexity_full_folding_in"].get<double>());
    QCOMPARE(mF["heldout_perplexity_left_to_right"].get<double>(),
             core::leftToRightHeldout(split.heldout, widened, alpha, 4, 6, 7).perplexity);
    // Against the double path they differ by more than a float's rounding only where the
    // stochastic fold-ins draw differently: a uniform falling between phi's and its rounding's
    // cumulative sums sends a token to another topic, and the document's chain on from there.
    for (const char* key :
         {"heldout_perplexity", "heldout_perplexity_full_folding_in", "heldout_perplexity_left_to_right"}) {
      QVERIFY2(m.contains(key) && mF.contains(key), key);
      const double r = relative(mF[key].get<double>(), m[key].get<double>());
      QVERIFY2(r < 1e-3, qPrintable(QString("%1: relative difference %2").arg(key).arg(r)));
    }
    QCOMPARE(mF["log_joint"].get<double>(), m["log_joint"].get<double>());
    // The reports during the chain, too.
    QCOMPARE(floats.observer.reports.size(), doubles.observer.reports.size());
    for (std::size_t i = 0; i < doubles.observer.reports.size(); ++i) {
      const auto& a = doubles.observer.reports[i].heldout;
      const auto& b = floats.observer.reports[i].heldout;
      QCOMPARE(a.has_value(), b.has_value());
      if (a) QVERIFY(relative(*b, *a) < 1e-3);
    }
    // Snapshots are sparse and exact whatever the threshold (LdaGibbsSnapshotTest): the float
    // path hands over the same topics as the double path.
    QCOMPARE(floats.observer.snapshots.size(), doubles.observer.snapshots.size());
    QVERIFY(!floats.observer.snapshots.empty());
    for (std::size_t i = 0; i < floats.observer.snapshots.size(); ++i) {
      const auto& single = floats.observer.snapshots[i]->sparseMatrices;
      const auto& exact = doubles.observer.snapshots[i]->sparseMatrices;
      QVERIFY(!single.empty() && single.size() == exact.size());
      QVERIFY(single.front().values.toDense() == exact.front().values.toDense());
    }
  }
};

LATENT_TEST_CASE(LdaGibbsFloat32Test)
#include "tst_lda_gibbs_float32.moc"
