// SPDX-License-Identifier: GPL-3.0-or-later
// LSA against a dense SVD of the same weighted matrix, the held-out residual worked out by hand,
// and its contract with the job runtime and the exports.
#include <QtTest>

#include <tbb/task_arena.h>

#include <cmath>
#include <sstream>

#include "core/data/synthetic_lda.hpp"
#include "core/eval/heldout.hpp"
#include "core/io/run_export.hpp"
#include "core/jobs/fit_job.hpp"
#include "core/models/topic/doc_word_counts.hpp"
#include "core/models/topic/lsa.hpp"
#include "core/results/embedding_results.hpp"
#include "core/store/corpus_store.hpp"
#include "core/store/run_store.hpp"
#include "core/util/dense_svd.hpp"
#include "core/util/errors.hpp"
#include "quiet_observer.hpp"
#include "result_matrix.hpp"
#include "test_case.hpp"
#include "test_datasets.hpp"
#include "test_support.hpp"

using namespace latent;

namespace {

core::SyntheticLda lsaCorpus(int documents, int vocabulary, std::uint64_t seed) {
  core::SyntheticLdaSpec spec;
  spec.topics = 4;
  spec.vocabulary = vocabulary;
  spec.documents = documents;
  spec.meanLength = 30;
  spec.alpha = 0.3;
  spec.beta = 0.1;
  spec.seed = seed;
  return core::generateLdaCorpus(spec);
}

core::FitResult fitLsa(const core::FitData& data, const nlohmann::json& options, std::stop_token stop = {}) {
  core::FitSettings settings;
  settings.options = core::resolveOptions(core::lsaModel().info(), options);
  test::QuietObserver observer;
  return core::lsaModel().make()->fit(data, settings, observer, stop);
}

core::FitData lsaWholeCorpus(const core::Corpus& corpus) {
  core::FitData data;
  data.corpus = &corpus;
  data.fullDocumentCount = static_cast<std::int64_t>(corpus.documentCount());
  return data;
}

// The weighted counts as a dense D x V matrix, idf as log(D / df) computed here from the counts.
Eigen::MatrixXd lsaDenseMatrix(const core::Corpus& corpus, bool tfidf) {
  Eigen::MatrixXd x = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(corpus.documentCount()),
                                            static_cast<Eigen::Index>(corpus.vocabularySize()));
  for (std::size_t d = 0; d < corpus.documentCount(); ++d)
    for (const auto w : corpus.document(d)) x(static_cast<Eigen::Index>(d), w) += 1.0;
  if (!tfidf) return x;
  for (Eigen::Index v = 0; v < x.cols(); ++v) {
    const double df = static_cast<double>((x.col(v).array() > 0).count());
    x.col(v) *= df > 0 ? std::log(static_cast<double>(x.rows()) / df) : 0.0;
  }
  return x;
}

}  // namespace

class LsaTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  // The singular values and vectors are those of a dense SVD of the same matrix, for a corpus with
  // more documents than words (the Gram matrix over words) and one with fewer (over documents).
  void matchesADenseSvd_data() {
    QTest::addColumn<int>("documents");
    QTest::addColumn<int>("vocabulary");
    QTest::addColumn<bool>("tfidf");
    QTest::newRow("more documents, tf-idf") << 120 << 50 << true;
    QTest::newRow("more words, tf-idf") << 40 << 90 << true;
    QTest::newRow("more words, counts") << 40 << 90 << false;
  }
  void matchesADenseSvd() {
    QFETCH(int, documents);
    QFETCH(int, vocabulary);
    QFETCH(bool, tfidf);
    const auto truth = lsaCorpus(documents, vocabulary, 5);
    const Eigen::Index K = 6;
    const auto result = fitLsa(lsaWholeCorpus(truth.corpus), {{"k", K}, {"weighting", tfidf ? "tfidf" : "count"}});
    QVERIFY(result.status == core::FitStatus::Converged);
    const Eigen::MatrixXd x = lsaDenseMatrix(truth.corpus, tfidf);
    const auto dense = core::thinSvd(x);
    const auto& s = test::resultMatrix(result, core::embedding::kSingularValues);
    const auto& w = test::resultMatrix(result, core::embedding::kWordVectors);
    const auto& u = test::resultMatrix(result, core::embedding::kDocVectors);
    QCOMPARE(s.rows(), K);
    for (Eigen::Index k = 0; k < K; ++k) {
      QVERIFY2(std::abs(s(k, 0) - dense.singularValues[k]) < 1e-8 * dense.singularValues[0],
               qPrintable(QString("s_%1: %2 against %3").arg(k).arg(s(k, 0)).arg(dense.singularValues[k])));
      // The same vectors up to sign, the sign the same on both sides, the largest word entry positive.
      const double sign = w.col(k).dot(dense.v.col(k)) > 0 ? 1.0 : -1.0;
      QVERIFY((w.col(k) - sign * dense.v.col(k)).cwiseAbs().maxCoeff() < 1e-6);
      QVERIFY((u.col(k) - sign * dense.u.col(k)).cwiseAbs().maxCoeff() < 1e-6);
      Eigen::Index top = 0;
      w.col(k).cwiseAbs().maxCoeff(&top);
      QVERIFY(w(top, k) > 0);
    }
    QVERIFY((w.transpose() * w - Eigen::MatrixXd::Identity(K, K)).cwiseAbs().maxCoeff() < 1e-9);
    // What the K components capture, as a share of the squared norm.
    const double captured = dense.singularValues.head(K).squaredNorm() / x.squaredNorm();
    QVERIFY(std::abs(result.finalMetrics["train_captured_share"].get<double>() - captured) < 1e-9);
  }

  // Held-out documents: their residual share and their document vectors, worked out densely.
  void heldoutDocumentsByHand() {
    const auto truth = lsaCorpus(150, 60, 9);
    const auto split = core::splitForDocumentCompletion(truth.corpus, 0.2, 3);
    core::FitData data;
    data.corpus = &split.train;
    data.heldout = &split.heldout;
    data.trainDocuments = split.trainDocuments;
    data.fullDocumentCount = static_cast<std::int64_t>(truth.corpus.documentCount());
    const auto result = fitLsa(data, {{"k", 5}});
    const Eigen::MatrixXd train = lsaDenseMatrix(split.train, true);
    // idf from the training documents, applied to the held-out ones.
    Eigen::VectorXd idf(train.cols());
    const Eigen::MatrixXd counts = lsaDenseMatrix(split.train, false);
    for (Eigen::Index v = 0; v < counts.cols(); ++v) {
      const double df = static_cast<double>((counts.col(v).array() > 0).count());
      idf[v] = df > 0 ? std::log(static_cast<double>(counts.rows()) / df) : 0.0;
    }
    const auto& w = test::resultMatrix(result, core::embedding::kWordVectors);
    const auto& s = test::resultMatrix(result, core::embedding::kSingularValues);
    const auto& u = test::resultMatrix(result, core::embedding::kDocVectors);
    QCOMPARE(u.rows(), static_cast<Eigen::Index>(truth.corpus.documentCount()));
    double residual = 0.0, total = 0.0;
    for (std::size_t i = 0; i < split.heldout.size(); ++i) {
      const auto d = split.heldout.documents[i];
      Eigen::RowVectorXd x = Eigen::RowVectorXd::Zero(train.cols());
      for (const auto v : truth.corpus.document(static_cast<std::size_t>(d))) x[v] += idf[v];
      const Eigen::RowVectorXd projected = x * w;
      residual += (x - projected * w.transpose()).squaredNorm();
      total += x.squaredNorm();
      QVERIFY((u.row(d) - projected.cwiseQuotient(s.col(0).transpose())).cwiseAbs().maxCoeff() < 1e-9);
    }
    QVERIFY(std::abs(result.finalMetrics[core::embedding::kHeldoutResidual].get<double>() - residual / total) < 1e-10);
    // Training documents keep their own rows of U: X W = U diag(s).
    const Eigen::Index first = split.trainDocuments[0];
    QVERIFY((train.row(0) * w - u.row(first).cwiseProduct(s.col(0).transpose())).cwiseAbs().maxCoeff() < 1e-8);
  }

  void sameNumbersAnyThreadCount() {
    const auto truth = lsaCorpus(300, 80, 2);
    Eigen::MatrixXd first;
    for (const int threads : {1, 2}) {
      tbb::task_arena arena(threads);
      core::FitResult result;
      arena.execute([&] { result = fitLsa(lsaWholeCorpus(truth.corpus), {{"k", 8}}); });
      const auto& w = test::resultMatrix(result, core::embedding::kWordVectors);
      if (first.size() == 0)
        first = w;
      else
        QVERIFY(w == first);
    }
  }

  void tooManyComponentsAreRefused() {
    const auto truth = lsaCorpus(30, 40, 1);
    QVERIFY_THROWS_EXCEPTION(core::UsageError, fitLsa(lsaWholeCorpus(truth.corpus), {{"k", 30}}));
  }

  void stopBeforeStartKeepsNothing() {
    const auto truth = lsaCorpus(60, 40, 1);
    std::stop_source stop;
    stop.request_stop();
    const auto result = fitLsa(lsaWholeCorpus(truth.corpus), {{"k", 3}}, stop.get_token());
    QVERIFY(result.status == core::FitStatus::Cancelled);
    QVERIFY(result.matrices.empty());
  }

  // Through the job and the project, and out through the three exports.
  void endToEndThroughTheProjectAndExports() {
    test::Scratch scratch;
    const auto file = scratch.path("p.latent");
    const auto truth = lsaCorpus(80, 50, 4);
    {
      core::Project p(file);
      test::addCorpusOf(p, "toy", truth.corpus);
    }
    core::RunRequest request;
    request.model = "lsa";
    request.dataset = "toy";
    request.options = {{"k", 4}};
    request.seed = 4;
    request.heldout = 0.1;
    const auto outcome = core::runFit(file, request, nullptr, {});
    QVERIFY(outcome.run.status == core::RunStatus::Finished);
    core::Project p(file);
    const auto stored = core::loadRun(p, outcome.run.id);
    const double residual = stored.finalMetrics[core::embedding::kHeldoutResidual].get<double>();
    QVERIFY(residual > 0.0 && residual < 1.0);
    const auto count = [&](const char* what, const char* header) {
      std::ostringstream csv;
      core::exportRun(p, outcome.run.id, what, csv);
      std::istringstream lines(csv.str());
      std::string line;
      std::getline(lines, line);
      if (line != header) return -1;
      int rows = 0;
      double shares = 0.0;
      while (std::getline(lines, line)) {
        ++rows;
        if (std::string(what) == "singular-values") shares += std::stod(line.substr(line.rfind(',') + 1));
      }
      if (std::string(what) == "singular-values" &&
          std::abs(shares - stored.finalMetrics["train_captured_share"].get<double>()) > 1e-12)
        return -2;
      return rows;
    };
    const auto vocabulary = core::loadVocabulary(p, p.resolveDataset("toy").id).size();
    QCOMPARE(count("singular-values", "component,singular_value,share"), 4);
    QCOMPARE(count("word-embeddings", "word,component,value"), static_cast<int>(vocabulary) * 4);
    QCOMPARE(count("doc-embeddings", "document,component,value"), 80 * 4);
  }
};

LATENT_TEST_CASE(LsaTest)
#include "tst_lsa.moc"
