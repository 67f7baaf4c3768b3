// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow: actions, menus, tool bar and docks (the parts that only wire things up).
#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>
#include <QUndoGroup>

#include "core/jobs/samples.hpp"
#include "core/util/version.hpp"
#include "ui/demo/demo_catalogue.hpp"
#include "ui/help/shortcut_list.hpp"
#include "ui/help/user_guide_window.hpp"
#include "ui/jobs/run_manager.hpp"
#include "ui/main_window.hpp"
#include "ui/runs/run_panel.hpp"
#include "ui/util/figure_export.hpp"
#include "ui/util/format.hpp"
#include "ui/util/preferences.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/settings.hpp"
#include "ui/util/table_export.hpp"
#include "ui/widgets/preferences_dialog.hpp"
#include "ui/widgets/project_tree.hpp"

namespace latent::ui {

void MainWindow::createActions() {
  m_newAction = new QAction(themedIcon("new"), tr("&New Project…"), this);
  m_newAction->setShortcut(QKeySequence::New);
  m_newAction->setStatusTip(tr("Create an empty project file"));
  connect(m_newAction, &QAction::triggered, this, &MainWindow::newProjectDialog);

  m_openAction = new QAction(themedIcon("open"), tr("&Open Project…"), this);
  m_openAction->setShortcut(QKeySequence::Open);
  m_openAction->setStatusTip(tr("Open a project file"));
  connect(m_openAction, &QAction::triggered, this, &MainWindow::openProjectDialog);

  m_closeAction = new QAction(tr("&Close Project"), this);
  m_closeAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_W));
  connect(m_closeAction, &QAction::triggered, this, [this] {
    if (confirmCloseTemporary()) closeProject();
  });

  m_saveAsAction = new QAction(tr("Save Project &As…"), this);
  m_saveAsAction->setShortcut(QKeySequence::SaveAs);
  m_saveAsAction->setStatusTip(tr("Copy the project, runs and all, to a new file and go on in the copy"));
  connect(m_saveAsAction, &QAction::triggered, this, &MainWindow::saveProjectAsDialog);

  m_compactAction = new QAction(tr("Co&mpact Project"), this);
  m_compactAction->setStatusTip(tr("Give the file back the space that deleted runs and snapshots left"));
  connect(m_compactAction, &QAction::triggered, this, &MainWindow::compactProject);

  m_resetLayout = new QAction(tr("&Reset Layout"), this);
  m_resetLayout->setStatusTip(tr("Put the project tree, the run panel and the log back in their places"));
  connect(m_resetLayout, &QAction::triggered, this, &MainWindow::resetLayout);

  m_preferences = new QAction(QIcon::fromTheme(QStringLiteral("preferences-system")), tr("&Preferences…"), this);
  m_preferences->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Comma));
  m_preferences->setMenuRole(QAction::PreferencesRole);
  m_preferences->setStatusTip(tr("Threads and seed of new runs, stop words of imports, the theme"));
  connect(m_preferences, &QAction::triggered, this, &MainWindow::showPreferences);

  m_quitAction = new QAction(tr("&Quit"), this);
  m_quitAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
  m_quitAction->setMenuRole(QAction::QuitRole);
  connect(m_quitAction, &QAction::triggered, this, &QWidget::close);

  m_importCorpus = new QAction(themedIcon("corpus"), tr("Import &Corpus…"), this);
  m_importCorpus->setIconText(tr("Corpus"));
  m_importCorpus->setStatusTip(tr("Import texts: a folder, lines, CSV, JSON Lines, UCI or LDA-C"));
  connect(m_importCorpus, &QAction::triggered, this, [this] { showImportDialog(core::DataKind::Corpus); });
  m_importGraph = new QAction(themedIcon("graph"), tr("Import &Graph…"), this);
  m_importGraph->setIconText(tr("Graph"));
  m_importGraph->setStatusTip(tr("Import a network: edge list, matrix, GML, GraphML or Pajek"));
  connect(m_importGraph, &QAction::triggered, this, [this] { showImportDialog(core::DataKind::Graph); });
  m_importRatings = new QAction(themedIcon("ratings"), tr("Import &Ratings…"), this);
  m_importRatings->setIconText(tr("Ratings"));
  m_importRatings->setStatusTip(tr("Import ratings: MovieLens or CSV"));
  connect(m_importRatings, &QAction::triggered, this, [this] { showImportDialog(core::DataKind::Ratings); });
  m_importTable = new QAction(themedIcon("table"), tr("Import Numeric &Table…"), this);
  m_importTable->setIconText(tr("Table"));
  m_importTable->setStatusTip(tr("Import a numeric table: rows x features from CSV or TSV"));
  connect(m_importTable, &QAction::triggered, this, [this] { showImportDialog(core::DataKind::Table); });

  m_newRun = new QAction(themedIcon("start"), tr("&New Run…"), this);
  m_newRun->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
  m_newRun->setStatusTip(tr("Choose a model and its options in the run panel"));
  connect(m_newRun, &QAction::triggered, this, [this] { focusRunPanel(); });
  m_stopRun = new QAction(themedIcon("stop"), tr("&Stop"), this);
  m_stopRun->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Period));
  m_stopRun->setStatusTip(tr("Stop the selected run, or the latest one"));
  connect(m_stopRun, &QAction::triggered, this, [this] { m_runPanel->stopCurrent(); });

  m_precisionRecall = new QAction(tr("&Precision–Recall of Selected Runs…"), this);
  m_precisionRecall->setStatusTip(
      tr("Document retrieval: compare the runs selected in the project tree (Ctrl-click "
         "to select several runs of one labelled corpus)"));
  connect(m_precisionRecall, &QAction::triggered, this, [this] {
    const QList<qint64> runs = m_tree->selectedRunIds();
    if (runs.isEmpty())
      statusBar()->showMessage(tr("Select one or more runs in the project tree first"), 5000);
    else
      openPrecisionRecall(runs);
  });

  m_undoGroup = new QUndoGroup(this);
  m_undoAction = m_undoGroup->createUndoAction(this, tr("&Undo"));
  m_undoAction->setShortcut(QKeySequence::Undo);
  m_undoAction->setIcon(QIcon::fromTheme(QStringLiteral("edit-undo")));
  m_redoAction = m_undoGroup->createRedoAction(this, tr("&Redo"));
  m_redoAction->setShortcut(QKeySequence::Redo);
  m_redoAction->setIcon(QIcon::fromTheme(QStringLiteral("edit-redo")));

  // File ▸ Export acts on the figure or table of the current tab that has the focus, else the
  // largest one shown (the context menus of figures and tables offer the same).
  m_exportFigure = new QAction(QIcon::fromTheme(QStringLiteral("document-export")), tr("Export &Image…"), this);
  m_exportFigure->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
  m_exportFigure->setStatusTip(tr("Save the chart or matrix in view as a PNG image or an SVG drawing"));
  connect(m_exportFigure, &QAction::triggered, this, [this] {
    if (QWidget* figure = currentFigure(m_tabs->currentWidget()))
      saveFigureInteractively(figure);
    else
      statusBar()->showMessage(tr("This tab shows no chart or matrix to export"), 4000);
  });
  m_exportTable = new QAction(tr("Export &Table as CSV…"), this);
  m_exportTable->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_T));
  m_exportTable->setStatusTip(tr("Save the table in view as a CSV file"));
  connect(m_exportTable, &QAction::triggered, this, [this] {
    QTableView* table = currentTable(m_tabs->currentWidget());
    if (!table) {
      statusBar()->showMessage(tr("This tab shows no table to export"), 4000);
      return;
    }
    QString name = exportName(table);
    if (!name.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive)) name += QStringLiteral(".csv");
    const QString file =
        QFileDialog::getSaveFileName(this, tr("Export Table as CSV"), name, tr("CSV files (*.csv);;All files (*)"));
    QString error;
    if (!file.isEmpty() && !exportTableCsv(*table, file, &error))
      QMessageBox::warning(this, tr("Export Table as CSV"), error);
  });

  m_copyFigure = new QAction(QIcon::fromTheme(QStringLiteral("edit-copy")), tr("Copy &Image"), this);
  m_copyFigure->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
  m_copyFigure->setStatusTip(tr("Put the chart or matrix in view on the clipboard as an image"));
  connect(m_copyFigure, &QAction::triggered, this, [this] {
    QWidget* figure = currentFigure(m_tabs->currentWidget());
    if (figure && copyFigure(figure))
      statusBar()->showMessage(tr("Copied the image to the clipboard"), 4000);
    else
      statusBar()->showMessage(tr("This tab shows no chart or matrix to copy"), 4000);
  });

  m_userGuide = new QAction(QIcon::fromTheme(QStringLiteral("help-contents")), tr("&User Guide"), this);
  m_userGuide->setShortcut(QKeySequence::HelpContents);
  m_userGuide->setStatusTip(tr("The manual: importing, fitting, the views, exporting, the command line"));
  connect(m_userGuide, &QAction::triggered, this, &MainWindow::showUserGuide);
  m_shortcuts = new QAction(tr("&Keyboard Shortcuts"), this);
  m_shortcuts->setStatusTip(tr("The keys of the menus' commands"));
  connect(m_shortcuts, &QAction::triggered, this, &MainWindow::showShortcuts);

  m_closeTab = new QAction(tr("Close &Tab"), this);
  m_closeTab->setShortcut(QKeySequence::Close);
  connect(m_closeTab, &QAction::triggered, this, [this] { closeTab(m_tabs->currentIndex()); });

  m_about = new QAction(appIcon(), tr("&About Latent Studio"), this);
  m_about->setMenuRole(QAction::AboutRole);
  connect(m_about, &QAction::triggered, this, [this] {
    QMessageBox::about(this, tr("About Latent Studio"),
                       tr("<h3>Latent Studio %1</h3>"
                          "<p>Latent variable models for discrete data: topic models for text, block models "
                          "for networks, factor models for ratings.</p>"
                          "<p>Models run in the background; every run, its options and its results are kept in "
                          "the project file. The command-line tool <tt>latent-cli</tt> runs the same engine.</p>"
                          "<p>Licensed under the GNU General Public License, version 3 or later.</p>")
                           .arg(QString::fromLatin1(core::kAppVersion)));
  });
}

