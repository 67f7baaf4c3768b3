// SPDX-License-Identifier: GPL-3.0-or-later
// The run panel and the run machinery: models offered per data kind, option fields from the
// catalogue, a real run through runFit in the background, every report reaching the GUI, and
// stopping.
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QToolButton>
#include <QWheelEvent>
#include <QtTest>

#include <thread>

#include "core/jobs/fit_job.hpp"
#include "core/models/model.hpp"
#include "test_case.hpp"
#include "test_support.hpp"
#include "ui/jobs/job_controller.hpp"
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

namespace {

QStringList comboData(const QComboBox* box) {
  QStringList out;
  for (int i = 0; i < box->count(); ++i) out << box->itemData(i).toString();
  return out;
}

const core::ModelInfo* runPanelModel(const std::string& name) {
  for (const auto* info : core::modelCatalogue())
    if (info->name == name) return info;
  return nullptr;
}

QStringList catalogueNames(core::DataKind kind) {
  QStringList out;
  for (const auto* info : core::modelCatalogue())
    if (info->fits(kind)) out << ui::qs(info->name);
  return out;
}

}  // namespace

class TestRunPanel : public QObject {
  Q_OBJECT

  std::unique_ptr<test::Scratch> m_scratch;
  std::filesystem::path m_file;
  qint64 m_corpus = 0, m_graph = 0;

 private Q_SLOTS:
  // Scrolling the form over a number field scrolls the form and leaves the value alone; once the
  // field is clicked into, the wheel steps it (issue 20: "Restarts 0 -> 35" while scrolling).
  void wheelOverAnUnfocusedFieldScrollsTheForm() {
    QScrollArea area;
    auto* form = new ui::OptionForm;
    form->setModel(runPanelModel("lda-gibbs"));
    area.setWidget(form);
    area.setWidgetResizable(true);
    area.resize(400, 200);         // far shorter than lda-gibbs's fields: the form scrolls
    form->setAdvancedShown(true);  // restarts is one of lda-gibbs's advanced options
    area.show();
    QVERIFY(QTest::qWaitForWindowExposed(&area));
    auto* restarts = form->findChild<QSpinBox*>(QStringLiteral("restarts"));
    QVERIFY(restarts);
    const int before = restarts->value();
    const int scrolled = area.verticalScrollBar()->value();
    // A notch down (scrolls the form down, would step the field down) or up.
    const auto wheel = [&](QWidget* target, int delta) {
      const QPointF at(target->width() / 2.0, target->height() / 2.0);
      QWheelEvent event(at, target->mapToGlobal(at), QPoint(), QPoint(0, delta), Qt::NoButton, Qt::NoModifier,
                        Qt::NoScrollPhase, false);
      QApplication::sendEvent(target, &event);
    };
    wheel(restarts, -120);
    QCOMPARE(restarts->value(), before);
    QVERIFY(area.verticalScrollBar()->value() > scrolled);
    restarts->setFocus();
    QTRY_VERIFY(restarts->hasFocus());
    wheel(restarts, 120);  // up: restarts starts at its minimum
    QVERIFY(restarts->value() > before);
  }

  void initTestCase() {
    test::isolateSettings();
    ui::appSettings().clear();
    m_scratch = std::make_unique<test::Scratch>();
    m_file = m_scratch->path("runs.latent");
    core::Project project(m_file);
    // 40 documents, so that a 0.1 held-out fraction holds out 4 of them.
    std::vector<test::TextDocument> docs;
    for (int d = 0; d < 40; ++d)
      docs.push_back({"d" + std::to_string(d), "doc " + std::to_string(d),
                      d % 2 ? "money bank loan money bank" : "river stream bank river water"});
    m_corpus = test::addTextCorpus(project, "toy", docs);
    core::Graph g;
    g.nodeIds = {"a", "b", "c"};
    g.nodeNames = g.nodeIds;
    g.edges = {{0, 1, 1.0}, {1, 2, 1.0}};
    m_graph = test::addGraph(project, "triangle", g);
  }

