// SPDX-License-Identifier: GPL-3.0-or-later
// Not a check but pictures for people: with LATENT_UI_SHOTS=DIR set, fits replicated softmax to
// the State of the Union sample (labelled by party) and saves the main window with the Hidden
// units, Activations and Weights pages (light, and the last two on a dark palette) as PNG into
// DIR. Skipped otherwise.
#include <QApplication>
#include <QDir>
#include <QTabWidget>
#include <QtTest>

#include "core/jobs/fit_job.hpp"
#include "core/jobs/samples.hpp"
#include "dark_palette.hpp"
#include "test_case.hpp"
#include "test_support.hpp"
#include "ui/main_window.hpp"
#include "ui/runs/hidden/hidden_activations_page.hpp"
#include "ui/runs/hidden/hidden_run_data.hpp"
#include "ui/runs/hidden/hidden_units_page.hpp"
#include "ui/runs/hidden/hidden_weights_page.hpp"
#include "ui/runs/run_view.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/settings.hpp"
#include "ui_test_data.hpp"

using namespace latent;

class TestHiddenViewScreenshots : public QObject {
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
    if (dir.isEmpty()) QSKIP("set LATENT_UI_SHOTS=DIR to write screenshots of the hidden-unit pages");
    const auto file = m_scratch->path("shots.latent");
    {
      core::Project project(file);
      core::importSample(project, "sotu");
    }
    core::RunRequest request;
    request.model = "rsm";
    request.dataset = "sotu";
    request.options = {{"k", 20}, {"iterations", 40}};
    request.heldout = 0.1;
    const qint64 run = core::runFit(file, request, nullptr, {}).run.id;

    ui::MainWindow window;
    window.resize(1400, 900);
    window.show();
    QVERIFY(test::openProject(window, ui::fromPath(file)));
    auto save = [&](const QString& name) {
      QTest::qWait(300);
      QVERIFY(window.grab().save(QDir(dir).filePath(name)));
    };
    ui::RunView* view = window.openRun(run);
    QVERIFY(test::waitFor([&] { return view->isSettled() && view->page<ui::HiddenUnitsPage>(); }, 60000));
    save(QStringLiteral("sotu-rsm-hidden-units.png"));
    auto* activations = view->page<ui::HiddenActivationsPage>();
    view->pages()->setCurrentWidget(activations);
    activations->selectDocument(activations->data()->documentCount() - 1);
    save(QStringLiteral("sotu-rsm-activations.png"));
    view->pages()->setCurrentWidget(view->page<ui::HiddenWeightsPage>());
    save(QStringLiteral("sotu-rsm-weights.png"));

    QPalette dark = test::darkPalette();
    dark.setColor(QPalette::Mid, QColor(0x50, 0x50, 0x50));
    const QPalette before = QApplication::palette();
    QApplication::setPalette(dark);
    save(QStringLiteral("sotu-rsm-weights-dark.png"));
    view->pages()->setCurrentWidget(activations);
    save(QStringLiteral("sotu-rsm-activations-dark.png"));
    QApplication::setPalette(before);
  }
};

LATENT_TEST_CASE(TestHiddenViewScreenshots)
#include "tst_hidden_view_screenshots.moc"