void MainWindow::createMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(m_newAction);
  file->addAction(m_openAction);
  m_recentMenu = file->addMenu(tr("Open &Recent"));
  file->addSeparator();
  file->addAction(m_importCorpus);
  file->addAction(m_importGraph);
  file->addAction(m_importRatings);
  file->addAction(m_importTable);
  m_sampleMenu = file->addMenu(themedIcon("import"), tr("Import &Sample"));
  for (const auto& sample : core::builtInSamples()) {
    QAction* a = m_sampleMenu->addAction(kindIcon(sample.kind),
                                         QStringLiteral("%1 — %2").arg(qs(sample.name), qs(sample.title)));
    a->setStatusTip(qs(sample.description));
    const QString name = qs(sample.name);
    connect(a, &QAction::triggered, this, [this, name] { importSample(name); });
  }
  file->addSeparator();
  file->addAction(m_exportFigure);
  file->addAction(m_exportTable);
  connect(file, &QMenu::aboutToShow, this, [this] {
    m_exportFigure->setEnabled(currentFigure(m_tabs->currentWidget()) != nullptr);
    m_exportTable->setEnabled(currentTable(m_tabs->currentWidget()) != nullptr);
  });
  file->addSeparator();
  file->addAction(m_saveAsAction);
  file->addAction(m_compactAction);
  file->addAction(m_closeAction);
  file->addSeparator();
  file->addAction(m_quitAction);

  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  edit->addAction(m_undoAction);
  edit->addAction(m_redoAction);
  edit->addSeparator();
  edit->addAction(m_copyFigure);
  connect(edit, &QMenu::aboutToShow, this,
          [this] { m_copyFigure->setEnabled(currentFigure(m_tabs->currentWidget()) != nullptr); });
  edit->addSeparator();
  edit->addAction(m_preferences);

  QMenu* run = menuBar()->addMenu(tr("&Run"));
  run->addAction(m_newRun);
  run->addAction(m_stopRun);
  run->addSeparator();
  run->addAction(m_precisionRecall);

  m_viewMenu = menuBar()->addMenu(tr("&View"));
  m_viewMenu->addAction(m_treeDock->toggleViewAction());
  m_viewMenu->addAction(m_runDock->toggleViewAction());
  m_viewMenu->addAction(m_logDock->toggleViewAction());
  m_viewMenu->addAction(m_resetLayout);
  m_viewMenu->addSeparator();
  m_viewMenu->addAction(m_closeTab);

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(m_userGuide);
  help->addAction(m_shortcuts);
  help->addSeparator();
  m_demoMenu = help->addMenu(themedIcon("demo"), tr("&Demos"));
  for (const auto& demo : demoCatalogue()) {
    QAction* a = m_demoMenu->addAction(QStringLiteral("%1 — %2").arg(demo.name, demo.title));
    a->setStatusTip(demo.explanation);
    const QString name = demo.name;
    connect(a, &QAction::triggered, this, [this, name] { startDemo(name); });
  }
  help->addSeparator();
  help->addAction(m_about);
  updateRecentMenu();
}

