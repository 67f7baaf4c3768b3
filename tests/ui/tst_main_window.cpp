// SPDX-License-Identifier: GPL-3.0-or-later
// The main window: opening projects, the project tree's groups and counts, recent projects,
// the start page, and tabs for datasets.
#include <QFile>
#include <QStackedWidget>
#include <QTabWidget>
#include <QtTest>

#include "test_case.hpp"
#include "test_support.hpp"
#include "ui/main_window.hpp"
#include "ui/util/format.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/settings.hpp"
#include "ui/widgets/project_tree.hpp"
#include "ui/widgets/start_page.hpp"
#include "ui_test_data.hpp"

using namespace latent;

class TestMainWindow : public QObject {
  Q_OBJECT

 private:
  // Three datasets with hand-counted sizes:
  //   corpus "words": 3 documents, 3 + 2 + 3 = 8 tokens, vocabulary {apple, banana, cherry, date} = 4
  //   graph "chain": 4 nodes, 3 edges, undirected
  //   ratings "stars": 4 ratings by 3 users of 2 items
  std::filesystem::path makeProject(const test::Scratch& scratch) {
    const auto file = scratch.path("three.latent");
    core::Project project(file);
    test::addTextCorpus(project, "words",
                        {{"d1", "First", "apple banana apple"},
                         {"d2", "Second", "banana cherry"},
                         {"d3", "Third", "cherry cherry date"}});
    core::Graph g;
    g.nodeIds = {"a", "b", "c", "d"};
    g.nodeNames = g.nodeIds;
    g.edges = {{0, 1, 1.0}, {1, 2, 1.0}, {2, 3, 1.0}};
    test::addGraph(project, "chain", g);
    test::addRatings(project, "stars",
                     test::makeRatings({{"u1", "i1", 5}, {"u2", "i1", 3}, {"u3", "i2", 4}, {"u1", "i2", 1}}));
    return file;
  }

 private Q_SLOTS:
  void initTestCase() {
    test::isolateSettings();
    ui::appSettings().clear();
  }

  void treeShowsDatasetsByKindWithCounts() {
    test::Scratch scratch;
    const auto file = makeProject(scratch);
    ui::MainWindow window;
    QVERIFY(test::openProject(window, ui::fromPath(file)));
    QCOMPARE(window.windowTitle(), QStringLiteral("three.latent — Latent Studio"));

    auto* tree = window.projectTree();
    QCOMPARE(tree->topLevelItemCount(), 4);  // corpora, graphs, ratings, tables
    QCOMPARE(tree->groupItem(core::DataKind::Table)->text(0), QStringLiteral("Tables"));
    QCOMPARE(tree->groupItem(core::DataKind::Table)->childCount(), 0);
    auto* corpora = tree->groupItem(core::DataKind::Corpus);
    auto* graphs = tree->groupItem(core::DataKind::Graph);
    auto* ratings = tree->groupItem(core::DataKind::Ratings);
    QVERIFY(corpora && graphs && ratings);
    QCOMPARE(corpora->text(0), QStringLiteral("Corpora"));
    QCOMPARE(graphs->text(0), QStringLiteral("Graphs"));
    QCOMPARE(ratings->text(0), QStringLiteral("Ratings"));
    QCOMPARE(corpora->childCount(), 1);
    QCOMPARE(graphs->childCount(), 1);
    QCOMPARE(ratings->childCount(), 1);
    QCOMPARE(corpora->child(0)->text(0), QStringLiteral("words"));
    QCOMPARE(graphs->child(0)->text(0), QStringLiteral("chain"));
    QCOMPARE(ratings->child(0)->text(0), QStringLiteral("stars"));
    QCOMPARE(corpora->child(0)->data(0, ui::ProjectTree::SummaryRole).toString(),
             QStringLiteral("3 documents · 8 tokens · 4 words"));
    QCOMPARE(graphs->child(0)->data(0, ui::ProjectTree::SummaryRole).toString(),
             QStringLiteral("4 nodes · 3 edges · undirected"));
    QCOMPARE(ratings->child(0)->data(0, ui::ProjectTree::SummaryRole).toString(),
             QStringLiteral("4 ratings · 3 users · 2 items"));
    QVERIFY(corpora->child(0)->toolTip(0).contains(QStringLiteral("3 documents · 8 tokens · 4 words")));
  }

