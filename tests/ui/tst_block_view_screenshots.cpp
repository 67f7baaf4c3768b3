// SPDX-License-Identifier: GPL-3.0-or-later
// Not a check but pictures for people: with LATENT_UI_SHOTS=DIR set, runs the sampson-mmsb demo
// and fits sbm and mmsb to Zachary's karate club, then saves the main window with each block
// view (memberships triangle, line and projection with bars; blocks page; a 2,400-node graph
// drawn as densities; the dark palette) as PNG into DIR. Skipped otherwise.
#include <QApplication>
#include <QDir>
#include <QSignalSpy>
#include <QTabWidget>
#include <QtTest>

#include "core/data/synthetic_graph.hpp"
#include "core/jobs/fit_job.hpp"
#include "core/jobs/samples.hpp"
#include "core/models/network/block_model_results.hpp"
#include "core/store/run_store.hpp"
#include "dark_palette.hpp"
#include "test_case.hpp"
#include "test_support.hpp"
#include "ui/demo/demo_catalogue.hpp"
#include "ui/demo/demo_driver.hpp"
#include "ui/jobs/job_controller.hpp"
#include "ui/main_window.hpp"
#include "ui/runs/blocks/block_matrix_page.hpp"
#include "ui/runs/blocks/block_run_data.hpp"
#include "ui/runs/blocks/membership_page.hpp"
#include "ui/runs/option_form.hpp"
#include "ui/runs/run_panel.hpp"
#include "ui/runs/run_view.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/settings.hpp"
#include "ui_test_data.hpp"

using namespace latent;

namespace {

QPalette darkPalette() {
  QPalette dark = test::darkPalette();
  dark.setColor(QPalette::Mid, QColor(0x60, 0x60, 0x60));
  return dark;
}

}  // namespace

class TestBlockViewScreenshots : public QObject {
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
    if (dir.isEmpty()) QSKIP("set LATENT_UI_SHOTS=DIR to write screenshots of the block views");

    // The demo, as `latent-studio --demo sampson-mmsb --screenshot` takes it.
    {
      ui::MainWindow window;
      window.resize(1400, 900);
      window.show();
      auto* driver = new ui::DemoDriver(&window, *ui::findDemo(QStringLiteral("sampson-mmsb")),
                                        QDir(dir).filePath(QStringLiteral("sampson-mmsb-demo.png")));
      QSignalSpy finished(driver, &ui::DemoDriver::finished);
      driver->start();
      QVERIFY(finished.wait(120000));
      QVERIFY2(finished.first().at(0).toBool(), qPrintable(finished.first().at(1).toString()));
    }

    const auto file = m_scratch->path("shots.latent");
    std::int64_t large = 0;
    {
      core::Project project(file);
      core::importSample(project, "sampson");
      core::importSample(project, "karate");
      large = test::addGraph(project, "planted-2400", core::generateAssortativeSbm(2400, 5, 12, 8, false, 5).graph);
    }
    core::RunRequest request;
    request.model = "mmsb";
    request.dataset = "sampson";
    request.options = {{"k", 3}};
    const auto sampson = core::runFit(file, request, nullptr, {}).run.id;
    request.model = "sbm";
    request.dataset = "karate";
    request.options = {{"k", 2}};
    const auto karateSbm = core::runFit(file, request, nullptr, {}).run.id;
    request.options = {{"k", 4}};
    const auto karateSbm4 = core::runFit(file, request, nullptr, {}).run.id;
    request.model = "mmsb";
    request.options = {{"k", 5}};
    const auto karateMmsb = core::runFit(file, request, nullptr, {}).run.id;
    // The large graph's planted blocks stored as a run (fitting 2,400 nodes is not the point here).
    qint64 largeRun = 0;
    {
      core::Project project(file);
      const auto planted = core::generateAssortativeSbm(2400, 5, 12, 8, false, 5);
      core::RunRecord run;
      run.datasetId = large;
      run.model = "sbm";
      run.options = {{"k", 5}};
      run.objectiveName = "training objective";
      run.heldoutName = "held-out link perplexity";
      largeRun = core::createRun(project, run);
      core::saveMatrix(project, largeRun, core::kMemberships, -1, planted.memberships);
      core::saveMatrix(project, largeRun, core::kBlockMatrix, -1, planted.blockMatrix);
      core::finishRun(project, largeRun, core::RunStatus::Finished, "", 1.0, 1, nlohmann::json::object());
    }