void MainWindow::createToolBar() {
  QToolBar* bar = addToolBar(tr("Main"));
  bar->setObjectName(QStringLiteral("mainToolBar"));
  bar->setMovable(false);
  bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  bar->setIconSize(QSize(20, 20));
  bar->addAction(m_newAction);
  bar->addAction(m_openAction);
  bar->addSeparator();
  bar->addAction(m_importCorpus);
  bar->addAction(m_importGraph);
  bar->addAction(m_importRatings);
  bar->addAction(m_importTable);
  bar->addSeparator();
  bar->addAction(m_newRun);
  bar->addAction(m_stopRun);
  m_newAction->setIconText(tr("New"));
  m_openAction->setIconText(tr("Open"));
  m_newRun->setIconText(tr("New Run"));
  m_stopRun->setIconText(tr("Stop"));
}

PreferencesDialog* MainWindow::showPreferences() {
  if (!m_preferencesDialog) {
    m_preferencesDialog = new PreferencesDialog(loadPreferences(), this);
    m_preferencesDialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(m_preferencesDialog, &PreferencesDialog::preferencesChanged, m_runPanel, &RunPanel::applyPreferences);
  }
  m_preferencesDialog->show();
  m_preferencesDialog->raise();
  m_preferencesDialog->activateWindow();
  return m_preferencesDialog;
}

