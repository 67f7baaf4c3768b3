// SPDX-License-Identifier: GPL-3.0-or-later
// The project session: reads and writes run off the GUI thread and come back on it, writes in
// the order they were asked for, failures as errors; and the main window's everyday actions
// never open a project connection on the GUI thread.
#include <QPointer>
#include <QSpinBox>
#include <QThread>
#include <QtTest>

#include <atomic>

#include "core/jobs/fit_job.hpp"
#include "core/store/run_store.hpp"
#include "test_case.hpp"
#include "test_support.hpp"
#include "ui/jobs/import_task.hpp"
#include "ui/jobs/job_controller.hpp"
#include "ui/jobs/project_session.hpp"
#include "ui/jobs/run_manager.hpp"
#include "ui/main_window.hpp"
#include "ui/runs/option_form.hpp"
#include "ui/runs/run_panel.hpp"
#include "ui/runs/run_view.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/settings.hpp"
#include "ui/widgets/project_tree.hpp"
#include "ui_test_data.hpp"

using namespace latent;

class TestProjectSession : public QObject {
  Q_OBJECT

 private:
  std::filesystem::path makeProject(const test::Scratch& scratch, std::int64_t* corpusId = nullptr) {
    const auto file = scratch.path("session.latent");
    core::Project project(file);
    const auto id = test::addTextCorpus(project, "words",
                                        {{"d1", "First", "apple banana apple"}, {"d2", "Second", "banana cherry"}});
    if (corpusId) *corpusId = id;
    return file;
  }

  static bool onGuiThread() { return QThread::currentThread() == qApp->thread(); }

 private Q_SLOTS:
  void initTestCase() {
    test::isolateSettings();
    ui::appSettings().clear();
  }

  void writesArriveOnTheGuiThreadInOrder() {
    test::Scratch scratch;
    std::int64_t id = 0;
    const auto file = makeProject(scratch, &id);
    ui::ProjectSession session(file);
    QCOMPARE(ui::ProjectSession::find(file), &session);
    QSignalSpy changed(&session, &ui::ProjectSession::changed);
    std::atomic<int> workOnGui{0};
    QList<int> order;
    bool doneOffGui = false;
    constexpr int kWrites = 8;
    for (int i = 1; i <= kWrites; ++i) {
      session.write(
          this,
          [id, i, &workOnGui](core::Project& project) {
            if (onGuiThread()) ++workOnGui;
            project.renameDataset(id, "name " + std::to_string(i));
            return i;
          },
          [&](ui::SessionResult<int> result) {
            QVERIFY2(result.ok(), qPrintable(result.error));
            if (!onGuiThread()) doneOffGui = true;
            order << *result.value;
          });
    }
    QTRY_COMPARE_WITH_TIMEOUT(order.size(), kWrites, 20000);
    QCOMPARE(order, QList<int>({1, 2, 3, 4, 5, 6, 7, 8}));
    QCOMPARE(workOnGui.load(), 0);
    QVERIFY(!doneOffGui);
    QTRY_COMPARE(changed.count(), kWrites);

    // A read sees the last write.
    QString name;
    session.read(
        this,
        [id, &workOnGui](core::Project& project) {
          if (onGuiThread()) ++workOnGui;
          return project.dataset(id).name;
        },
        [&](ui::SessionResult<std::string> result) {
          QVERIFY(onGuiThread());
          name = ui::qs(result.value.value_or("?"));
        });
    QTRY_COMPARE_WITH_TIMEOUT(name, QStringLiteral("name 8"), 20000);
    QCOMPARE(workOnGui.load(), 0);
  }

  void failuresArriveAsErrors() {
    test::Scratch scratch;
    const auto file = makeProject(scratch);
    ui::ProjectSession session(file);
    QSignalSpy changed(&session, &ui::ProjectSession::changed);
    bool readDone = false, writeDone = false;
    session.read(
        this, [](core::Project& project) { return project.dataset(9999); },
        [&](ui::SessionResult<core::DatasetInfo> result) {
          QVERIFY(!result.ok());
          QVERIFY(!result.error.isEmpty());
          readDone = true;
        });
    session.write(
        this,
        [](core::Project& project) {
          project.checkNameFree("words");  // taken: throws
        },
        [&](ui::SessionResult<std::monostate> result) {
          QVERIFY(!result.ok());
          QVERIFY2(result.error.contains(QStringLiteral("words")), qPrintable(result.error));
          writeDone = true;
        });
    QTRY_VERIFY_WITH_TIMEOUT(readDone && writeDone, 20000);
    QCOMPARE(changed.count(), 0);  // nothing changed

    // A file that is not a project: the open itself fails, as an error.
    const auto notProject = scratch.write("notes.latent", "just some text\n");
    ui::ProjectSession bad(notProject);
    QString error;
    bad.read(
        this, [](core::Project& project) { return project.datasets().size(); },
        [&](ui::SessionResult<std::size_t> result) { error = result.ok() ? QStringLiteral("opened") : result.error; });
    QTRY_VERIFY_WITH_TIMEOUT(!error.isEmpty(), 20000);
    QVERIFY2(error.contains(QStringLiteral("not a Latent Studio project")), qPrintable(error));
  }