  void modelsAreFilteredByDatasetKind() {
    ui::MainWindow window;
    QVERIFY(test::openProject(window, ui::fromPath(m_file)));
    auto* panel = window.runPanel();
    QCOMPARE(panel->datasetCombo()->count(), 2);
    QVERIFY(panel->selectDataset(m_corpus));
    QCOMPARE(comboData(panel->modelCombo()), catalogueNames(core::DataKind::Corpus));
    QVERIFY(comboData(panel->modelCombo()).contains(QStringLiteral("unigram")));
    QVERIFY(panel->selectDataset(m_graph));
    QCOMPARE(comboData(panel->modelCombo()), catalogueNames(core::DataKind::Graph));
    QVERIFY(!comboData(panel->modelCombo()).contains(QStringLiteral("unigram")));
    if (panel->modelCombo()->count() == 0) {
      // Nothing to fit: Start refuses with an inline message and starts nothing.
      QVERIFY(!panel->startButton()->isEnabled());
      QVERIFY(panel->start() == nullptr);
      QVERIFY(!panel->errorText().isEmpty());
      QCOMPARE(window.runManager()->controllers().size(), 0);
    }
  }

  void optionFieldsShowTheCatalogueDefaults() {
    ui::MainWindow window;
    QVERIFY(test::openProject(window, ui::fromPath(m_file)));
    auto* panel = window.runPanel();
    QVERIFY(panel->selectDataset(m_corpus));
    for (const auto* info : core::modelCatalogue()) {
      if (info->kind != core::DataKind::Corpus) continue;
      QVERIFY(panel->selectModel(ui::qs(info->name)));
      for (const auto& spec : info->options) {
        QWidget* field = panel->optionForm()->field(ui::qs(spec.name));
        QVERIFY2(field, spec.name.c_str());
        QCOMPARE(field->toolTip(), ui::qs(spec.help));
        switch (spec.type) {
          case core::OptionSpec::Type::Integer:
            QCOMPARE(qobject_cast<QSpinBox*>(field)->value(), spec.defaultValue.get<int>());
            break;
          case core::OptionSpec::Type::Real:
            QCOMPARE(qobject_cast<QDoubleSpinBox*>(field)->value(), spec.defaultValue.get<double>());
            break;
          case core::OptionSpec::Type::Boolean:
            QCOMPARE(qobject_cast<QCheckBox*>(field)->isChecked(), spec.defaultValue.get<bool>());
            break;
          case core::OptionSpec::Type::Choice:
            QCOMPARE(qobject_cast<QComboBox*>(field)->currentData().toString(),
                     ui::qs(spec.defaultValue.get<std::string>()));
            break;
          case core::OptionSpec::Type::Text:
            QVERIFY(qobject_cast<QComboBox*>(field)->isEditable());
            QCOMPARE(qobject_cast<QComboBox*>(field)->currentText(), ui::qs(spec.defaultValue.get<std::string>()));
            break;
        }
      }
      // The form's JSON is what resolveOptions accepts and equals the defaults.
      QCOMPARE(core::resolveOptions(*info, panel->optionForm()->values()),
               core::resolveOptions(*info, nlohmann::json::object()));
    }
    // Run settings defaults.
    QCOMPARE(panel->seedBox()->value(), 1);
    QCOMPARE(panel->threadsBox()->value(), std::max(1, QThread::idealThreadCount() - 1));
    QCOMPARE(panel->heldoutBox()->value(), 0.1);
  }