  void openingDatasetsOpensOneTabEach() {
    test::Scratch scratch;
    const auto file = makeProject(scratch);
    ui::MainWindow window;
    QVERIFY(test::openProject(window, ui::fromPath(file)));
    auto* tree = window.projectTree();
    const qint64 corpusId =
        tree->groupItem(core::DataKind::Corpus)->child(0)->data(0, ui::ProjectTree::IdRole).toLongLong();
    const qint64 graphId =
        tree->groupItem(core::DataKind::Graph)->child(0)->data(0, ui::ProjectTree::IdRole).toLongLong();
    auto* first = test::openDataset(window, corpusId);
    QVERIFY(first);
    QVERIFY(test::waitLoaded(first));
    QVERIFY(first->errorText().isEmpty());
    QCOMPARE(window.tabs()->count(), 1);
    QCOMPARE(test::openDataset(window, corpusId), first);  // the same tab, not a second one
    QCOMPARE(window.tabs()->count(), 1);
    auto* second = test::openDataset(window, graphId);
    QVERIFY(test::waitLoaded(second));
    QCOMPARE(window.tabs()->count(), 2);
    QCOMPARE(window.tabs()->tabText(1), QStringLiteral("chain"));
    window.closeProject();
    QCOMPARE(window.tabs()->count(), 0);
    QCOMPARE(tree->topLevelItemCount(), 0);
  }

  void missingProjectIsLoggedAndNothingChanges() {
    test::Scratch scratch;
    ui::MainWindow window;
    QString error;
    const QString missing = ui::fromPath(scratch.path("nowhere.latent"));
    QVERIFY(!window.openProject(missing, &error));
    QVERIFY(error.contains(QStringLiteral("nowhere.latent")));
    QVERIFY(error.contains(QStringLiteral("does not exist")));
    QVERIFY(!window.hasProject());
    QVERIFY(!QFile::exists(missing));  // opening never creates a file
    QVERIFY(window.logView()->lines().last().contains(QStringLiteral("nowhere.latent")));
    // A file that is not a project is refused with the reason.
    const auto notProject = scratch.write("notes.latent", "just some text\n");
    QSignalSpy failed(&window, &ui::MainWindow::projectOpenFailed);
    QVERIFY(window.openProject(ui::fromPath(notProject), &error));  // refused off the GUI thread
    QVERIFY(failed.wait(20000));
    error = failed.first().first().toString();
    QVERIFY2(error.contains(QStringLiteral("not a Latent Studio project")), qPrintable(error));
    QVERIFY(!window.hasProject());
  }

  void startPageUntilAProjectOpens() {
    test::Scratch scratch;
    ui::MainWindow window;
    auto* central = qobject_cast<QStackedWidget*>(window.centralWidget());
    QVERIFY(central);
    QCOMPARE(central->currentWidget(), static_cast<QWidget*>(window.startPage()));
    QVERIFY(test::openProject(window, ui::fromPath(scratch.path("new.latent")), true));
    QVERIFY(QFile::exists(ui::fromPath(scratch.path("new.latent"))));
    QVERIFY(central->currentWidget() != window.startPage());
    // An empty project: all three groups, each saying it has none yet.
    QCOMPARE(window.projectTree()->groupItem(core::DataKind::Graph)->childCount(), 0);
    QCOMPARE(window.projectTree()->groupItem(core::DataKind::Graph)->data(0, ui::ProjectTree::SummaryRole).toString(),
             QStringLiteral("none yet"));
    window.closeProject();
    QCOMPARE(central->currentWidget(), static_cast<QWidget*>(window.startPage()));
  }

  void recentProjectsAreKeptAndPruned() {
    ui::appSettings().clear();
    test::Scratch scratch;
    const auto a = scratch.path("a.latent"), b = scratch.path("b.latent");
    {
      ui::MainWindow window;
      QVERIFY(test::openProject(window, ui::fromPath(a), true));
      QVERIFY(test::openProject(window, ui::fromPath(b), true));
      QCOMPARE(window.recentProjects(), QStringList({ui::fromPath(b), ui::fromPath(a)}));
    }
    std::filesystem::remove(a);
    ui::MainWindow window;
    QCOMPARE(window.recentProjects(), QStringList({ui::fromPath(b)}));  // the missing file is gone
    // At most ten are kept, newest first.
    for (int i = 0; i < 12; ++i)
      QVERIFY(test::openProject(window, ui::fromPath(scratch.path("p" + std::to_string(i) + ".latent")), true));
    const QStringList recent = window.recentProjects();
    QCOMPARE(recent.size(), ui::kMaxRecentProjects);
    QCOMPARE(recent.first(), ui::fromPath(scratch.path("p11.latent")));
  }
};

LATENT_TEST_CASE(TestMainWindow)
#include "tst_main_window.moc"
