// SPDX-License-Identifier: GPL-3.0-or-later
// Edit > Preferences (issue 20, missing 8): the dialog saves threads, seed, stop words and theme
// in the settings; a new Run panel starts from them and the open one takes them at once; the
// import form's stop words start from them; the theme sets the application palette and System
// brings the platform's back.
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QSpinBox>
#include <QtTest>

#include "test_case.hpp"
#include "test_support.hpp"
#include "ui/import/import_options_form.hpp"
#include "ui/import/import_settings.hpp"
#include "ui/jobs/run_manager.hpp"
#include "ui/main_window.hpp"
#include "ui/runs/run_panel.hpp"
#include "ui/util/preferences.hpp"
#include "ui/util/settings.hpp"
#include "ui/widgets/preferences_dialog.hpp"
#include "ui_test_data.hpp"

using namespace latent;

class TestPreferences : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() {
    test::isolateSettings();
    ui::appSettings().clear();
  }
  void cleanup() {
    ui::applyTheme(ui::Theme::System);
    ui::appSettings().clear();
  }

  void defaultsWithoutSettings() {
    const ui::Preferences p = ui::loadPreferences();
    QCOMPARE(p.threads, 0);
    QCOMPARE(p.seed, 1u);
    QVERIFY(p.stopWords.isEmpty());
    QVERIFY(p.theme == ui::Theme::System);
    QCOMPARE(ui::preferredThreads(p), std::max(1, QThread::idealThreadCount() - 1));
  }

  void dialogSavesAndTheRunPanelsFollow() {
    ui::MainWindow window;
    QAction* action = window.preferencesAction();
    QVERIFY(action);
    QCOMPARE(action->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_Comma));
    // It sits in the Edit menu.
    bool inEdit = false;
    for (QAction* menu : window.menuBar()->actions())
      if (menu->menu() && menu->text() == QStringLiteral("&Edit")) inEdit = menu->menu()->actions().contains(action);
    QVERIFY(inEdit);

    ui::PreferencesDialog* dialog = window.showPreferences();
    QVERIFY(dialog && dialog->isVisible());
    if (const QString dir = qEnvironmentVariable("LATENT_UI_SHOTS"); !dir.isEmpty())
      QVERIFY(dialog->grab().save(QDir(dir).filePath(QStringLiteral("preferences.png"))));
    QCOMPARE(window.showPreferences(), dialog);  // one at a time
    dialog->threadsBox()->setValue(3);
    dialog->seedBox()->setValue(4242);
    dialog->stopWordsBox()->setCurrentIndex(dialog->stopWordsBox()->findData(QStringLiteral("none")));
    dialog->themeBox()->setCurrentIndex(dialog->themeBox()->findData(QStringLiteral("dark")));
    QVERIFY(!dialog->stopFileEdit()->isEnabled());
    QSignalSpy changed(dialog, &ui::PreferencesDialog::preferencesChanged);
    dialog->accept();
    QCOMPARE(changed.count(), 1);

    // Saved ...
    const ui::Preferences p = ui::loadPreferences();
    QCOMPARE(p.threads, 3);
    QCOMPARE(p.seed, 4242u);
    QCOMPARE(p.stopWords, QStringLiteral("none"));
    QVERIFY(p.theme == ui::Theme::Dark);
    // ... applied at once: the open panel's fields and the application's palette ...
    QCOMPARE(window.runPanel()->threadsBox()->value(), 3);
    QCOMPARE(window.runPanel()->seedBox()->value(), 4242);
    QCOMPARE(QApplication::palette().color(QPalette::Base), ui::darkThemePalette().color(QPalette::Base));
    QTRY_COMPARE(window.palette().color(QPalette::Window), ui::darkThemePalette().color(QPalette::Window));
    // ... and a new panel starts from them.
    ui::RunManager runs;
    ui::RunPanel panel(&runs);
    QCOMPARE(panel.threadsBox()->value(), 3);
    QCOMPARE(panel.seedBox()->value(), 4242);
    if (const QString dir = qEnvironmentVariable("LATENT_UI_SHOTS"); !dir.isEmpty()) {
      ui::PreferencesDialog dark(ui::loadPreferences());
      dark.show();
      QVERIFY(QTest::qWaitForWindowExposed(&dark));
      QVERIFY(dark.grab().save(QDir(dir).filePath(QStringLiteral("preferences-dark.png"))));
    }
  }

  void cancelChangesNothing() {
    ui::PreferencesDialog dialog(ui::loadPreferences());
    dialog.seedBox()->setValue(99);
    dialog.themeBox()->setCurrentIndex(dialog.themeBox()->findData(QStringLiteral("dark")));
    const QPalette before = QApplication::palette();
    dialog.reject();
    QCOMPARE(ui::loadPreferences().seed, 1u);
    QCOMPARE(QApplication::palette().color(QPalette::Base), before.color(QPalette::Base));
  }

  void themesSetThePaletteAndSystemRestoresIt() {
    const QColor system = QApplication::palette().color(QPalette::Base);
    ui::applyTheme(ui::Theme::Dark);
    QCOMPARE(QApplication::palette().color(QPalette::Base), ui::darkThemePalette().color(QPalette::Base));
    QVERIFY(QApplication::palette().color(QPalette::Base).lightness() < 64);
    ui::applyTheme(ui::Theme::Light);
    QCOMPARE(QApplication::palette().color(QPalette::Base), QColor(Qt::white));
    ui::applyTheme(ui::Theme::System);
    QCOMPARE(QApplication::palette().color(QPalette::Base), system);
    // Unknown names read as System, and the names round-trip.
    QVERIFY(ui::themeFromName(QStringLiteral("purple")) == ui::Theme::System);
    for (auto theme : {ui::Theme::System, ui::Theme::Light, ui::Theme::Dark})
      QVERIFY(ui::themeFromName(ui::themeName(theme)) == theme);
    // The dark theme's outlines show: Mid and Text stand apart from Base.
    const QPalette dark = ui::darkThemePalette();
    QVERIFY(dark.color(QPalette::Mid).lightness() > dark.color(QPalette::Base).lightness() + 40);
    QVERIFY(dark.color(QPalette::Text).lightness() > 200);
  }

  // The import form's stop words start from the preference: a named list, or a file.
  void importStopWordsStartFromThePreference_data() {
    QTest::addColumn<QString>("preferred");
    QTest::addColumn<QString>("request");
    QTest::newRow("default") << QString() << QString();
    QTest::newRow("english") << QStringLiteral("en") << QStringLiteral("en");
    QTest::newRow("none") << QStringLiteral("none") << QStringLiteral("none");
    QTest::newRow("file") << QStringLiteral("/tmp/my-stop-words.txt") << QStringLiteral("/tmp/my-stop-words.txt");
  }
  void importStopWordsStartFromThePreference() {
    QFETCH(QString, preferred);
    QFETCH(QString, request);
    ui::Preferences p;
    p.stopWords = preferred;
    ui::savePreferences(p);
    ui::ImportOptionsForm form(core::DataKind::Corpus);
    ui::ImportSettings settings;
    settings.kind = core::DataKind::Corpus;
    form.apply(settings);
    if (request.isEmpty())
      QVERIFY(!settings.corpus.stopWords.has_value());
    else
      QCOMPARE(QString::fromStdString(settings.corpus.stopWords.value_or("")), request);
  }

  void dialogShowsAStopWordFile() {
    ui::Preferences p;
    p.stopWords = QStringLiteral("/data/stop.txt");
    p.threads = 2;
    ui::PreferencesDialog dialog(p);
    QCOMPARE(dialog.stopWordsBox()->currentData().toString(), QStringLiteral("file"));
    QVERIFY(dialog.stopFileEdit()->isEnabled());
    QCOMPARE(dialog.stopFileEdit()->text(), QStringLiteral("/data/stop.txt"));
    QCOMPARE(dialog.preferences().stopWords, QStringLiteral("/data/stop.txt"));
    QCOMPARE(dialog.preferences().threads, 2);
  }
};

LATENT_TEST_CASE(TestPreferences)
#include "tst_preferences.moc"
