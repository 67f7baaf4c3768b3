// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 20, missing items 5 and 8 in the window: a run's name and notes edited from its dialog show
// in the tree, its tab and its header; Compare Runs tabulates a dataset's runs (only the options
// that differ, the final metrics by their names, time and state), sorts numbers as numbers and opens
// a run on a double click; the user guide (F1) names only menu entries that exist and goes to a
// heading; Keyboard Shortcuts is read from the actions. With LATENT_UI_SHOTS=DIR it saves the
// comparison, the guide and the shortcut list.
#include <QAction>
#include <QDir>
#include <QHeaderView>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QtTest>

#include "core/store/run_notes.hpp"
#include "core/store/run_store.hpp"
#include "test_case.hpp"
#include "test_support.hpp"
#include "ui/help/shortcut_list.hpp"
#include "ui/help/user_guide_window.hpp"
#include "ui/main_window.hpp"
#include "ui/runs/run_comparison_view.hpp"
#include "ui/runs/run_notes_dialog.hpp"
#include "ui/runs/run_view.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/settings.hpp"
#include "ui/widgets/project_tree.hpp"
#include "ui_test_data.hpp"

using namespace latent;

namespace {

struct ComparedRuns {
  qint64 corpus = 0;
  qint64 k5 = 0, k10 = 0, k20 = 0, vb = 0;
};

// Four runs of one corpus: lda-gibbs at K = 5, 10 and 20 (alpha and iterations the same), and an
// lda-vb at K = 10 stopped early. Perplexities 950.5, 1,020.25, 880 and 1,500: a text sort would
// put 1,020.25 and 1,500 first.
ComparedRuns storeComparedRuns(const std::filesystem::path& file) {
  core::Project project(file);
  ComparedRuns out;
  out.corpus = test::addTextCorpus(project, "words",
                                   {{"d1", "First", "apple banana apple"},
                                    {"d2", "Second", "banana cherry"},
                                    {"d3", "Third", "cherry cherry date"}});
  auto add = [&](const char* model, int k, double perplexity, core::RunStatus status, double seconds) {
    core::RunRecord run;
    run.datasetId = out.corpus;
    run.model = model;
    run.options = {{"k", k}, {"alpha", 0.1}, {"iterations", 200}};
    run.heldoutName = "held-out perplexity";
    const auto id = core::createRun(project, run);
    core::finishRun(project, id, status, {}, seconds, 200,
                    {{"heldout_perplexity", perplexity}, {"train_log_likelihood", -7.5 + k * 0.01}});
    return id;
  };
  out.k5 = add("lda-gibbs", 5, 950.5, core::RunStatus::Finished, 12.0);
  out.k10 = add("lda-gibbs", 10, 1020.25, core::RunStatus::Finished, 9.0);
  out.k20 = add("lda-gibbs", 20, 880.0, core::RunStatus::Finished, 30.0);
  out.vb = add("lda-vb", 10, 1500.0, core::RunStatus::Stopped, 2.0);
  return out;
}

QAction* menuAction(QMenu& menu, const QString& text) {
  for (QAction* a : menu.actions())
    if (a->text() == text) return a;
  return nullptr;
}

QString plain(QString text) {
  text.remove(QLatin1Char('&'));
  return text.simplified();
}

// The action under "Menu > Entry" in the window's menu bar (submenus included), or null.
const QAction* menuEntry(QMainWindow& window, const QString& menuTitle, const QString& entry) {
  for (const QAction* top : window.menuBar()->actions()) {
    if (!top->menu() || plain(top->menu()->title()) != menuTitle) continue;
    for (const QAction* a : top->menu()->actions())
      if (plain(a->text()) == entry) return a;
  }
  return nullptr;
}

}  // namespace