    ui::MainWindow window;
    window.resize(1400, 900);
    window.show();
    QVERIFY(test::openProject(window, ui::fromPath(file)));
    auto save = [&](const QString& name) {
      QTest::qWait(300);
      QVERIFY(window.grab().save(QDir(dir).filePath(name)));
    };
    auto open = [&](qint64 id) {
      ui::RunView* view = window.openRun(id);
      const bool settled = view && QTest::qWaitFor([&] { return view->isSettled(); }, 60000);
      return settled ? view : nullptr;
    };
    ui::RunView* view = open(sampson);
    QVERIFY(view && view->page<ui::BlockMatrixPage>());
    view->pages()->setCurrentWidget(view->page<ui::BlockMatrixPage>());
    save(QStringLiteral("sampson-blocks.png"));

    view = open(karateSbm);
    QVERIFY(view && view->page<ui::BlockMatrixPage>());
    save(QStringLiteral("karate-sbm2-blocks.png"));
    view->pages()->setCurrentWidget(view->page<ui::MembershipPage>());
    save(QStringLiteral("karate-sbm2-memberships.png"));
    view = open(karateSbm4);
    QVERIFY(view && view->page<ui::BlockMatrixPage>());
    save(QStringLiteral("karate-sbm4-blocks.png"));
    view->pages()->setCurrentWidget(view->page<ui::MembershipPage>());
    save(QStringLiteral("karate-sbm4-memberships.png"));
    view = open(karateMmsb);
    QVERIFY(view && view->page<ui::MembershipPage>());
    save(QStringLiteral("karate-mmsb5-memberships.png"));
    view = open(largeRun);
    QVERIFY(view && view->page<ui::BlockMatrixPage>());
    save(QStringLiteral("large-blocks.png"));
    view->pages()->setCurrentWidget(view->page<ui::MembershipPage>());
    save(QStringLiteral("large-memberships.png"));

    // How long the GUI thread spends showing the largest graph drawn pair by pair (both
    // matrices built, then painted once).
    {
      std::int64_t dataset = 0;
      qint64 id = 0;
      const auto planted = core::generateAssortativeSbm(ui::kMaxPairwiseNodes, 5, 12, 8, false, 6);
      {
        core::Project project(file);
        dataset = test::addGraph(project, "planted-2000", planted.graph);
        core::RunRecord run;
        run.datasetId = dataset;
        run.model = "sbm";
        id = core::createRun(project, run);
        core::saveMatrix(project, id, core::kMemberships, -1, planted.memberships);
        core::saveMatrix(project, id, core::kBlockMatrix, -1, planted.blockMatrix);
        core::finishRun(project, id, core::RunStatus::Finished, "", 1.0, 1, nlohmann::json::object());
      }
      const auto loaded = ui::loadBlockRun(file, id);
      QVERIFY(loaded.data);
      ui::BlockMatrixPage page;
      page.resize(1000, 600);
      page.show();
      QElapsedTimer timer;
      timer.start();
      page.setData(loaded.data);
      const qint64 built = timer.elapsed();
      QVERIFY(!page.grab().isNull());
      qInfo("%d-node Blocks page: %lld ms to set the data, %lld ms with one paint", ui::kMaxPairwiseNodes, built,
            timer.elapsed());
    }

    // A running mmsb fit (karate, K = 3, one start, many sweeps) while its Memberships page follows it.
    {
      auto* panel = window.runPanel();
      QVERIFY(panel->selectDataset(core::Project(file, core::Project::Access::ReadOnly).resolveDataset("karate").id));
      QVERIFY(panel->selectModel(QStringLiteral("mmsb")));
      panel->optionForm()->setValues({{"k", 3}, {"iterations", 1000000}, {"restarts", 1}});
      ui::JobController* controller = panel->start();
      QVERIFY2(controller, qPrintable(panel->errorText()));
      QTRY_VERIFY_WITH_TIMEOUT(controller->hasRun(), 20000);
      ui::RunView* live = window.openRun(controller->runId());
      QVERIFY(live);
      QTRY_VERIFY_WITH_TIMEOUT(
          live->page<ui::MembershipPage>() && live->page<ui::MembershipPage>()->shownIteration() > 200, 60000);
      live->pages()->setCurrentWidget(live->page<ui::MembershipPage>());
      save(QStringLiteral("karate-mmsb-live.png"));
      controller->requestStop();
      QTRY_VERIFY_WITH_TIMEOUT(controller->state() == ui::JobController::State::Ended, 30000);
    }

    const QPalette before = QApplication::palette();
    QApplication::setPalette(darkPalette());
    view = open(sampson);
    view->pages()->setCurrentWidget(view->page<ui::MembershipPage>());
    save(QStringLiteral("sampson-memberships-dark.png"));
    view->pages()->setCurrentWidget(view->page<ui::BlockMatrixPage>());
    save(QStringLiteral("sampson-blocks-dark.png"));
    QApplication::setPalette(before);
  }
};

LATENT_TEST_CASE(TestBlockViewScreenshots)
#include "tst_block_view_screenshots.moc"
