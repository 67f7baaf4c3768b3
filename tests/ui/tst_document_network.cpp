// SPDX-License-Identifier: GPL-3.0-or-later
// The views of a linked corpus (issue 18): a topic-model run on documents that link within their
// theme gets a Network page after the topics, the documents drawn with each theme's documents
// together and coloured by their topic, the run's predicted links drawn as many as the slider says,
// a click opening the document in the reader, and the reader listing the document's links both
// ways and its most likely new links, each of which opens its document.
#include <QSignalSpy>
#include <QSlider>
#include <QTabWidget>
#include <QtTest>

#include "core/eval/link_prediction.hpp"
#include "core/jobs/fit_job.hpp"
#include "core/jobs/link_import.hpp"
#include "core/store/corpus_store.hpp"
#include "core/store/run_store.hpp"
#include "test_case.hpp"
#include "test_support.hpp"
#include "ui/jobs/import_task.hpp"
#include "ui/main_window.hpp"
#include "ui/runs/run_view.hpp"
#include "ui/runs/topics/document_links_data.hpp"
#include "ui/runs/topics/document_network_view.hpp"
#include "ui/runs/topics/topic_document_view.hpp"
#include "ui/runs/topics/topic_run_data.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/settings.hpp"
#include "ui/widgets/log_view.hpp"
#include "ui/widgets/network_canvas.hpp"
#include "ui_test_data.hpp"

using namespace latent;

namespace {

constexpr int kNetworkDocuments = 60;

// Even documents write about money, odd ones about rivers; each links to the next three of its theme.
std::vector<test::TextDocument> moneyAndRiverDocuments() {
  const std::vector<std::string> money = {"money", "loan", "credit", "interest", "debt", "payment"};
  const std::vector<std::string> river = {"river", "stream", "water", "fish", "boat", "shore"};
  std::vector<test::TextDocument> docs;
  std::uint32_t state = 5;
  for (int d = 0; d < kNetworkDocuments; ++d) {
    std::string text;
    const auto& theme = d % 2 == 0 ? money : river;
    for (int i = 0; i < 30; ++i) {
      state = state * 1664525u + 1013904223u;
      text += theme[(state >> 8) % theme.size()] + " ";
    }
    docs.push_back({"doc" + std::to_string(d + 1), "Paper " + std::to_string(d + 1), text});
  }
  return docs;
}

std::string themedLinks() {
  std::string csv = "source,target\n";
  for (int d = 0; d < kNetworkDocuments; ++d)
    for (int step = 1; step <= 3; ++step) {
      const int other = (d + 2 * step) % kNetworkDocuments;
      csv += "doc" + std::to_string(d + 1) + ",doc" + std::to_string(other + 1) + "\n";
    }
  return csv;
}

}  // namespace

class TestDocumentNetwork : public QObject {
  Q_OBJECT

  std::unique_ptr<test::Scratch> m_scratch;
  std::filesystem::path m_file;
  qint64 m_run = 0;

  std::unique_ptr<ui::RunView> openView() {
    auto view = std::make_unique<ui::RunView>(m_file, m_run);
    view->resize(1200, 800);
    [&] { QVERIFY(test::waitFor([&] { return view->isSettled() && view->page<ui::DocumentNetworkView>(); })); }();
    return view;
  }

 private Q_SLOTS:
  void initTestCase() {
    test::isolateSettings();
    ui::appSettings().clear();
    m_scratch = std::make_unique<test::Scratch>();
    m_file = m_scratch->path("linked.latent");
    {
      core::Project project(m_file);
      test::addTextCorpus(project, "papers", moneyAndRiverDocuments(), true);
      core::LinksImportRequest links;
      links.corpus = "papers";
      links.source = m_scratch->write("links.csv", themedLinks());
      core::importDocumentLinks(project, links);
    }
    core::RunRequest request;
    request.model = "lda-gibbs";
    request.dataset = "papers";
    request.options = {{"k", 2}, {"iterations", 40}};
    request.seed = 3;
    m_run = core::runFit(m_file, request, nullptr, {}).run.id;
    // What a model of linked documents stores: here every unlinked pair of one theme, likelier when
    // closer in the ring.
    std::vector<core::PredictedLink> predicted;
    for (int a = 0; a < kNetworkDocuments; ++a)
      for (int b = a + 8; b < kNetworkDocuments; b += 2) predicted.push_back({a, b, 1.0 / (1.0 + (b - a) / 10.0)});
    core::Project project(m_file);
    core::saveMatrix(project, m_run, core::kPredictedLinks, -1, core::predictedLinksMatrix(predicted, {}).values);
  }

  void networkPageComesAfterTheDocuments() {
    auto view = openView();
    QStringList tabs;
    for (int i = 0; i < view->pages()->count(); ++i) tabs << view->pages()->tabText(i);
    QCOMPARE(tabs,
             (QStringList{QStringLiteral("Topics"), QStringLiteral("Documents"), QStringLiteral("Network"),
                          QStringLiteral("Topic map"), QStringLiteral("Gibbs sampler"), QStringLiteral("Training")}));
  }