class TestRunManagement : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() {
    test::isolateSettings();
    ui::appSettings().clear();
  }

  void nameAndNotesShowInTheTreeTabAndHeader() {
    test::Scratch scratch;
    const auto file = scratch.path("runs.latent");
    const auto runs = storeComparedRuns(file);
    ui::MainWindow window;
    QVERIFY(test::openProject(window, ui::fromPath(file)));
    auto* view = window.openRun(runs.k10);
    QVERIFY(view);
    QTRY_VERIFY_WITH_TIMEOUT(view->isLoaded(), 20000);
    QVERIFY(!view->headerText().contains(QStringLiteral("first try")));

    // The dialog, opened from the run's menu in the tree, filled in and accepted.
    QSignalSpy opened(&window, &ui::MainWindow::runNotesDialogOpened);
    QSignalSpy annotated(&window, &ui::MainWindow::runAnnotated);
    QMenu runMenu;
    QVERIFY(window.projectTree()->fillContextMenu(window.projectTree()->runItem(runs.k10), runMenu));
    QAction* annotate = menuAction(runMenu, QStringLiteral("Name and Notes…"));
    QVERIFY(annotate);
    annotate->trigger();
    QVERIFY(opened.wait(20000));
    auto* dialog = opened.first().first().value<ui::RunNotesDialog*>();
    QVERIFY(dialog);
    QCOMPARE(dialog->runId(), runs.k10);
    QVERIFY(dialog->nameEdit()->text().isEmpty());
    dialog->nameEdit()->setText(QStringLiteral("K = 10, first try"));
    dialog->notesEdit()->setPlainText(QStringLiteral("Two topics look merged.\nTry K = 20."));
    QSignalSpy reloaded(view, &ui::RunView::reloaded);
    dialog->accept();
    QVERIFY(annotated.wait(20000));
    QCOMPARE(annotated.first().at(1).toBool(), true);

    // The store, the tree (title and tooltip), the tab and the header follow.
    {
      core::Project project(file, core::Project::Access::ReadOnly);
      const auto run = core::loadRun(project, runs.k10);
      QCOMPARE(run.name, std::string("K = 10, first try"));
      QCOMPARE(run.notes, std::string("Two topics look merged.\nTry K = 20."));
    }
    QTRY_VERIFY_WITH_TIMEOUT(window.projectTree()->runItem(runs.k10) &&
                                 window.projectTree()->runItem(runs.k10)->text(0).contains(QStringLiteral("first try")),
                             20000);
    QVERIFY(window.projectTree()->runItem(runs.k10)->toolTip(0).contains(QStringLiteral("Two topics look merged.")));
    QVERIFY(!window.projectTree()->runItem(runs.k5)->text(0).contains(QStringLiteral("first try")));
    QCOMPARE(window.tabs()->tabText(window.tabs()->indexOf(view)),
             QStringLiteral("#%1 K = 10, first try").arg(runs.k10));
    QTRY_VERIFY_WITH_TIMEOUT(reloaded.count() > 0, 20000);
    QVERIFY2(view->headerText().contains(QStringLiteral("K = 10, first try — run #%1").arg(runs.k10)),
             qPrintable(view->headerText()));
    QVERIFY2(view->headerText().contains(QStringLiteral("Try K = 20.")), qPrintable(view->headerText()));

    // The header's Name and Notes… opens the dialog with what is stored.
    opened.clear();
    QPushButton* headerButton = nullptr;
    for (auto* b : view->findChildren<QPushButton*>())
      if (b->text() == QStringLiteral("Name and Notes…")) headerButton = b;
    QVERIFY(headerButton);
    headerButton->click();
    QVERIFY(opened.wait(20000));
    auto* again = opened.first().first().value<ui::RunNotesDialog*>();
    QCOMPARE(again->nameEdit()->text(), QStringLiteral("K = 10, first try"));
    QCOMPARE(again->notesEdit()->toPlainText(), QStringLiteral("Two topics look merged.\nTry K = 20."));
    again->reject();

    // An empty name takes it away; the notes stay.
    annotated.clear();
    window.annotateRun(runs.k10, QStringLiteral("  "), QStringLiteral("Two topics look merged."));
    QVERIFY(annotated.wait(20000));
    QTRY_VERIFY_WITH_TIMEOUT(!window.projectTree()->runItem(runs.k10)->text(0).contains(QStringLiteral("first try")),
                             20000);
    QCOMPARE(window.tabs()->tabText(window.tabs()->indexOf(view)), QStringLiteral("#%1 lda-gibbs").arg(runs.k10));
  }

  void compareRunsTabulatesSortsAndOpens() {
    test::Scratch scratch;
    const auto file = scratch.path("runs.latent");
    const auto runs = storeComparedRuns(file);
    {
      core::Project project(file);
      core::setRunName(project, runs.k20, "wide");
    }
    ui::MainWindow window;
    QVERIFY(test::openProject(window, ui::fromPath(file)));
    window.resize(1400, 700);
    window.show();
    // Compare Runs in the dataset's menu in the tree.
    QMenu datasetMenu;
    QVERIFY(window.projectTree()->fillContextMenu(window.projectTree()->datasetItem(runs.corpus), datasetMenu));
    QAction* compare = menuAction(datasetMenu, QStringLiteral("Compare Runs"));
    QVERIFY(compare && compare->isEnabled());
    compare->trigger();
    auto* view = qobject_cast<ui::RunComparisonView*>(window.tabs()->currentWidget());
    QVERIFY(view);
    QCOMPARE(view->datasetId(), runs.corpus);
    QTRY_VERIFY_WITH_TIMEOUT(view->isLoaded(), 20000);
    QVERIFY2(view->errorText().isEmpty(), qPrintable(view->errorText()));
    auto* table = view->table();
    QCOMPARE(table->rowCount(), 4);

    // Only K differs; alpha and iterations are the same in every run. The metrics by their names,
    // the held-out one first.
    QStringList headers;
    for (int c = 0; c < table->columnCount(); ++c) headers << table->horizontalHeaderItem(c)->text();
    QCOMPARE(headers,
             QStringList({QStringLiteral("Run"), QStringLiteral("Model"), QStringLiteral("K (topics or blocks)"),
                          QStringLiteral("held-out perplexity"), QStringLiteral("training log likelihood"),
                          QStringLiteral("Time"), QStringLiteral("Iterations"), QStringLiteral("State")}));
    for (const QString& raw : {QStringLiteral("heldout_perplexity"), QStringLiteral("Alpha")})
      QVERIFY(!headers.contains(raw));

    // Sorting by perplexity: numbers as numbers (880 < 950.5 < 1,020.25 < 1,500), both ways.
    const int perplexity = view->column(QStringLiteral("held-out perplexity"));
    table->sortByColumn(perplexity, Qt::AscendingOrder);
    QList<qint64> order;
    for (int row = 0; row < table->rowCount(); ++row) order << view->runAt(row);
    QCOMPARE(order, QList<qint64>({runs.k20, runs.k5, runs.k10, runs.vb}));
    table->sortByColumn(view->column(QStringLiteral("Time")), Qt::DescendingOrder);
    QCOMPARE(view->runAt(0), runs.k20);  // 30 s
    QCOMPARE(view->runAt(3), runs.vb);   // 2 s
    const int state = view->column(QStringLiteral("State"));
    QCOMPARE(table->item(3, state)->text(), QStringLiteral("stopped"));
    QVERIFY(table->item(0, 0)->text().contains(QStringLiteral("wide")));

    if (const QString dir = qEnvironmentVariable("LATENT_UI_SHOTS"); !dir.isEmpty())
      QVERIFY(window.grab().save(QDir(dir).filePath(QStringLiteral("run-comparison.png"))));

    // A double click opens the run of the row.
    const int tabsBefore = window.tabs()->count();
    Q_EMIT table->cellDoubleClicked(3, 1);
    QCOMPARE(window.tabs()->count(), tabsBefore + 1);
    auto* opened = qobject_cast<ui::RunView*>(window.tabs()->currentWidget());
    QVERIFY(opened);
    QCOMPARE(opened->runId(), runs.vb);

    // Asked for again, the same tab comes back, read again.
    QCOMPARE(window.openRunComparison(runs.corpus), view);
  }

  void userGuideNamesOnlyMenuEntriesThatExist() {
    ui::MainWindow window;
    // F1 is the User Guide's key.
    const QAction* guide = nullptr;
    for (const QAction* a : window.findChildren<QAction*>())
      if (a->shortcut() == QKeySequence(QKeySequence::HelpContents)) guide = a;
    QVERIFY(guide);
    QCOMPARE(plain(guide->text()), QStringLiteral("User Guide"));
    QVERIFY(menuEntry(window, QStringLiteral("Help"), QStringLiteral("User Guide")));
    QVERIFY(menuEntry(window, QStringLiteral("Help"), QStringLiteral("Keyboard Shortcuts")));

    auto* help = window.showUserGuide();
    QVERIFY(help);
    QCOMPARE(window.showUserGuide(), help);  // one window, raised again
    const QString text = help->browser()->toPlainText();
    QVERIFY2(text.size() > 4000, qPrintable(QString::number(text.size())));  // a guide, not a stub

    // Its headings, navigable: every section the brief asks for is there and goes to its place.
    QStringList headings;
    for (QTreeWidgetItemIterator it(help->contents()); *it; ++it) headings << (*it)->text(0);
    for (const QString& section :
         {QStringLiteral("Importing data"), QStringLiteral("Fitting a model"), QStringLiteral("A run's tab"),
          QStringLiteral("Exporting"), QStringLiteral("Comparing runs"), QStringLiteral("The command line")})
      QVERIFY2(headings.contains(section), qPrintable(headings.join(QStringLiteral(" | "))));
    help->resize(900, 500);
    help->show();
    QVERIFY(QTest::qWaitForWindowExposed(help));
    QVERIFY(help->showSection(QStringLiteral("Comparing runs")));
    QTRY_COMPARE(help->currentSection(), QStringLiteral("Comparing runs"));
    // The last section cannot come to the top of the view; it comes into it.
    QVERIFY(help->showSection(QStringLiteral("The command line")));
    QVERIFY(help->browser()->viewport()->rect().contains(help->browser()->cursorRect().center()));
    QVERIFY(help->showSection(QStringLiteral("Importing data")));
    QTRY_COMPARE(help->currentSection(), QStringLiteral("Importing data"));
    QVERIFY(!help->showSection(QStringLiteral("No such section")));
    if (const QString dir = qEnvironmentVariable("LATENT_UI_SHOTS"); !dir.isEmpty())
      QVERIFY(help->grab().save(QDir(dir).filePath(QStringLiteral("user-guide.png"))));

    // Every "Menu > Entry" the guide names is an entry of that menu.
    QFile source(QStringLiteral(":/help/user_guide.html"));
    QVERIFY(source.open(QIODevice::ReadOnly));
    const QString html = QString::fromUtf8(source.readAll());
    static const QRegularExpression path(QStringLiteral("<b>(File|Edit|Run|View|Help) &gt;\\s+([^<]+)</b>"));
    int named = 0;
    for (auto it = path.globalMatch(html); it.hasNext(); ++named) {
      const auto m = it.next();
      const QString entry = m.captured(2).simplified();
      QVERIFY2(menuEntry(window, m.captured(1), entry), qPrintable(m.captured(1) + QStringLiteral(" > ") + entry));
    }
    QVERIFY2(named >= 15, qPrintable(QString::number(named)));
  }

  void shortcutListIsReadFromTheActions() {
    ui::MainWindow window;
    auto rowOf = [](QTableWidget* table, const QString& action) {
      for (int row = 0; row < table->rowCount(); ++row)
        if (table->item(row, 1)->text() == action) return row;
      return -1;
    };
    auto* dialog = window.showShortcuts();
    auto* table = dialog->table();
    const int newRun = rowOf(table, QStringLiteral("New Run…"));
    QVERIFY(newRun >= 0);
    QCOMPARE(table->item(newRun, 0)->text(), QKeySequence(Qt::CTRL | Qt::Key_R).toString(QKeySequence::NativeText));
    QCOMPARE(table->item(newRun, 2)->text(), QStringLiteral("Run"));
    QVERIFY(rowOf(table, QStringLiteral("User Guide")) >= 0);
    QVERIFY(rowOf(table, QStringLiteral("Copy Image")) >= 0);
    // Every action of the window with a shortcut is listed, and nothing else.
    int withKeys = 0;
    QSet<const QAction*> counted;
    for (const QAction* a : window.findChildren<QAction*>())
      if (!a->shortcuts().isEmpty() && !counted.contains(a)) {
        counted.insert(a);
        ++withKeys;
      }
    QCOMPARE(table->rowCount(), withKeys);
    if (const QString dir = qEnvironmentVariable("LATENT_UI_SHOTS"); !dir.isEmpty()) {
      dialog->show();
      QVERIFY(QTest::qWaitForWindowExposed(dialog));
      QVERIFY(dialog->grab().save(QDir(dir).filePath(QStringLiteral("keyboard-shortcuts.png"))));
    }
    dialog->close();

    // A shortcut changed in the actions is what the next list says.
    QAction* stop = nullptr;
    for (QAction* a : window.findChildren<QAction*>())
      if (plain(a->text()) == QStringLiteral("Stop")) stop = a;
    QVERIFY(stop);
    stop->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_S));
    auto* again = window.showShortcuts();
    const int row = rowOf(again->table(), QStringLiteral("Stop"));
    QVERIFY(row >= 0);
    QCOMPARE(again->table()->item(row, 0)->text(),
             QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_S).toString(QKeySequence::NativeText));
    again->close();
  }
};

LATENT_TEST_CASE(TestRunManagement)
#include "tst_run_management.moc"