  void startRunsUnigramInTheBackground() {
    ui::MainWindow window;
    QVERIFY(test::openProject(window, ui::fromPath(m_file)));
    auto* panel = window.runPanel();
    QVERIFY(panel->selectDataset(m_corpus));
    QVERIFY(panel->selectModel(QStringLiteral("unigram")));
    panel->optionForm()->setValues({{"beta", 0.5}});
    panel->seedBox()->setValue(7);

    QSignalSpy started(window.runManager(), &ui::RunManager::started);
    ui::JobController* controller = panel->start();
    QVERIFY2(controller, qPrintable(panel->errorText()));
    QCOMPARE(started.count(), 1);
    QSignalSpy reports(controller, &ui::JobController::report);
    QSignalSpy ended(controller, &ui::JobController::ended);
    QTRY_VERIFY_WITH_TIMEOUT(controller->state() == ui::JobController::State::Ended, 30000);
    QVERIFY2(controller->error().isEmpty(), qPrintable(controller->error()));
    QCOMPARE(ended.count(), 1);

    const auto& run = controller->run();
    QCOMPARE(run.status, core::RunStatus::Finished);
    QCOMPARE(run.seed, std::uint64_t{7});
    QCOMPARE(run.options["beta"].get<double>(), 0.5);
    // Every report the model made reached the GUI, in order: as many as the store recorded.
    core::Project project(m_file, core::Project::Access::ReadOnly);
    const auto stored = core::loadMetrics(project, run.id);
    QVERIFY(!stored.empty());
    QCOMPARE(reports.count(), static_cast<int>(stored.size()));
    QCOMPARE(controller->reports().size(), static_cast<qsizetype>(stored.size()));
    for (int i = 0; i < reports.count(); ++i) {
      const auto r = reports.at(i).at(0).value<core::IterationReport>();
      QCOMPARE(r.iteration, stored[static_cast<std::size_t>(i)].iteration);
    }
    // The held-out value of the last report is the run's final held-out perplexity.
    const auto last = reports.last().at(0).value<core::IterationReport>();
    QVERIFY(last.heldout.has_value());
    QCOMPARE(*last.heldout, run.finalMetrics["heldout_perplexity"].get<double>());

    // The tree shows the run under its dataset, finished; its view opened.
    // (The tree re-reads the project in the background after the run ends.)
    const auto* tree = window.projectTree();
    QTRY_VERIFY_WITH_TIMEOUT(
        tree->runItem(run.id) && tree->runItem(run.id)->text(0).contains(QStringLiteral("finished")), 10000);
    auto* item = tree->runItem(run.id);
    QCOMPARE(item->parent(), tree->datasetItem(m_corpus));
    auto* view = qobject_cast<ui::RunView*>(window.tabs()->currentWidget());
    QVERIFY(view);
    QCOMPARE(view->runId(), run.id);
    // The view opened while the run went and reads it again when it ends: loaded is not enough
    // (it was, from the first reading), settled is (read again, no longer running).
    QVERIFY(test::waitFor([&] { return view->isSettled(); }));
    QCOMPARE(view->run().status, core::RunStatus::Finished);
  }

  void stopFromThePanelRecordsAStoppedRun() {
    ui::MainWindow window;
    QVERIFY(test::openProject(window, ui::fromPath(m_file)));
    auto* panel = window.runPanel();
    QVERIFY(panel->selectDataset(m_corpus));
    QVERIFY(panel->selectModel(QStringLiteral("unigram")));
    // Hold the project's write lock so the job cannot record its run (and so cannot finish)
    // before Stop is pressed: this makes the test independent of how fast unigram is.
    auto holder = std::make_unique<core::Project>(m_file);
    auto lock = std::make_unique<core::Transaction>(holder->db());
    ui::JobController* controller = panel->start();
    QVERIFY(controller);
    QVERIFY(panel->stopButton()->isEnabled());
    panel->stopCurrent();
    QVERIFY(controller->stopRequested());
    lock.reset();  // rolls back; the job goes on and finds the stop request
    holder.reset();
    QTRY_VERIFY_WITH_TIMEOUT(controller->state() == ui::JobController::State::Ended, 30000);
    QVERIFY2(controller->error().isEmpty(), qPrintable(controller->error()));
    QCOMPARE(controller->run().status, core::RunStatus::Stopped);
    core::Project project(m_file, core::Project::Access::ReadOnly);
    QCOMPARE(core::loadRun(project, controller->runId()).status, core::RunStatus::Stopped);
    // The tree re-reads the project in the background after the run ends: wait for its item.
    const auto* tree = window.projectTree();
    const qint64 runId = controller->runId();
    QTRY_VERIFY_WITH_TIMEOUT(tree->runItem(runId) && tree->runItem(runId)->text(0).contains(QStringLiteral("stopped")),
                             10000);
  }