void MainWindow::createDocks() {
  // Widths below which the tree's names and the run panel's fields are cut off: a dock dragged
  // or squeezed by a small window stops there, and so does any state saved from it.
  m_tree->setMinimumWidth(kProjectDockMinimumWidth);
  m_runPanel->setMinimumWidth(kRunDockMinimumWidth);
  m_treeDock = new QDockWidget(tr("Project"), this);
  m_treeDock->setObjectName(QStringLiteral("projectDock"));
  m_treeDock->setWidget(m_tree);
  m_treeDock->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable);
  addDockWidget(Qt::LeftDockWidgetArea, m_treeDock);

  m_runDock = new QDockWidget(tr("Run"), this);
  m_runDock->setObjectName(QStringLiteral("runDock"));
  m_runDock->setWidget(m_runPanel);
  m_runDock->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable);
  addDockWidget(Qt::RightDockWidgetArea, m_runDock);

  m_logDock = new QDockWidget(tr("Log"), this);
  m_logDock->setObjectName(QStringLiteral("logDock"));
  m_logDock->setWidget(m_log);
  m_logDock->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable);
  addDockWidget(Qt::BottomDockWidgetArea, m_logDock);
  // The side docks take the full height; the log sits under the central area only.
  setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
  setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
}

void MainWindow::resetLayout() {
  for (QDockWidget* dock : {m_treeDock, m_runDock, m_logDock}) dock->setFloating(false);
  addDockWidget(Qt::LeftDockWidgetArea, m_treeDock);
  addDockWidget(Qt::RightDockWidgetArea, m_runDock);
  addDockWidget(Qt::BottomDockWidgetArea, m_logDock);
  updateCentral();  // the docks are shown with a project, hidden on the start page
  resizeDocks({m_treeDock, m_runDock}, {kProjectDockWidth, kRunDockWidth}, Qt::Horizontal);
  resizeDocks({m_logDock}, {kLogDockHeight}, Qt::Vertical);
}

UserGuideWindow* MainWindow::showUserGuide() {
  if (!m_userGuideWindow) m_userGuideWindow = new UserGuideWindow(this);
  m_userGuideWindow->show();
  m_userGuideWindow->raise();
  m_userGuideWindow->activateWindow();
  return m_userGuideWindow;
}

ShortcutsDialog* MainWindow::showShortcuts() {
  auto* dialog = new ShortcutsDialog(this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->show();
  return dialog;
}

void MainWindow::updateRecentMenu() {
  m_recentMenu->clear();
  const QStringList files = recentProjects();
  for (const QString& file : files) {
    QAction* a = m_recentMenu->addAction(QFileInfo(file).fileName());
    a->setStatusTip(file);
    connect(a, &QAction::triggered, this, [this, file] { openProject(file); });
  }
  if (files.isEmpty()) m_recentMenu->addAction(tr("(none)"))->setEnabled(false);
  m_recentMenu->addSeparator();
  connect(m_recentMenu->addAction(tr("Clear List")), &QAction::triggered, this, [this] {
    appSettings().setValue(QStringLiteral("recentProjects"), QStringList());
    updateRecentMenu();
  });
}

void MainWindow::updateActions() {
  const bool open = hasProject();
  for (QAction* a : {m_closeAction, m_saveAsAction, m_compactAction, m_importCorpus, m_importGraph, m_importRatings,
                     m_importTable, m_newRun, m_precisionRecall})
    a->setEnabled(open);
  m_sampleMenu->setEnabled(open);
  m_stopRun->setEnabled(m_runs->activeCount() > 0);
  m_closeTab->setEnabled(m_tabs->count() > 0);
}

}  // namespace latent::ui