  void aWriteWhoseAskerHasGoneStillHappens() {
    test::Scratch scratch;
    std::int64_t id = 0;
    const auto file = makeProject(scratch, &id);
    ui::ProjectSession session(file);
    QSignalSpy changed(&session, &ui::ProjectSession::changed);
    bool called = false;
    auto* asker = new QObject;
    session.write(
        asker, [id](core::Project& project) { project.renameDataset(id, "renamed"); },
        [&](ui::SessionResult<std::monostate>) { called = true; });
    delete asker;
    QVERIFY(changed.wait(20000));
    QVERIFY(!called);
    core::Project project(file, core::Project::Access::ReadOnly);
    QCOMPARE(project.dataset(id).name, std::string("renamed"));
  }

  // The guard counts (debug builds abort instead, so this runs in release builds only).
  void theGuardCountsGuiThreadOpens() {
#ifndef NDEBUG
    QSKIP("debug builds abort on a GUI-thread open");
#endif
    const int before = ui::guiThreadProjectOpens();
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("opened on the GUI thread")));
    ui::offGuiThread(std::filesystem::path("x.latent"));
    QCOMPARE(ui::guiThreadProjectOpens(), before + 1);
  }

  // Open, import a sample, open its tab, rename, run a model, open the run, fill the panel from
  // it, delete a dataset with its runs: not one project connection on the GUI thread.
  void mainWindowActionsStayOffTheGuiThread() {
    const int before = ui::guiThreadProjectOpens();
    test::Scratch scratch;
    std::int64_t corpus = 0;
    const auto file = makeProject(scratch, &corpus);
    ui::MainWindow window;
    QVERIFY(test::openProject(window, ui::fromPath(file)));
    QVERIFY(window.session());
    QCOMPARE(window.session()->file(), file);

    // Import a sample through the window, then open its tab.
    QSignalSpy imported(&window, &ui::MainWindow::datasetImported);
    QVERIFY(window.importSample(QStringLiteral("karate")));
    QVERIFY(imported.wait(60000));
    const qint64 karate = imported.first().first().toLongLong();
    ui::TabPage* page = test::openDataset(window, karate);
    QVERIFY(page);
    QVERIFY(test::waitLoaded(page));
    QVERIFY(test::waitFor([&] { return window.projectTree()->datasetItem(karate) != nullptr; }));

    // Rename it: the tab and, after the session's change, the tree follow.
    QSignalSpy renamed(&window, &ui::MainWindow::datasetRenamed);
    window.renameDatasetTo(karate, QStringLiteral("club"));
    QVERIFY(renamed.wait(20000));
    QCOMPARE(window.tabs()->tabText(window.tabs()->indexOf(page)), QStringLiteral("club"));
    QVERIFY(test::waitFor([&] {
      auto* item = window.projectTree()->datasetItem(karate);
      return item && item->text(0) == QStringLiteral("club");
    }));
    // A taken name is refused, as an error in the log.
    window.renameDatasetTo(karate, QStringLiteral("words"));
    QVERIFY(test::waitFor([&] { return window.logView()->lines().last().contains(QStringLiteral("Cannot rename")); }));

    // A run, its tab (titled once read) and "run again" filling the panel.
    auto* panel = window.runPanel();
    QVERIFY(panel->selectDataset(corpus));
    QVERIFY(panel->selectModel(QStringLiteral("unigram")));
    panel->seedBox()->setValue(5);
    QSignalSpy ended(&window, &ui::MainWindow::runEnded);
    ui::JobController* controller = panel->start();
    QVERIFY2(controller, qPrintable(panel->errorText()));
    QVERIFY(ended.wait(60000));
    const qint64 runId = controller->runId();
    ui::RunView* view = window.openRun(runId);
    QVERIFY(view);
    QVERIFY(test::waitFor(
        [&] { return window.tabs()->tabText(window.tabs()->indexOf(view)).contains(QStringLiteral("unigram")); }));
    panel->seedBox()->setValue(99);
    Q_EMIT window.projectTree()->rerunRequested(runId);
    QVERIFY(test::waitFor([&] { return panel->seedBox()->value() == 5; }));

    // Delete the corpus: its run's tab closes, the tree loses it.
    QSignalSpy deleted(&window, &ui::MainWindow::datasetDeleted);
    window.removeDataset(corpus);
    QVERIFY(deleted.wait(20000));
    QCOMPARE(window.tabs()->indexOf(view), -1);
    QVERIFY(test::waitFor([&] { return window.projectTree()->datasetItem(corpus) == nullptr; }));
    {
      core::Project project(file, core::Project::Access::ReadOnly);
      QVERIFY(!project.findDataset("words"));
      QVERIFY(core::listRuns(project).empty());
    }

    window.closeProject();
    QVERIFY(!window.session());
    QCOMPARE(ui::guiThreadProjectOpens(), before);
  }
};

LATENT_TEST_CASE(TestProjectSession)
#include "tst_project_session.moc"
