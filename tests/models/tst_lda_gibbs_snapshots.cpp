// SPDX-License-Identifier: GPL-3.0-or-later
// lda-gibbs's snapshots are handed over sparse (the topics' smoothing and the (topic, word) pairs
// that hold tokens) and stand for exactly the dense phi = (n_kw + beta) / (n_k + V beta) of the
// counts at their sweep; taking them leaves the chain as it was.
#include <QtTest>

#include "core/data/synthetic_lda.hpp"
#include "lda_gibbs_test_support.hpp"
#include "test_case.hpp"

using namespace latent;

namespace {

core::Corpus snapshotCorpus() {
  core::SyntheticLdaSpec spec;
  spec.topics = 6;
  spec.vocabulary = 300;
  spec.documents = 80;
  spec.meanLength = 30;
  spec.seed = 11;
  return core::generateLdaCorpus(spec).corpus;
}

std::vector<std::int32_t> allTopics(const std::vector<std::vector<std::int32_t>>& perDocument) {
  std::vector<std::int32_t> out;
  for (const auto& d : perDocument) out.insert(out.end(), d.begin(), d.end());
  return out;
}

}  // namespace

class LdaGibbsSnapshotTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void snapshotsAreSparseAndExact() {
    const auto corpus = snapshotCorpus();
    const auto split = test::wholeCorpus(corpus);
    const int K = 6;
    const double beta = 0.05;
    for (const char* sampler : {"sparse", "wordwise", "alias", "warp"}) {
      // The last sweep is a snapshot's, so the result's assignments are the snapshot's.
      const nlohmann::json options = {{"k", K},       {"iterations", 20},    {"sampler", sampler},
                                      {"beta", beta}, {"optimize_every", 0}, {"snapshot_every", 10},
                                      {"restarts", 1}};
      const auto fit = test::fitLdaGibbs(split, 80, options, 5, 2);
      QCOMPARE(fit.observer.snapshots.size(), std::size_t{2});
      const auto& snapshot = *fit.observer.snapshots.back();
      QCOMPARE(snapshot.iteration, std::int64_t{20});
      QVERIFY(snapshot.matrices.empty());  // no dense copy
      QCOMPARE(snapshot.sparseMatrices.size(), std::size_t{1});
      QCOMPARE(snapshot.sparseMatrices[0].name, std::string("topic_word"));
      const auto& sparse = snapshot.sparseMatrices[0].values;
      QCOMPARE(sparse.rows, Eigen::Index{K});
      QCOMPARE(sparse.cols, static_cast<Eigen::Index>(corpus.vocabularySize()));

      const auto counts = test::bruteCounts(split.train, allTopics(fit.result.tokenTopics), K);
      QCOMPARE(sparse.entries(), static_cast<std::size_t>((counts.wordTopic.array() > 0).count()));
      const double V = static_cast<double>(corpus.vocabularySize());
      Eigen::MatrixXd expected(K, static_cast<Eigen::Index>(V));
      for (int k = 0; k < K; ++k) {
        const double inverse = 1.0 / (static_cast<double>(counts.topic[k]) + V * beta);
        for (int w = 0; w < expected.cols(); ++w) {
          expected(k, w) = beta * inverse;
          if (counts.wordTopic(w, k) > 0) expected(k, w) += static_cast<double>(counts.wordTopic(w, k)) * inverse;
        }
      }
      // Bit for bit: what the dense snapshot held before.
      QVERIFY2(sparse.toDense() == expected, sampler);
    }
  }

  void snapshotsLeaveTheChainAsItWas() {
    const auto corpus = snapshotCorpus();
    const auto split = test::wholeCorpus(corpus);
    for (const char* sampler : {"sparse", "warp"}) {
      nlohmann::json options = {
          {"k", 6}, {"iterations", 25}, {"sampler", sampler}, {"snapshot_every", 0}, {"restarts", 1}};
      const auto none = test::fitLdaGibbs(split, 80, options, 3, 2);
      options["snapshot_every"] = 3;
      const auto some = test::fitLdaGibbs(split, 80, options, 3, 2);
      QCOMPARE(some.observer.snapshots.size(), std::size_t{8});
      QVERIFY(none.observer.snapshots.empty());
      QVERIFY(none.result.tokenTopics == some.result.tokenTopics);
      QCOMPARE(none.result.matrices.size(), some.result.matrices.size());
      for (std::size_t i = 0; i < none.result.matrices.size(); ++i)
        QVERIFY(none.result.matrices[i].values == some.result.matrices[i].values);
    }
  }
};

LATENT_TEST_CASE(LdaGibbsSnapshotTest)
#include "tst_lda_gibbs_snapshots.moc"