  // Documents of one theme share a colour and sit nearer each other than the other theme's.
  void themesAreDrawnTogetherInTheirTopicsColours() {
    auto view = openView();
    auto* network = view->page<ui::DocumentNetworkView>();
    const auto& drawing = network->canvas()->drawing();
    QCOMPARE(drawing.positions.rows(), Eigen::Index(kNetworkDocuments));
    QCOMPARE(drawing.edges.size(), std::size_t(3 * kNetworkDocuments));
    const int moneyTopic = network->dominantTopic(0), riverTopic = network->dominantTopic(1);
    QVERIFY(moneyTopic >= 0 && riverTopic >= 0 && moneyTopic != riverTopic);
    double within = 0, across = 0;
    for (int d = 0; d < kNetworkDocuments; ++d) {
      QCOMPARE(network->dominantTopic(d), d % 2 == 0 ? moneyTopic : riverTopic);
      QCOMPARE(drawing.nodeColours[std::size_t(d)], drawing.nodeColours[std::size_t(d % 2)]);
      within += (drawing.positions.row(d) - drawing.positions.row((d + 2) % kNetworkDocuments)).norm();
      across += (drawing.positions.row(d) - drawing.positions.row((d + 1) % kNetworkDocuments)).norm();
    }
    QVERIFY2(across > 2 * within, qPrintable(QStringLiteral("%1 %2").arg(across).arg(within)));
    QVERIFY(network->legend().contains(QStringLiteral("60 documents and 180 links")));
  }

  void theSliderDrawsTheMostLikelyPredictions() {
    auto view = openView();
    auto* network = view->page<ui::DocumentNetworkView>();
    QVERIFY(network->slider()->isEnabled());
    QCOMPARE(network->predictedShown(), 20);  // a fortieth of the documents, at least 20
    QCOMPARE(network->canvas()->drawing().accents.size(), std::size_t(20));
    network->setPredictedShown(5);
    const auto& accents = network->canvas()->drawing().accents;
    QCOMPARE(accents.size(), std::size_t(5));
    QCOMPARE(accents.front().b - accents.front().a, std::int64_t(8));  // the closest pair is the likeliest
    QVERIFY2(network->summary().startsWith(QStringLiteral("5 of ")), qPrintable(network->summary()));
  }

  void clickingADocumentReadsItWithItsLinks() {
    auto view = openView();
    auto* network = view->page<ui::DocumentNetworkView>();
    auto* reader = view->page<ui::TopicDocumentView>();
    auto* canvas = network->canvas();
    view->pages()->setCurrentWidget(network);
    view->show();
    QVERIFY(QTest::qWaitForWindowExposed(view.get()));
    QTest::mouseClick(canvas, Qt::LeftButton, {}, canvas->nodePosition(4).toPoint());
    QVERIFY(test::waitFor([&] { return reader->currentDocument() == 4 && reader->isIdle(); }));
    QCOMPARE(view->pages()->currentWidget(), reader);
    const QString links = reader->linksText();
    // Paper 5 links to 7, 9 and 11 and is linked from 3, 1 and 59; its likeliest new link is paper 13.
    QVERIFY2(links.contains(QStringLiteral("Links to</b> <a href=\"doc:6\">Paper 7</a>")), qPrintable(links));
    QVERIFY2(links.contains(QStringLiteral("Linked from</b>")), qPrintable(links));
    QVERIFY2(links.contains(QStringLiteral("Most likely new links</b> <a href=\"doc:12\">Paper 13</a>")),
             qPrintable(links));
    QVERIFY(!network->toolTipFor(4).isEmpty());
  }

  // Attach Links… on a corpus: the links go in off the GUI thread, the log says how many, and a bad
  // file leaves the corpus as it was with the reason in the log.
  void attachingLinksFromTheWindow() {
    const auto file = m_scratch->path("attach.latent");
    std::int64_t dataset = 0;
    {
      core::Project project(file);
      dataset = test::addTextCorpus(project, "plain", moneyAndRiverDocuments(), true);
    }
    ui::MainWindow window;
    window.resize(1100, 700);
    QVERIFY(test::openProject(window, ui::fromPath(file)));
    auto* bad = window.attachLinks(dataset, ui::fromPath(m_scratch->write("bad.csv", "source,target\nx,y\n")));
    QVERIFY(bad);
    QSignalSpy badEnded(bad, &ui::ImportTask::ended);
    QVERIFY(badEnded.wait(10000));
    QVERIFY(window.logView()
                ->lines()
                .join(QLatin1Char(QChar::LineFeed))
                .contains(QStringLiteral("The links were not attached")));
    auto* task = window.attachLinks(dataset, ui::fromPath(m_scratch->write("good.csv", themedLinks())));
    QSignalSpy ended(task, &ui::ImportTask::ended);
    QVERIFY(ended.wait(10000));
    QVERIFY2(window.logView()->lines().join(QLatin1Char(QChar::LineFeed)).contains(QStringLiteral("now has 180 links")),
             qPrintable(window.logView()->lines().join(QLatin1Char(QChar::LineFeed))));
    core::Project project(file, core::Project::Access::ReadOnly);
    QCOMPARE(core::loadCorpus(project, dataset).links.size(), std::size_t(180));
  }

  void screenshots() {
    const QString dir = qEnvironmentVariable("LATENT_UI_SHOTS");
    if (dir.isEmpty()) QSKIP("set LATENT_UI_SHOTS=DIR to write screenshots of the Network page");
    auto view = openView();
    view->pages()->setCurrentWidget(view->page<ui::DocumentNetworkView>());
    view->show();
    QVERIFY(QTest::qWaitForWindowExposed(view.get()));
    QVERIFY(view->grab().save(QDir(dir).filePath(QStringLiteral("document-network.png"))));
  }
};

LATENT_TEST_CASE(TestDocumentNetwork)
#include "tst_document_network.moc"
