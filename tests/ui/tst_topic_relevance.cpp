// SPDX-License-Identifier: GPL-3.0-or-later
// The topic views over topics held sparse (core/data/topic_word_table.hpp), as large lda-gibbs runs
// are read: every relevance ranking and rank of a word is the one the dense matrix gives, field for
// field, and a run stored sparse (with doc_topic as floats) is read so; and the Topic map refuses a map too large to
// compute, saying why, without starting it.
#include <QLabel>
#include <QtTest>

#include <random>
#include <variant>

#include "core/data/filled_sparse_matrix.hpp"
#include "core/store/run_store.hpp"
#include "sparse_topics_run.hpp"
#include "test_case.hpp"
#include "test_support.hpp"
#include "ui/runs/topics/intertopic_map_data.hpp"
#include "ui/runs/topics/intertopic_map_view.hpp"
#include "ui/runs/topics/topic_relevance.hpp"
#include "ui/runs/topics/topic_run_data.hpp"

using namespace latent;

namespace {

// K topics over V words as lda-gibbs leaves them: each topic's fill, and a few words per topic held
// at other values, some of them below the fill or tied with one another.
core::FilledSparseMatrix sparseTopics(int K, int V, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  core::FilledSparseMatrix m;
  m.rows = K;
  m.cols = V;
  for (int k = 0; k < K; ++k) m.rowFill.push_back(1e-4 * (1 + k));
  m.columnStarts.push_back(0);
  for (int w = 0; w < V; ++w) {
    for (int k = 0; k < K; ++k)
      if (unit(random) < 0.15) {
        m.rowIndices.push_back(k);
        m.values.push_back(w % 17 == 0 ? 0.02 : unit(random) < 0.1 ? 0.5e-4 : 1e-3 + 0.05 * unit(random));
      }
    m.columnStarts.push_back(static_cast<std::int64_t>(m.values.size()));
  }
  return m;
}

std::shared_ptr<ui::TopicRunData> fillOnlyTopics(int K, int V) {
  core::FilledSparseMatrix m;
  m.rows = K;
  m.cols = V;
  m.rowFill.assign(static_cast<std::size_t>(K), 1.0 / V);
  m.columnStarts.assign(static_cast<std::size_t>(V) + 1, 0);
  auto data = std::make_shared<ui::TopicRunData>();
  data->topicWord = core::TopicWordTable(m);
  data->shares.assign(static_cast<std::size_t>(K), 1.0 / K);
  data->wordCounts.assign(static_cast<std::size_t>(V), 1);
  return data;
}

}  // namespace

