// SPDX-License-Identifier: GPL-3.0-or-later
// Topics against a document field (issue 20, missing item 4) on a fitted LDA: two parties that
// write about two subjects, over twenty years. The By field page offers the time and the label,
// puts each party's subject first, draws one point per year, and opens a clicked topic.
#include <QChart>
#include <QChartView>
#include <QSignalSpy>
#include <QtTest>

#include "core/jobs/fit_job.hpp"
#include "test_case.hpp"
#include "test_support.hpp"
#include "ui/runs/run_view.hpp"
#include "ui/runs/topics/topic_field_view.hpp"
#include "ui/runs/topics/topic_table_view.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui_test_data.hpp"

using namespace latent;

class TestTopicFieldView : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() { test::isolateSettings(); }

  void partiesAndYearsOfAFittedLda() {
    test::Scratch scratch;
    const auto file = scratch.path("fields.latent");
    {
      core::Project project(file);
      std::vector<test::TextDocument> docs;
      for (int d = 0; d < 40; ++d)
        docs.push_back({"d" + std::to_string(d), "speech",
                        d % 2 ? "money bank loan money credit bank debt" : "river stream water river shore bank fish",
                        std::to_string(1990 + d / 2), d % 2 ? "Thrift" : "Rivers"});
      test::addTextCorpus(project, "speeches", docs);
    }
    core::RunRequest request;
    request.model = "lda-gibbs";
    request.dataset = "speeches";
    request.options = {{"k", 2}, {"iterations", 100}};
    request.heldout = 0.0;
    const auto runId = core::runFit(file, request, nullptr, {}).run.id;

    ui::RunView view(file, runId);
    view.resize(1000, 700);
    QVERIFY(test::waitLoaded(&view));
    QTRY_VERIFY_WITH_TIMEOUT(view.isSettled(), 20000);
    auto* page = view.page<ui::TopicFieldView>();
    QVERIFY(page);
    QVERIFY(view.pages()->indexOf(page) >= 0);
    QCOMPARE(page->fields(), (QStringList{QStringLiteral("time"), QStringLiteral("label")}));

    QSignalSpy shown(page, &ui::TopicFieldView::sharesShown);
    page->setField(QStringLiteral("label"));
    QVERIFY(shown.wait(20000));
    const auto& parties = page->shares();
    QVERIFY(!parties.numeric);
    QCOMPARE(parties.groups.size(), std::size_t{2});
    // Each party writes about its own subject: a different topic leads each, by far.
    Eigen::Index first = 0, second = 0;
    QVERIFY(parties.shares.row(0).maxCoeff(&first) > 0.85);
    QVERIFY(parties.shares.row(1).maxCoeff(&second) > 0.85);
    QVERIFY(first != second);

    page->setField(QStringLiteral("time"));
    QVERIFY(shown.wait(20000));
    QVERIFY(page->shares().numeric);
    QCOMPARE(page->shares().groups.size(), std::size_t{20});  // one point per year
    QCOMPARE(page->shares().groups.front(), std::string("1990"));
    QVERIFY(page->caption().contains(QStringLiteral("weighted by its words")));
    QVERIFY(!page->chartView()->chart()->series().isEmpty());
    if (const char* shots = std::getenv("LATENT_UI_SHOTS")) {
      view.pages()->setCurrentWidget(page);
      view.show();
      QTest::qWait(100);
      view.grab().save(QString::fromLocal8Bit(shots) + QStringLiteral("/topics_by_time.png"));
      page->setField(QStringLiteral("label"));
      QVERIFY(shown.wait(20000));
      QTest::qWait(100);
      view.grab().save(QString::fromLocal8Bit(shots) + QStringLiteral("/topics_by_label.png"));
    }

    // A clicked topic opens on the Topics page.
    Q_EMIT page->topicActivated(1);
    auto* table = view.page<ui::TopicTableView>();
    QCOMPARE(view.pages()->currentWidget(), static_cast<QWidget*>(table));
    QCOMPARE(table->currentTopic(), 1);
  }
};

LATENT_TEST_CASE(TestTopicFieldView)
#include "tst_topic_field_view.moc"