  void controllerAsksTheModelToStop() {
    // The observer path on its own: once stop is requested, onReport answers false, and a fit
    // observed by that controller is recorded as stopped.
    ui::JobController controller(core::RunRequest{});
    core::IterationReport report;
    report.iteration = 1;
    QVERIFY(controller.onReport(report));
    controller.requestStop();
    QVERIFY(!controller.onReport(report));

    core::RunRequest request;
    request.model = "unigram";
    request.dataset = "toy";
    request.heldout = 0.1;
    ui::JobController stopping(request);
    stopping.requestStop();  // no stop_token: only the observer's answer stops it
    QSignalSpy ended(&stopping, &ui::JobController::ended);
    std::thread worker([&] {
      try {
        auto outcome = core::runFit(m_file, request, &stopping, std::stop_token{},
                                    [&](const core::RunRecord& run) { stopping.postCreated(run); });
        stopping.postEnded(outcome.run, {});
      } catch (const std::exception& e) {
        stopping.postEnded(std::nullopt, ui::qs(e.what()));
      }
    });
    QVERIFY(ended.wait(30000));
    worker.join();
    QCOMPARE(stopping.run().status, core::RunStatus::Stopped);
    QCOMPARE(stopping.reports().size(), 1);
  }

  // Issue 20, defect 5: a corpus starts from LDA, not from the unigram baseline the catalogue
  // lists first, and New Run on a dataset of another kind does not fall back to that baseline.
  void eachKindStartsFromItsWorkhorse() {
    ui::MainWindow window;
    QVERIFY(test::openProject(window, ui::fromPath(m_file)));
    auto* panel = window.runPanel();
    QVERIFY(panel->selectDataset(m_corpus));
    QCOMPARE(panel->modelCombo()->currentData().toString(), QStringLiteral("lda-gibbs"));
    QVERIFY(panel->selectDataset(m_graph));
    QCOMPARE(panel->modelCombo()->currentData().toString(), QStringLiteral("sbm"));
    QVERIFY(panel->selectDataset(m_corpus));
    QCOMPARE(panel->modelCombo()->currentData().toString(), QStringLiteral("lda-gibbs"));
    // A model chosen by hand for a kind of data comes back with the next dataset of that kind.
    QVERIFY(panel->selectModel(QStringLiteral("lda-vb")));
    QVERIFY(panel->selectDataset(m_graph));
    QVERIFY(panel->selectDataset(m_corpus));
    QCOMPARE(panel->modelCombo()->currentData().toString(), QStringLiteral("lda-vb"));
  }

