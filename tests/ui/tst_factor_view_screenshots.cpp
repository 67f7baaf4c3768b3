// SPDX-License-Identifier: GPL-3.0-or-later
// Not a check but pictures for people: with LATENT_UI_SHOTS=DIR set, fits pmf to the InstEval
// sample and saves the main window with the Factors page (as opened, with a search, with users
// shown, on a dark palette) as PNG into DIR, and reports how long the dots take to draw.
// Skipped otherwise.
#include <QApplication>
#include <QCheckBox>
#include <QDir>
#include <QTabWidget>
#include <QtTest>

#include "core/jobs/fit_job.hpp"
#include "core/jobs/samples.hpp"
#include "dark_palette.hpp"
#include "test_case.hpp"
#include "test_support.hpp"
#include "ui/main_window.hpp"
#include "ui/runs/factors/factor_page.hpp"
#include "ui/runs/factors/factor_run_data.hpp"
#include "ui/runs/factors/factor_scatter_view.hpp"
#include "ui/runs/run_view.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/settings.hpp"
#include "ui_test_data.hpp"

using namespace latent;

class TestFactorViewScreenshots : public QObject {
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
    if (dir.isEmpty()) QSKIP("set LATENT_UI_SHOTS=DIR to write screenshots of the factor page");
    const auto file = m_scratch->path("shots.latent");
    {
      core::Project project(file);
      core::importSample(project, "insteval");
    }
    core::RunRequest request;
    request.model = "pmf";
    request.dataset = "insteval";
    request.options = {{"k", 30}, {"iterations", 15}};
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
    QVERIFY(test::waitFor(
        [&] {
          return view->isSettled() && view->page<ui::FactorPage>() && !view->page<ui::FactorPage>()->isComputing();
        },
        60000));
    auto* page = view->page<ui::FactorPage>();
    save(QStringLiteral("insteval-factors.png"));
    qInfo("%d lecturers drawn in %.1f ms", page->data()->itemCount(), page->scatter()->lastRenderMilliseconds());
    page->search(page->data()->itemId(
        page->recommendations().empty() ? 0 : static_cast<int>(page->recommendations().front().first)));
    save(QStringLiteral("insteval-factors-search.png"));
    page->search(QString());
    page->usersBox()->setChecked(true);
    save(QStringLiteral("insteval-factors-users.png"));
    qInfo("%d lecturers and %d students drawn in %.1f ms", page->data()->itemCount(), page->data()->userCount(),
          page->scatter()->lastRenderMilliseconds());

    QPalette dark = test::darkPalette();
    dark.setColor(QPalette::Mid, QColor(0x50, 0x50, 0x50));
    const QPalette before = QApplication::palette();
    QApplication::setPalette(dark);
    save(QStringLiteral("insteval-factors-dark.png"));
    QApplication::setPalette(before);
  }
};

LATENT_TEST_CASE(TestFactorViewScreenshots)
#include "tst_factor_view_screenshots.moc"
