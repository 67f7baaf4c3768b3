// SPDX-License-Identifier: GPL-3.0-or-later
// latent-studio: parses the command line (DESIGN §6) and starts the main window; no logic here.
#include <QApplication>
#include <QCommandLineParser>
#include <QMessageBox>
#include <QTimer>

#include <cstdio>

#include "core/util/version.hpp"
#include "ui/demo/demo_catalogue.hpp"
#include "ui/demo/demo_driver.hpp"
#include "ui/main_window.hpp"
#include "ui/util/format.hpp"
#include "ui/util/preferences.hpp"
#include "ui/util/resources.hpp"

namespace {

// A screenshot run must end even when something hangs: after this long the window is saved
// as it is and the program exits with 1.
constexpr int kScreenshotTimeoutMs = 180000;

bool saveScreenshot(QWidget* window, const QString& file) { return window->grab().save(file, "PNG"); }

}  // namespace

int main(int argc, char* argv[]) {
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("Latent Studio"));
  QApplication::setApplicationName(QStringLiteral("latent-studio"));
  QApplication::setApplicationDisplayName(QStringLiteral("Latent Studio"));
  QApplication::setApplicationVersion(QString::fromLatin1(latent::core::kAppVersion));
  QApplication::setDesktopFileName(QStringLiteral("latent-studio"));
  latent::ui::initResources();
  QApplication::setWindowIcon(latent::ui::appIcon());
  // The theme of the user's preferences, before any window takes the palette.
  latent::ui::applyTheme(latent::ui::loadPreferences().theme);

  QCommandLineParser parser;
  parser.setApplicationDescription(
      QStringLiteral("Latent Studio: latent variable models for text, networks and ratings."));
  parser.addHelpOption();
  parser.addVersionOption();
  const QCommandLineOption openOption(QStringLiteral("open"), QStringLiteral("Open the project FILE.latent."),
                                      QStringLiteral("FILE"));
  const QCommandLineOption demoOption(QStringLiteral("demo"),
                                      QStringLiteral("Start a built-in demo (%1).").arg(latent::ui::demoNames()),
                                      QStringLiteral("NAME"));
  const QCommandLineOption screenshotOption(
      QStringLiteral("screenshot"),
      QStringLiteral("When the demo has shown its result, save the window as PNG to FILE and exit."),
      QStringLiteral("FILE"));
  parser.addOptions({openOption, demoOption, screenshotOption});
  parser.process(app);

  const QString demo = parser.value(demoOption);
  const QString screenshot = parser.value(screenshotOption);
  std::optional<latent::ui::DemoSpec> spec;
  if (parser.isSet(demoOption)) {
    spec = latent::ui::findDemo(demo);
    if (!spec) {
      std::fprintf(stderr, "latent-studio: unknown demo '%s'; the demos are: %s\n", qPrintable(demo),
                   qPrintable(latent::ui::demoNames()));
      return 2;
    }
  }

  latent::ui::MainWindow window;
  window.show();

  if (parser.isSet(openOption)) {
    // The project opens off the GUI thread: a failure can come now (a missing file) or later.
    auto refuse = [&window, screenshot](const QString& error) {
      if (!screenshot.isEmpty()) {
        std::fprintf(stderr, "latent-studio: %s\n", qPrintable(error));
        QCoreApplication::exit(2);
        return;
      }
      // Not modal: the window stays usable, the log keeps the message.
      auto* box =
          new QMessageBox(QMessageBox::Warning, QStringLiteral("Latent Studio"), error, QMessageBox::Ok, &window);
      box->setAttribute(Qt::WA_DeleteOnClose);
      box->setModal(false);
      box->show();
    };
    const auto failed = QObject::connect(&window, &latent::ui::MainWindow::projectOpenFailed, &window, refuse,
                                         Qt::SingleShotConnection);
    QObject::connect(
        &window, &latent::ui::MainWindow::projectOpened, &window, [failed] { QObject::disconnect(failed); },
        Qt::SingleShotConnection);
    if (!window.openProject(parser.value(openOption)) && !screenshot.isEmpty()) return 2;  // `refuse` has said why
  }

  if (!screenshot.isEmpty()) {
    QTimer::singleShot(kScreenshotTimeoutMs, &app, [&window, screenshot] {
      std::fprintf(stderr, "latent-studio: the demo did not finish in time; saving the window as it is\n");
      saveScreenshot(&window, screenshot);
      QCoreApplication::exit(1);
    });
  }

  if (spec) {
    auto* driver = new latent::ui::DemoDriver(&window, *spec, screenshot);
    QObject::connect(driver, &latent::ui::DemoDriver::finished, &app, [screenshot](bool ok, const QString& message) {
      if (!ok) std::fprintf(stderr, "latent-studio: the demo failed: %s\n", qPrintable(message));
      if (!screenshot.isEmpty()) QCoreApplication::exit(ok ? 0 : 1);
    });
    driver->start();
  } else if (!screenshot.isEmpty()) {
    // No demo: the window as opened, once it has been laid out and painted.
    QTimer::singleShot(800, &app,
                       [&window, screenshot] { QCoreApplication::exit(saveScreenshot(&window, screenshot) ? 0 : 1); });
  }
  return app.exec();
}
