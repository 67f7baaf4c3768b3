// SPDX-License-Identifier: GPL-3.0-or-later
// Not a check but pictures for people: with LATENT_UI_SHOTS=DIR set, fits LDA to the State of the
// Union and Cora samples and saves the main window with each topic view (topics, relevance,
// search, annotated document, emphasis, held-out document, dark palette, bag of words) as PNG
// into DIR, and reports how long the longest address takes and the longest event-loop gap while
// it is redrawn. Skipped otherwise.
#include <QApplication>
#include <QDir>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTimer>
#include <QtTest>

#include "core/jobs/fit_job.hpp"
#include "core/jobs/samples.hpp"
#include "dark_palette.hpp"
#include "test_case.hpp"
#include "test_support.hpp"
#include "ui/main_window.hpp"
#include "ui/runs/run_view.hpp"
#include "ui/runs/topics/topic_document_view.hpp"
#include "ui/runs/topics/topic_table_view.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/settings.hpp"
#include "ui_test_data.hpp"

using namespace latent;

namespace {

bool rank(ui::TopicTableView* table, const std::function<void()>& change) {
  QSignalSpy spy(table, &ui::TopicTableView::rankingUpdated);
  change();
  return spy.wait(20000) && test::waitFor([&] { return !table->isRanking(); });
}

}  // namespace

class TestTopicViewScreenshots : public QObject {
  Q_OBJECT

  std::unique_ptr<test::Scratch> m_scratch;

 private Q_SLOTS:
  void initTestCase() {
    test::isolateSettings();
    ui::appSettings().clear();
    m_scratch = std::make_unique<test::Scratch>();
  }

  void screenshots() {
    const QString dir = qEnvironmentVariable("LATENT_UI_SHOTS");
    if (dir.isEmpty()) QSKIP("set LATENT_UI_SHOTS=DIR to write screenshots of the topic views");
    const auto file = m_scratch->path("shots.latent");
    qint64 sotuRun = 0, coraRun = 0;
    {
      core::Project project(file);
      core::importSample(project, "sotu");
      core::importSample(project, "cora");
    }
    core::RunRequest request;
    request.model = "lda-gibbs";
    request.dataset = "sotu";
    request.options = {{"k", 10}, {"iterations", 100}};
    request.heldout = 0.1;
    sotuRun = core::runFit(file, request, nullptr, {}).run.id;
    request.dataset = "cora";
    request.options = {{"k", 8}, {"iterations", 100}};
    coraRun = core::runFit(file, request, nullptr, {}).run.id;

    ui::MainWindow window;
    window.resize(1400, 900);
    window.show();
    QVERIFY(test::openProject(window, ui::fromPath(file)));
    auto save = [&](const QString& name) {
      QTest::qWait(300);
      QVERIFY(window.grab().save(QDir(dir).filePath(name)));
    };
    ui::RunView* view = window.openRun(sotuRun);
    QVERIFY(test::waitFor([&] { return view->isSettled() && !view->page<ui::TopicTableView>()->isRanking(); }, 60000));
    auto* table = view->page<ui::TopicTableView>();
    save(QStringLiteral("sotu-topics.png"));
    QVERIFY(rank(table, [&] { table->setLambda(0.6); }));
    table->renameTopic(0, QStringLiteral("first topic"));
    save(QStringLiteral("sotu-topics-relevance.png"));
    QVERIFY(rank(table, [&] { table->search(QStringLiteral("tariff")); }));
    save(QStringLiteral("sotu-search.png"));

    view->pages()->setCurrentWidget(view->page<ui::TopicDocumentView>());
    auto* reader = view->page<ui::TopicDocumentView>();
    core::Project project(file, core::Project::Access::ReadOnly);
    const auto sotu = project.resolveDataset("sotu").id;
    qint64 training = -1, heldOut = -1, longest = -1;
    std::int64_t longestCount = 0;
    for (const auto& h : core::listDocuments(project, sotu)) {
      const bool assigned = !core::loadTokenTopics(project, sotuRun, h.index).empty();
      if (assigned && training < 0 && h.index >= 200) training = h.index;
      if (!assigned && heldOut < 0) heldOut = h.index;
      if (h.tokenCount > longestCount) longestCount = h.tokenCount, longest = h.index;
    }
    auto show = [&](qint64 index) {
      QSignalSpy shown(reader, &ui::TopicDocumentView::documentShown);
      QElapsedTimer timer;
      timer.start();
      reader->showDocument(index);
      QVERIFY(shown.wait(30000));
      qInfo("document %lld shown %lld ms after it was asked for", index, timer.elapsed());
    };
    show(training);
    save(QStringLiteral("sotu-document.png"));
    reader->highlightTopic(reader->shownProportions().at(0).first);
    QVERIFY(test::waitFor([&] { return reader->isIdle(); }));
    save(QStringLiteral("sotu-document-emphasis.png"));
    show(heldOut);
    save(QStringLiteral("sotu-heldout.png"));
    show(longest);
    // The longest gap in the event loop while the longest document is redrawn with an emphasis.
    {
      QElapsedTimer probe;
      qint64 worst = 0, last = 0;
      QTimer tick;
      tick.setInterval(5);
      probe.start();
      QObject::connect(&tick, &QTimer::timeout, [&] {
        worst = std::max(worst, probe.elapsed() - last);
        last = probe.elapsed();
      });
      tick.start();
      QTest::qWait(50);
      reader->highlightTopic(reader->shownProportions().at(1).first);
      QVERIFY(test::waitFor([&] { return reader->isIdle(); }));
      QTest::qWait(300);  // layout and painting after the swap
      qInfo("worst event-loop gap while the longest document (%lld kept words) is redrawn: %lld ms",
            static_cast<long long>(longestCount), worst);
    }
    QPalette dark = test::darkPalette();
    const QPalette before = QApplication::palette();
    QApplication::setPalette(dark);
    show(training);
    save(QStringLiteral("sotu-document-dark.png"));
    view->pages()->setCurrentWidget(table);
    save(QStringLiteral("sotu-topics-dark.png"));
    QApplication::setPalette(before);

    ui::RunView* cora = window.openRun(coraRun);
    QVERIFY(test::waitFor([&] { return cora->isSettled() && !cora->page<ui::TopicTableView>()->isRanking(); }, 60000));
    cora->pages()->setCurrentWidget(cora->page<ui::TopicDocumentView>());
    QVERIFY(test::waitFor([&] { return cora->page<ui::TopicDocumentView>()->currentDocument() >= 0; }));
    save(QStringLiteral("cora-document.png"));
  }
};

LATENT_TEST_CASE(TestTopicViewScreenshots)
#include "tst_topic_view_screenshots.moc"