class TestTopicRelevance : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void sparseTopicsRankAsTheirDenseMatrix() {
    const auto sparse = sparseTopics(6, 400, 3);
    const core::TopicWordTable held(sparse), dense(sparse.toDense());
    std::vector<std::int64_t> counts;
    std::mt19937 random(5);
    for (int w = 0; w < 400; ++w) counts.push_back(static_cast<std::int64_t>(random() % 50));  // some 0
    const auto frequency = ui::corpusFrequencies(counts);
    for (const double lambda : {0.0, 0.3, 0.6, 1.0}) {
      const auto a = ui::rankTopics(held, frequency, lambda, 40), b = ui::rankTopics(dense, frequency, lambda, 40);
      QCOMPARE(a.size(), std::size_t{6});
      QCOMPARE(b.size(), a.size());
      for (std::size_t k = 0; k < a.size(); ++k) {
        QCOMPARE(a[k].size(), std::size_t{40});
        for (std::size_t i = 0; i < a[k].size(); ++i) {
          QCOMPARE(a[k][i].word, b[k][i].word);
          QCOMPARE(a[k][i].probability, b[k][i].probability);
          QCOMPARE(a[k][i].lift, b[k][i].lift);
          QCOMPARE(a[k][i].relevance, b[k][i].relevance);
        }
        // Ranked by relevance, ties to the smaller word: the fill's words follow one another.
        for (std::size_t i = 1; i < a[k].size(); ++i)
          QVERIFY(a[k][i - 1].relevance > a[k][i].relevance ||
                  (a[k][i - 1].relevance == a[k][i].relevance && a[k][i - 1].word < a[k][i].word));
      }
      for (const std::int32_t word : {0, 1, 17, 250, 399})
        QCOMPARE(ui::ranksOf(held, frequency, lambda, word), ui::ranksOf(dense, frequency, lambda, word));
    }
  }

  void aRunStoredSparseIsReadSparse() {
    // A run stored sparse (test::fitSparseTopicsRun): the topic views read it so, and see the
    // matrices loadMatrix gives.
    test::Scratch scratch;
    const auto file = scratch.path("sparse.latent");
    const auto run = test::fitSparseTopicsRun(file);
    QVERIFY(run.status == core::RunStatus::Finished);
    Eigen::MatrixXd dense, docTopic;
    {
      core::Project project(file, core::Project::Access::ReadOnly);
      const auto stored = core::loadStoredMatrix(project, run.id, "topic_word");
      QVERIFY(stored && std::holds_alternative<core::FilledSparseMatrix>(*stored));
      dense = *core::loadMatrix(project, run.id, "topic_word");
      docTopic = *core::loadMatrix(project, run.id, "doc_topic");
    }
    const auto loaded = ui::loadTopicRun(file, run.id);
    QVERIFY2(loaded.data, qPrintable(loaded.error));
    QVERIFY(!loaded.data->topicWord.isDense());
    QVERIFY(loaded.data->topicWord.toDense() == dense);
    QCOMPARE(loaded.data->topicCount(), 30);
    // doc_topic, stored as floats, is held as floats, with loadMatrix's values and the same shares.
    QVERIFY(loaded.data->docTopic.isFloat());
    QVERIFY(loaded.data->docTopic.toDoubles() == docTopic);
    std::vector<std::int64_t> lengths;
    for (const auto& d : loaded.data->documents) lengths.push_back(d.tokenCount);
    QVERIFY(loaded.data->shares == ui::topicShares(core::DenseTable(Eigen::MatrixXd(docTopic)), lengths));
    const auto expected = ui::rankTopics(core::TopicWordTable(dense), loaded.data->corpusFrequency, 1.0, 10);
    QCOMPARE(loaded.data->topWords.size(), expected.size());
    for (std::size_t k = 0; k < expected.size(); ++k)
      for (std::size_t i = 0; i < expected[k].size(); ++i) {
        QCOMPARE(loaded.data->topWords[k][i].word, expected[k][i].word);
        QCOMPARE(loaded.data->topWords[k][i].probability, expected[k][i].probability);
      }
  }

  void aMapTooLargeIsRefusedWithTheReason() {
    // K (K - 1) / 2 pairs over V words: 2000 topics over 10,000 words are 1.999e10 terms, drawn;
    // 2001 are 2.001e10, refused. Topics of one fill each cost nothing to hold at that size.
    QVERIFY(ui::intertopicMapRefusal(*fillOnlyTopics(2000, 10000)).isEmpty());
    const auto large = fillOnlyTopics(2001, 10000);
    const auto refusal = ui::intertopicMapRefusal(*large);
    QVERIFY2(refusal.contains(QLocale().toString(2001)) && refusal.contains(QLocale().toString(10000)),
             qPrintable(refusal));
    QVERIFY(ui::computeIntertopicMap(*large) == nullptr);
    ui::IntertopicMapView view;
    view.setData(large);
    const auto labels = view.findChildren<QLabel*>();
    QVERIFY(std::any_of(labels.begin(), labels.end(), [&](const QLabel* l) { return l->text() == refusal; }));
    QVERIFY(view.map() == nullptr);
  }
};

LATENT_TEST_CASE(TestTopicRelevance)
#include "tst_topic_relevance.moc"