  // Issue 20, defect 5: lda-gibbs's twenty fields, each with a paragraph, pushed Start below the
  // fold. Its first options show; the rest fold under Advanced, their help on hover and focus.
  void advancedOptionsFoldAndHelpFollowsTheFocus() {
    ui::OptionForm form;
    form.setModel(runPanelModel("lda-gibbs"));
    form.show();
    QVERIFY(QTest::qWaitForWindowExposed(&form));
    auto* toggle = form.advancedToggle();
    QVERIFY(toggle && toggle->isVisible());
    const auto options = runPanelModel("lda-gibbs")->options.size();
    QCOMPARE(toggle->text(), QStringLiteral("Advanced options (%1)").arg(options - ui::kCommonOptionCount));
    for (const char* name : {"k", "iterations", "alpha", "beta"}) {
      QVERIFY2(form.isCommon(QString::fromLatin1(name)), name);
      QVERIFY2(form.field(QString::fromLatin1(name))->isVisible(), name);
    }
    QVERIFY(!form.field(QStringLiteral("restarts"))->isVisible());
    toggle->click();
    QVERIFY(form.advancedShown());
    QVERIFY(form.field(QStringLiteral("restarts"))->isVisible());
    // No paragraph per field: the help of the focused field is the one line under the form.
    QVERIFY(form.helpText().isEmpty());
    form.field(QStringLiteral("beta"))->setFocus();
    QTRY_VERIFY(form.helpText().contains(QStringLiteral("Beta")));
    QVERIFY(form.helpText().contains(form.field(QStringLiteral("beta"))->toolTip().left(20).toHtmlEscaped()));
    // A run repeated with changes shows the advanced options it changed.
    ui::OptionForm again;
    again.setModel(runPanelModel("lda-gibbs"));
    QVERIFY(!again.advancedShown());
    again.setValues({{"k", 30}});
    QVERIFY(!again.advancedShown());
    again.setValues({{"restarts", 3}});
    QVERIFY(again.advancedShown());
    // A model with few options shows them all, without a fold.
    ui::OptionForm few;
    few.setModel(runPanelModel("unigram"));
    QVERIFY(few.advancedToggle()->isHidden());
  }

  // Issue 20, defect 5: at 1024 x 680 the Start button of an lda-gibbs run is in view without
  // scrolling; New Run (Ctrl+R) scrolls the panel back to the form.
  void startIsInViewAndNewRunScrollsToTheForm() {
    ui::MainWindow window;
    window.resize(1024, 680);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(test::openProject(window, ui::fromPath(m_file)));
    auto* panel = window.runPanel();
    QVERIFY(panel->selectDataset(m_corpus));
    QCOMPARE(panel->modelCombo()->currentData().toString(), QStringLiteral("lda-gibbs"));
    auto* scroll = panel->findChild<QScrollArea*>();
    QVERIFY(scroll);
    QTest::qWait(50);  // the layout settles
    if (const char* shots = std::getenv("LATENT_UI_SHOTS"))
      window.grab().save(QString::fromLocal8Bit(shots) + QStringLiteral("/run_panel_1024x680.png"));
    const QRect start(panel->startButton()->mapTo(scroll->viewport(), QPoint(0, 0)), panel->startButton()->size());
    QVERIFY2(scroll->viewport()->rect().contains(start),
             qPrintable(QStringLiteral("Start at y %1..%2, viewport height %3")
                            .arg(start.top())
                            .arg(start.bottom())
                            .arg(scroll->viewport()->height())));
    scroll->verticalScrollBar()->setValue(scroll->verticalScrollBar()->maximum());
    QAction* newRun = nullptr;
    for (QAction* a : window.findChildren<QAction*>())
      if (a->shortcut() == QKeySequence(Qt::CTRL | Qt::Key_R)) newRun = a;
    QVERIFY(newRun);
    newRun->trigger();
    QCOMPARE(scroll->verticalScrollBar()->value(), 0);
  }

