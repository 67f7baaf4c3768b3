// SPDX-License-Identifier: GPL-3.0-or-later
// Topics while a fit runs (issue 20, missing item 2): the Topics page follows the run's snapshots,
// keeps the topic the user is looking at, marks the words new to each topic's top words, and
// becomes the final table when the run ends; the run's header says where it is and how long it
// may still take.
#include <QtTest>

#include "core/jobs/fit_job.hpp"
#include "core/store/run_store.hpp"
#include "test_case.hpp"
#include "test_support.hpp"
#include "ui/jobs/job_controller.hpp"
#include "ui/main_window.hpp"
#include "ui/runs/option_form.hpp"
#include "ui/runs/run_panel.hpp"
#include "ui/runs/run_view.hpp"
#include "ui/runs/topics/topic_run_data.hpp"
#include "ui/runs/topics/topic_table_models.hpp"
#include "ui/runs/topics/topic_table_view.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui_test_data.hpp"

using namespace latent;

namespace {

constexpr int kLiveWords = 10;

// Two topics over w0..w9 from one snapshot: topic 0 ranks the words in `order0`, topic 1 in
// reverse order; shares and documents are left out, as a snapshot's are.
std::shared_ptr<ui::TopicRunData> snapshotTopics(const std::vector<int>& order0, std::int64_t iteration) {
  auto data = std::make_shared<ui::TopicRunData>();
  Eigen::MatrixXd topicWord = Eigen::MatrixXd::Zero(2, kLiveWords);
  for (int i = 0; i < kLiveWords; ++i) {
    topicWord(0, order0[static_cast<std::size_t>(i)]) = kLiveWords - i;
    topicWord(1, kLiveWords - 1 - i) = kLiveWords - i;
  }
  for (int k = 0; k < 2; ++k) topicWord.row(k) /= topicWord.row(k).sum();
  data->topicWord = core::TopicWordTable(std::move(topicWord));
  for (int w = 0; w < kLiveWords; ++w) {
    data->words.push_back("w" + std::to_string(w));
    data->wordCounts.push_back(10);
  }
  data->corpusFrequency = ui::corpusFrequencies(data->wordCounts);
  data->topWords = ui::rankTopics(data->topicWord, data->corpusFrequency, 1.0, 10);
  data->topicWordIteration = iteration;
  return data;
}

QString listedWords(const ui::TopicTableView& view, int topic) {
  auto* model = view.topicModel();
  return model->data(model->index(topic, ui::TopicListModel::WordsColumn), Qt::DisplayRole).toString();
}

}  // namespace

class TestLiveTopics : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() { test::isolateSettings(); }

  void aNewerSnapshotMarksTheWordsNewToEachTopic() {
    ui::TopicTableView view;
    view.showLiveSnapshot({}, snapshotTopics({0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, 50));
    QVERIFY(view.isLive());
    QVERIFY(!listedWords(view, 0).contains(QLatin1Char('+')));  // nothing to compare with yet
    QVERIFY(view.statusText().contains(QStringLiteral("Live: the snapshot at iteration 50")));
    view.selectTopic(1);
    // w9 climbs from last to first in topic 0; topic 1 stays as it was.
    view.showLiveSnapshot({}, snapshotTopics({9, 0, 1, 2, 3, 4, 5, 6, 7, 8}, 100));
    QCOMPARE(view.currentTopic(), 1);  // the topic looked at stays
    QVERIFY2(listedWords(view, 0).startsWith(QStringLiteral("+w9, w0, w1")), qPrintable(listedWords(view, 0)));
    QCOMPARE(listedWords(view, 0).count(QLatin1Char('+')), 1);
    QVERIFY(!listedWords(view, 1).contains(QLatin1Char('+')));
    QVERIFY(view.statusText().contains(QStringLiteral("new since iteration 50")));
    // The final result is a table like any other.
    view.setData({}, snapshotTopics({9, 0, 1, 2, 3, 4, 5, 6, 7, 8}, -1));
    QVERIFY(!view.isLive());
    QVERIFY(!listedWords(view, 0).contains(QLatin1Char('+')));
    QVERIFY(!view.statusText().contains(QStringLiteral("Live")));
  }

  void aRunningFitShowsItsTopicsAndTimeLeft() {
    test::Scratch scratch;
    const auto file = scratch.path("live.latent");
    qint64 corpus = 0;
    {
      core::Project project(file);
      std::vector<test::TextDocument> docs;
      for (int d = 0; d < 40; ++d)
        docs.push_back({"d" + std::to_string(d), "doc " + std::to_string(d),
                        d % 2 ? "money bank loan money bank credit" : "river stream bank river water shore"});
      corpus = test::addTextCorpus(project, "toy", docs);
    }
    ui::MainWindow window;
    QVERIFY(test::openProject(window, ui::fromPath(file)));
    auto* panel = window.runPanel();
    QVERIFY(panel->selectDataset(corpus));
    QVERIFY(panel->selectModel(QStringLiteral("lda-gibbs")));
    panel->optionForm()->setValues({{"k", 2}, {"iterations", 1000000}, {"snapshot_every", 5}});
    ui::JobController* controller = panel->start();
    QVERIFY(controller);
    QTRY_VERIFY_WITH_TIMEOUT(qobject_cast<ui::RunView*>(window.tabs()->currentWidget()), 30000);
    auto* view = qobject_cast<ui::RunView*>(window.tabs()->currentWidget());
    ui::TopicTableView* table = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((table = view->page<ui::TopicTableView>()) && table->isLive() && table->data(), 30000);
    QVERIFY(view->pages()->indexOf(table) >= 0);
    QVERIFY(table->statusText().contains(QStringLiteral("Live")));
    QVERIFY(!view->headerText().contains(QStringLiteral("iterations")));  // the stored count lags
    QCOMPARE(table->data()->topicCount(), 2);
    const auto first = table->data()->topicWordIteration;
    QTRY_VERIFY_WITH_TIMEOUT(table->data()->topicWordIteration > first, 30000);  // it follows the run
    QTRY_VERIFY_WITH_TIMEOUT(view->progressLine().contains(QStringLiteral("left")), 30000);
    QVERIFY2(view->progressLine().contains(QStringLiteral("/ 1000000")), qPrintable(view->progressLine()));
    if (const char* shots = std::getenv("LATENT_UI_SHOTS")) {
      window.resize(1300, 800);
      view->pages()->setCurrentWidget(table);
      QTest::qWait(300);
      window.grab().save(QString::fromLocal8Bit(shots) + QStringLiteral("/live_topics.png"));
      for (int i = 0; i < view->pages()->count(); ++i)
        if (view->pages()->tabText(i) == QStringLiteral("Training")) view->pages()->setCurrentIndex(i);
      QTest::qWait(1500);  // past the burn-in's mark
      window.grab().save(QString::fromLocal8Bit(shots) + QStringLiteral("/live_training.png"));
    }

    controller->requestStop();
    QTRY_VERIFY_WITH_TIMEOUT(view->isSettled(), 30000);
    QVERIFY(view->progressLine().isEmpty());
    table = view->page<ui::TopicTableView>();
    QVERIFY(table && !table->isLive());
    QVERIFY(!table->statusText().contains(QStringLiteral("Live")));
  }
};

LATENT_TEST_CASE(TestLiveTopics)
#include "tst_live_topics.moc"
