// SPDX-License-Identifier: GPL-3.0-or-later
// The demo driver behind --demo/--screenshot: a demo imports its sample into a temporary
// project, shows it, and writes the window as PNG.
#include <QImage>
#include <QLabel>
#include <QTabWidget>
#include <QtTest>

#include "test_support.hpp"
#include "ui/browsers/corpus_browser.hpp"
#include "ui/demo/demo_catalogue.hpp"
#include "ui/demo/demo_driver.hpp"
#include "ui/main_window.hpp"
#include "ui/runs/run_view.hpp"
#include "ui/runs/top_words_view.hpp"
#include "ui/util/settings.hpp"
#include "ui/widgets/project_tree.hpp"
#include "ui_test_data.hpp"

using namespace latent;

class TestDemo : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() {
    test::isolateSettings();
    ui::appSettings().clear();
  }

  void catalogueKnowsItsDemos() {
    for (const char* name : {"corpus-unigram", "gibbs-toy", "sampson", "karate", "insteval"})
      QVERIFY2(ui::findDemo(QString::fromLatin1(name)).has_value(), name);
    QVERIFY(!ui::findDemo(QStringLiteral("no-such-demo")));
    QVERIFY(ui::findDemo(QStringLiteral("sample:cora")).has_value());
    QVERIFY(!ui::findDemo(QStringLiteral("sample:nothing")));
  }

  void gibbsToyWritesAScreenshot() {
    test::Scratch scratch;
    const QString png = QString::fromStdString(scratch.path("gibbs.png").string());
    ui::MainWindow window;
    window.resize(1400, 900);
    window.show();
    auto spec = ui::findDemo(QStringLiteral("gibbs-toy"));
    QVERIFY(spec);
    auto* driver = new ui::DemoDriver(&window, *spec, png);
    QSignalSpy finished(driver, &ui::DemoDriver::finished);
    driver->start();
    QVERIFY(finished.wait(60000));
    QVERIFY2(finished.first().at(0).toBool(), qPrintable(finished.first().at(1).toString()));
    QImage image(png);
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), window.size() * window.devicePixelRatio());
    // What it shows: the sample in the tree (16 documents of 16 words) and its browser.
    auto* corpora = window.projectTree()->groupItem(core::DataKind::Corpus);
    QCOMPARE(corpora->childCount(), 1);
    QCOMPARE(corpora->child(0)->data(0, ui::ProjectTree::SummaryRole).toString(),
             QStringLiteral("16 documents · 256 tokens · 5 words"));
    auto* browser = qobject_cast<ui::CorpusBrowser*>(window.tabs()->currentWidget());
    QVERIFY(browser);
    QCOMPARE(browser->visibleDocumentCount(), 16);
    QVERIFY(window.bannerText().contains(spec->title.toHtmlEscaped()));
    // A demo's temporary project is not a recent project.
    QVERIFY(!window.recentProjects().contains(QString::fromStdString(window.projectPath().string())));
  }

  void corpusUnigramEndsOnTheRunView() {
    ui::MainWindow window;
    auto spec = ui::findDemo(QStringLiteral("corpus-unigram"));
    QVERIFY(spec);
    auto* driver = new ui::DemoDriver(&window, *spec);
    QSignalSpy finished(driver, &ui::DemoDriver::finished);
    driver->start();
    QVERIFY(finished.wait(120000));
    QVERIFY2(finished.first().at(0).toBool(), qPrintable(finished.first().at(1).toString()));
    auto* view = qobject_cast<ui::RunView*>(window.tabs()->currentWidget());
    QVERIFY(view);
    QCOMPARE(view->run().status, core::RunStatus::Finished);
    QCOMPARE(view->run().heldout, 0.1);
    QCOMPARE(view->run().seed, std::uint64_t{1});
    // One topic (the unigram's distribution), its 30 most probable words, in decreasing order.
    const auto& topics = view->topWords()->topics();
    QCOMPARE(topics.size(), 1);
    QCOMPARE(topics[0].words.size(), 30);
    for (int i = 1; i < 30; ++i) QVERIFY(topics[0].words[i - 1].second >= topics[0].words[i].second);
    // The held-out number is shown with its protocol.
    QVERIFY(view->run().heldoutName.find("document completion") != std::string::npos);
    QVERIFY(view->findChild<QLabel*>() != nullptr);
  }
};

QTEST_MAIN(TestDemo)
#include "tst_demo.moc"