  // Issue 20, defects 4 and 6: a run opens as it starts; Quit while it goes asks first, and
  // Cancel leaves it going.
  void aRunOpensAtItsStartAndQuitAsksWhileItGoes() {
    ui::MainWindow window;
    QVERIFY(test::openProject(window, ui::fromPath(m_file)));
    int asked = 0;
    auto answer = QMessageBox::Cancel;
    window.setPrompts(
        [&](const QString&, const QString& text, QMessageBox::StandardButtons) {
          ++asked;
          if (!text.contains(QStringLiteral("run"))) return QMessageBox::NoButton;
          return answer;
        },
        [](const QString&, const QString&) { return QString(); });
    auto* panel = window.runPanel();
    QVERIFY(panel->selectDataset(m_corpus));
    QVERIFY(panel->selectModel(QStringLiteral("lda-gibbs")));
    panel->optionForm()->setValues({{"iterations", 1000000}, {"k", 2}});
    ui::JobController* controller = panel->start();
    QVERIFY(controller);
    QTRY_VERIFY_WITH_TIMEOUT(controller->hasRun(), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(qobject_cast<ui::RunView*>(window.tabs()->currentWidget()), 10000);
    QCOMPARE(qobject_cast<ui::RunView*>(window.tabs()->currentWidget())->runId(), controller->runId());
    QVERIFY(controller->state() != ui::JobController::State::Ended);

    QVERIFY(!window.close());
    QCOMPARE(asked, 1);
    QVERIFY(controller->state() != ui::JobController::State::Ended);
    answer = QMessageBox::Yes;
    QVERIFY(window.close());
    QCOMPARE(asked, 2);
    QTRY_VERIFY_WITH_TIMEOUT(controller->state() == ui::JobController::State::Ended, 30000);
    QCOMPARE(controller->run().status, core::RunStatus::Stopped);
  }

  // Issue 20, defect 6: a reopened project's runs are listed in the panel ("No runs in this
  // session yet" despite six runs), and one opens from there.
  void aReopenedProjectListsItsRuns() {
    qint64 runId = 0;
    {
      core::Project project(m_file);
      core::RunRecord run;
      run.datasetId = m_corpus;
      run.model = "unigram";
      run.status = core::RunStatus::Running;
      runId = core::createRun(project, run);
      core::finishRun(project, runId, core::RunStatus::Finished, {}, 1.0, 1, nlohmann::json::object());
    }
    ui::MainWindow window;
    QVERIFY(test::openProject(window, ui::fromPath(m_file)));
    QPushButton* button = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT(!window.runPanel()->findChildren<QPushButton*>(QStringLiteral("earlierRun")).isEmpty(),
                             10000);
    const auto buttons = window.runPanel()->findChildren<QPushButton*>(QStringLiteral("earlierRun"));
    for (auto* b : buttons)
      if (b->property("runId").toLongLong() == runId) button = b;
    QVERIFY(button);
    QVERIFY2(button->text().contains(QStringLiteral("unigram")) && button->text().contains(QStringLiteral("finished")),
             qPrintable(button->text()));
    QVERIFY(buttons.size() <= 6);
    button->click();
    auto* view = qobject_cast<ui::RunView*>(window.tabs()->currentWidget());
    QVERIFY(view);
    QCOMPARE(view->runId(), runId);
  }

  void rerunFillsTheFormFromARun() {
    ui::MainWindow window;
    QVERIFY(test::openProject(window, ui::fromPath(m_file)));
    auto* panel = window.runPanel();
    core::RunRecord run;
    run.id = 99;
    run.datasetId = m_corpus;
    run.model = "unigram";
    run.options = {{"beta", 0.25}};
    run.seed = 42;
    run.threads = 1;
    run.heldout = 0.3;
    QVERIFY(panel->selectDataset(m_graph));
    panel->fillFromRun(run);
    QCOMPARE(panel->datasetCombo()->currentData().toLongLong(), m_corpus);
    QCOMPARE(panel->modelCombo()->currentData().toString(), QStringLiteral("unigram"));
    QCOMPARE(qobject_cast<QDoubleSpinBox*>(panel->optionForm()->field(QStringLiteral("beta")))->value(), 0.25);
    QCOMPARE(panel->seedBox()->value(), 42);
    QCOMPARE(panel->heldoutBox()->value(), 0.3);
  }
};

LATENT_TEST_CASE(TestRunPanel)
#include "tst_run_panel.moc"
