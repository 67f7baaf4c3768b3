// SPDX-License-Identifier: GPL-3.0-or-later
// The main window: opening projects, the project tree's groups and counts, recent projects,
// the start page, and tabs for datasets.
#include <QAction>
#include <QDockWidget>
#include <QFile>
#include <QMessageBox>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QTabWidget>
#include <QtTest>

#include <Eigen/Core>

#include "core/store/run_store.hpp"
#include "test_case.hpp"
#include "test_support.hpp"
#include "ui/main_window.hpp"
#include "ui/util/format.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/settings.hpp"
#include "ui/widgets/log_view.hpp"
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

  // Issue 20, defect 3: at 1024 x 680 the Project dock shrank to about 60 px and stayed so. The
  // docks keep usable widths, and View > Reset Layout puts them back as they first were.
  void docksKeepUsableWidthsAndTheLayoutResets() {
    test::Scratch scratch;
    const auto file = makeProject(scratch);
    ui::MainWindow window;
    window.resize(1024, 680);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(test::openProject(window, ui::fromPath(file)));
    window.resizeDocks({window.projectDock()}, {60}, Qt::Horizontal);
    window.resizeDocks({window.runDock()}, {80}, Qt::Horizontal);
    QTest::qWait(20);
    QVERIFY2(window.projectDock()->width() >= ui::kProjectDockMinimumWidth,
             qPrintable(QString::number(window.projectDock()->width())));
    QVERIFY2(window.runDock()->width() >= ui::kRunDockMinimumWidth,
             qPrintable(QString::number(window.runDock()->width())));
    // Docks closed, floated and squeezed come back with Reset Layout (in a window with room for
    // their first widths).
    window.resize(1400, 900);
    QTest::qWait(20);
    window.runDock()->close();
    window.projectDock()->setFloating(true);
    window.resetLayout();
    QTest::qWait(20);
    QVERIFY(window.runDock()->isVisible());
    QVERIFY(!window.projectDock()->isFloating());
    QVERIFY2(std::abs(window.projectDock()->width() - ui::kProjectDockWidth) <= 30,
             qPrintable(QString::number(window.projectDock()->width())));
    QVERIFY(std::abs(window.runDock()->width() - ui::kRunDockWidth) <= 30);
    QAction* reset = nullptr;
    for (QAction* a : window.findChildren<QAction*>())
      if (a->text() == QStringLiteral("&Reset Layout")) reset = a;
    QVERIFY(reset);
  }

  // Issue 20, defect 6: a reopened project had none of its tabs.
  void aProjectReopensWithItsTabs() {
    test::Scratch scratch;
    const auto file = makeProject(scratch);
    ui::MainWindow window;
    QVERIFY(test::openProject(window, ui::fromPath(file)));
    auto* tree = window.projectTree();
    const qint64 graphId =
        tree->groupItem(core::DataKind::Graph)->child(0)->data(0, ui::ProjectTree::IdRole).toLongLong();
    QVERIFY(test::waitLoaded(test::openDataset(window, graphId)));
    window.closeProject();
    QCOMPARE(window.tabs()->count(), 0);
    QVERIFY(test::openProject(window, ui::fromPath(file)));
    QTRY_COMPARE(window.tabs()->count(), 1);
    QCOMPARE(window.tabs()->tabText(0), QStringLiteral("chain"));
    // Closed tabs stay closed.
    window.tabs()->tabCloseRequested(0);
    window.closeProject();
    QVERIFY(test::openProject(window, ui::fromPath(file)));
    QTest::qWait(200);
    QCOMPARE(window.tabs()->count(), 0);
  }

  // Issue 20, defect 6: a sample or demo project was discarded on closing, without a word and
  // without Save As.
  void aTemporaryProjectAsksAndCanBeSaved() {
    test::Scratch scratch;
    const QString temporary = ui::fromPath(scratch.path("demo.latent"));
    const QString kept = ui::fromPath(scratch.path("kept.latent"));
    ui::MainWindow window;
    QSignalSpy opened(&window, &ui::MainWindow::projectOpened);
    QVERIFY(window.createProject(temporary, nullptr, false));
    QVERIFY(opened.wait(20000));
    QVERIFY(window.isTemporaryProject());
    auto answer = QMessageBox::Cancel;
    QStringList questions;
    window.setPrompts(
        [&](const QString&, const QString& text, QMessageBox::StandardButtons) {
          questions << text;
          return answer;
        },
        [&](const QString&, const QString&) { return kept; });
    QVERIFY(!window.close());
    QCOMPARE(questions.size(), 1);
    QVERIFY(questions.first().contains(QStringLiteral("discarded")));
    QVERIFY(window.hasProject());
    answer = QMessageBox::Save;
    QVERIFY(!window.close());  // the copy is written first, then the window closes
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(kept), 20000);
    core::Project copy(ui::toPath(kept), core::Project::Access::ReadOnly);
    QCOMPARE(copy.schemaVersion(), core::Project::latestSchemaVersion());
    QVERIFY(window.recentProjects().contains(kept));
    // A project of one's own is not asked about.
    QVERIFY(test::openProject(window, kept));
    QVERIFY(!window.isTemporaryProject());
    questions.clear();
    QVERIFY(window.close());
    QVERIFY(questions.isEmpty());
  }

  // File > Save Project As: a copy with every dataset, opened in place of the original.
  void saveAsOpensTheCopy() {
    test::Scratch scratch;
    const auto file = makeProject(scratch);
    const QString copy = ui::fromPath(scratch.path("copy.latent"));
    ui::MainWindow window;
    QVERIFY(test::openProject(window, ui::fromPath(file)));
    QSignalSpy opened(&window, &ui::MainWindow::projectOpened);
    window.saveProjectAs(copy);
    QVERIFY(opened.wait(20000));
    QCOMPARE(opened.first().first().toString(), copy);
    QCOMPARE(ui::fromPath(window.projectPath()), copy);
    core::Project project(ui::toPath(copy), core::Project::Access::ReadOnly);
    QCOMPARE(project.datasets().size(), std::size_t{3});
    // An existing file is refused, and the project stays as it was.
    window.saveProjectAs(ui::fromPath(file));
    QTRY_VERIFY(window.logView()->lines().last().contains(QStringLiteral("already exists")));
    QCOMPARE(ui::fromPath(window.projectPath()), copy);
  }

  // Issue 20, missing item 5: a run deleted from the tree goes with its tab; a finished run's
  // snapshots are removed with the space they took said; compacting says what the file became.
  void runsAreDeletedPrunedAndTheFileCompacted() {
    test::Scratch scratch;
    const auto file = makeProject(scratch);
    qint64 doomed = 0, pruned = 0;
    {
      core::Project project(file);
      const auto corpus = project.findDataset("words")->id;
      for (qint64* id : {&doomed, &pruned}) {
        core::RunRecord run;
        run.datasetId = corpus;
        run.model = "lda-gibbs";
        *id = core::createRun(project, run);
        core::saveMatrix(project, *id, "topic_word", 10, Eigen::MatrixXd::Ones(100, 100));
        core::saveMatrix(project, *id, "topic_word", -1, Eigen::MatrixXd::Ones(100, 100));
        core::finishRun(project, *id, core::RunStatus::Finished, {}, 1.0, 10, nlohmann::json::object());
      }
    }
    ui::MainWindow window;
    QStringList questions;
    window.setPrompts(
        [&](const QString&, const QString& text, QMessageBox::StandardButtons) {
          questions << text;
          return QMessageBox::Yes;
        },
        [](const QString&, const QString&) { return QString(); });
    QVERIFY(test::openProject(window, ui::fromPath(file)));
    QVERIFY(window.openRun(doomed));
    QCOMPARE(window.tabs()->count(), 1);
    QSignalSpy maintained(&window, &ui::MainWindow::projectMaintained);

    window.deleteRunAsked(doomed);
    QVERIFY(maintained.wait(20000));
    QVERIFY2(questions.last().contains(QStringLiteral("Delete run #%1").arg(doomed)), qPrintable(questions.last()));
    QCOMPARE(maintained.last().first().toString(), QStringLiteral("Deleted run #%1.").arg(doomed));
    QCOMPARE(window.tabs()->count(), 0);
    QTRY_VERIFY(!window.projectTree()->runItem(doomed) && window.projectTree()->runItem(pruned));

    window.removeSnapshotsAsked(pruned);
    QVERIFY(maintained.wait(20000));
    QVERIFY2(
        questions.last().contains(QStringLiteral("1 snapshot")) && questions.last().contains(QStringLiteral("80 KB")),
        qPrintable(questions.last()));
    QVERIFY2(maintained.last().first().toString().contains(QStringLiteral("80 KB freed")),
             qPrintable(maintained.last().first().toString()));

    window.compactProject();
    QVERIFY(maintained.wait(20000));
    QVERIFY2(maintained.last().first().toString().startsWith(QStringLiteral("Compacted the project")),
             qPrintable(maintained.last().first().toString()));
    core::Project project(file, core::Project::Access::ReadOnly);
    QCOMPARE(core::listRuns(project).size(), std::size_t{1});
    QCOMPARE(core::listMatrices(project, pruned).size(), std::size_t{1});
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
