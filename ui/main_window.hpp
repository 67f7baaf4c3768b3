// SPDX-License-Identifier: GPL-3.0-or-later
// The main window (DESIGN §7): project tree on the left, tabbed views in the centre, the run
// panel on the right, the log at the bottom; menus, recent projects, window state.
#pragma once

#include <QMainWindow>
#include <QMessageBox>
#include <QPointer>
#include <QStringList>

#include <filesystem>
#include <functional>

#include "core/data/data_kind.hpp"
#include "ui/runs/run_notes_dialog.hpp"
#include "ui/widgets/log_view.hpp"

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;
class QStackedWidget;
class QDragEnterEvent;
class QDropEvent;
class QMenu;
class QTabWidget;
class QToolButton;
class QUndoGroup;

namespace latent::ui {

class ImportDialog;
class ImportTask;
class JobController;
class ProjectSession;
class PrecisionRecallView;
class ProjectTree;
class RunComparisonView;
class RunManager;
class RunPanel;
class RunView;
class ShortcutsDialog;
class StartPage;
class TabPage;
class UserGuideWindow;

// The docks' first sizes (View > Reset Layout) and the widths they are never squeezed below.
inline constexpr int kProjectDockWidth = 250;
inline constexpr int kRunDockWidth = 370;
inline constexpr int kLogDockHeight = 150;
inline constexpr int kProjectDockMinimumWidth = 180;
inline constexpr int kRunDockMinimumWidth = 300;

class PreferencesDialog;

class MainWindow final : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  // Opens an existing project (migrating it forward when needed) through a new session, off the
  // GUI thread: projectOpened() or projectOpenFailed() follows. False (with the reason logged and
  // in `error`) when it cannot even start, as for a missing file; on any failure the current
  // project stays open.
  bool openProject(const QString& file, QString* error = nullptr, bool remember = true);
  // Creates a new project file (an existing one is replaced) and opens it, as openProject.
  bool createProject(const QString& file, QString* error = nullptr, bool remember = true);
  // Stops the project's runs (and waits for them), closes its tabs and shows the start page.
  void closeProject();
  bool hasProject() const noexcept { return !m_projectFile.empty(); }
  const std::filesystem::path& projectPath() const noexcept { return m_projectFile; }

  // The tab of a dataset, made current or created once the dataset's kind has been read;
  // `then` gets it on the GUI thread (null when the dataset cannot be read).
  void openDataset(qint64 datasetId, std::function<void(TabPage*)> then = {});
  // The tab of a run, made current or created; its title follows when the run has been read.
  RunView* openRun(qint64 runId);
  // The precision-recall tab of these runs (document retrieval, curves overlaid), made current or
  // created; it computes the curves in the background. Null without a project or runs.
  PrecisionRecallView* openPrecisionRecall(const QList<qint64>& runIds);
  // Renames or deletes (with its runs) a dataset through the session, without asking;
  // datasetRenamed() or datasetDeleted() follows, and a failure is logged.
  void renameDatasetTo(qint64 datasetId, const QString& name);
  void removeDataset(qint64 datasetId);
  ProjectSession* session() const noexcept { return m_session; }
  ImportDialog* showImportDialog(core::DataKind kind);
  // Imports a built-in sample in the background (under a free name); null without a project.
  ImportTask* importSample(const QString& sample);
  // Attaches the links of an edge list (CSV/TSV: linking and linked document, by id or title) to a
  // corpus, in the background (core/jobs/link_import.hpp).
  ImportTask* attachLinks(qint64 datasetId, const QString& file);
  // What a drop of `paths` does: opens the project, or the import dialog of the guessed kind with
  // the file filled in, or (kind unclear) a menu at `where` that asks; the menu is returned.
  QMenu* openDroppedFiles(const QStringList& paths, const QPoint& where = {});
  // Starts a built-in demo in a temporary project; false for an unknown name.
  bool startDemo(const QString& name, const QString& screenshotPath = {});

  void log(const QString& message, LogView::Level level = LogView::Level::Info);
  // A line of explanation above the tabs (demos), until closed.
  void showBanner(const QString& html);

  ProjectTree* projectTree() const noexcept { return m_tree; }
  QTabWidget* tabs() const noexcept { return m_tabs; }
  RunPanel* runPanel() const noexcept { return m_runPanel; }
  RunManager* runManager() const noexcept { return m_runs; }
  LogView* logView() const noexcept { return m_log; }
  StartPage* startPage() const noexcept { return m_start; }
  QString bannerText() const;
  QUndoGroup* undoGroup() const noexcept { return m_undoGroup; }
  QStringList recentProjects() const;

  // View > Reset Layout: the docks back in their places at their first sizes, all shown.
  void resetLayout();
  // Edit > Preferences… (Ctrl+,): a dialog over the user's preferences, not modal; OK saves
  // them, applies the theme and gives the run panel its new defaults.
  PreferencesDialog* showPreferences();
  QAction* preferencesAction() const noexcept { return m_preferences; }
  QDockWidget* projectDock() const noexcept { return m_treeDock; }
  QDockWidget* runDock() const noexcept { return m_runDock; }
  // A project made for a demo or a sample: kept only if saved under a name of one's own.
  bool isTemporaryProject() const noexcept { return m_temporary; }
  // File > Save Project As…: copies the open project to `file` off the GUI thread, then opens the
  // copy (projectOpened() follows; a failure is logged and shown).
  void saveProjectAs(const QString& file);
  // Run management, asking first through the prompts: delete a run with its results (its tab
  // closes), remove the snapshots of a finished run (the space they took is said), and File >
  // Compact Project (VACUUM; the sizes before and after are logged). Each logs its outcome and
  // emits projectMaintained().
  void deleteRunAsked(qint64 runId);
  // Name and Notes…: reads the run and opens the dialog (returned through runNotesDialogOpened())
  // that edits them; OK stores them as annotateRun does.
  void annotateRunAsked(qint64 runId);
  // Stores a run's name and notes through the session; the tree, the run's tab and any comparison
  // of its dataset's runs follow; runAnnotated() says how it went (a failure is logged too).
  void annotateRun(qint64 runId, const QString& name, const QString& notes);
  // Compare Runs (a dataset's menu): the tab with the table of the dataset's runs, made current
  // (and read again) or created. Null without a project.
  RunComparisonView* openRunComparison(qint64 datasetId);
  void removeSnapshotsAsked(qint64 runId);
  void compactProject();

  // Help > User Guide (F1): the manual's window, shown and raised (one per main window).
  UserGuideWindow* showUserGuide();
  // Help > Keyboard Shortcuts: the list of the menus' keys, read from the actions now.
  ShortcutsDialog* showShortcuts();

  // How the window asks the user (a message box, a file dialog); tests answer instead.
  using Question = std::function<QMessageBox::StandardButton(const QString& title, const QString& text,
                                                             QMessageBox::StandardButtons buttons)>;
  using SaveFileChooser = std::function<QString(const QString& title, const QString& suggestion)>;
  void setPrompts(Question question, SaveFileChooser chooser);

 Q_SIGNALS:
  void projectOpened(const QString& file);
  void projectOpenFailed(const QString& message);
  void datasetRenamed(qint64 datasetId, const QString& name);
  void datasetDeleted(qint64 datasetId);
  void projectClosed();
  void datasetImported(qint64 datasetId);
  void runEnded(qint64 runId);
  void projectMaintained(const QString& outcome);
  void runNotesDialogOpened(RunNotesDialog* dialog);
  void runAnnotated(qint64 runId, bool ok);

 protected:
  void closeEvent(QCloseEvent* event) override;
  // Files dropped on the window: a project opens, data goes to the import dialog of its kind.
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  // main_window_actions.cpp
  void createActions();
  void createMenus();
  void createToolBar();
  void createDocks();
  void updateRecentMenu();
  void updateActions();
  // main_window.cpp
  void newProjectDialog();
  void openProjectDialog();
  void startOpening(const QString& file, bool remember, bool creating);
  void openFailed(const QString& file, const QString& message, QString* error);
  void useProject(ProjectSession* session, bool remember);
  void addRecent(const QString& file);
  void refreshProject();
  void updateTitle();
  void updateCentral();
  void updateStatus();
  void onRunCreated(JobController* controller);
  void onRunEnded(JobController* controller);
  void renameDataset(qint64 datasetId);
  void chooseLinksFile(qint64 datasetId);
  void deleteDataset(qint64 datasetId);
  void rerun(qint64 runId);
  void focusRunPanel(qint64 datasetId = 0);
  int findTab(const QString& key) const;
  void closeTab(int index);
  void updateSelectedRun();
  // Asks before closing what would be lost: runs going (they stop and keep what they reached), a
  // temporary project (it is discarded unless saved). False when the user cancels.
  bool confirmStopRuns();
  bool confirmCloseTemporary();
  void saveProjectAsDialog();
  // The tabs open on a project, remembered when it closes and opened again with it.
  void rememberOpenTabs();
  void reopenTabs();

  std::filesystem::path m_projectFile;
  ProjectSession* m_session = nullptr;
  ProjectSession* m_opening = nullptr;  // a project being opened, until it has opened or failed
  bool m_warnOpenFailures = false;      // the user asked (a dialog, a drop): failures get a box
  bool m_temporary = false;             // the open project is a demo's or a sample's
  bool m_closeAfterSave = false;        // Quit asked for a save first: quit once the copy is open
  bool m_warnSaveFailure = false;       // Save As came from its dialog: a failure gets a box
  Question m_question;
  SaveFileChooser m_chooseSaveFile;
  RunManager* m_runs = nullptr;
  int m_importsRunning = 0;

  QStackedWidget* m_central = nullptr;
  StartPage* m_start = nullptr;
  QWidget* m_projectHome = nullptr;
  QWidget* m_workArea = nullptr;
  QWidget* m_bannerFrame = nullptr;
  QLabel* m_banner = nullptr;
  QTabWidget* m_tabs = nullptr;
  ProjectTree* m_tree = nullptr;
  RunPanel* m_runPanel = nullptr;
  LogView* m_log = nullptr;
  QDockWidget* m_treeDock = nullptr;
  QDockWidget* m_runDock = nullptr;
  QDockWidget* m_logDock = nullptr;
  QLabel* m_statusProject = nullptr;
  QLabel* m_statusJobs = nullptr;
  QProgressBar* m_statusProgress = nullptr;

  QAction *m_newAction = nullptr, *m_openAction = nullptr, *m_closeAction = nullptr, *m_quitAction = nullptr;
  QAction *m_importCorpus = nullptr, *m_importGraph = nullptr, *m_importRatings = nullptr, *m_importTable = nullptr;
  QAction *m_newRun = nullptr, *m_stopRun = nullptr, *m_closeTab = nullptr, *m_about = nullptr;
  QAction* m_precisionRecall = nullptr;
  QAction* m_preferences = nullptr;
  QPointer<PreferencesDialog> m_preferencesDialog;
  QAction *m_exportFigure = nullptr, *m_exportTable = nullptr;
  QAction *m_saveAsAction = nullptr, *m_resetLayout = nullptr, *m_compactAction = nullptr;
  QAction *m_copyFigure = nullptr, *m_userGuide = nullptr, *m_shortcuts = nullptr;
  QPointer<UserGuideWindow> m_userGuideWindow;
  // Undo and Redo act on the current tab's history (a run's topic labels).
  QUndoGroup* m_undoGroup = nullptr;
  QAction *m_undoAction = nullptr, *m_redoAction = nullptr;
  QMenu *m_recentMenu = nullptr, *m_sampleMenu = nullptr, *m_demoMenu = nullptr, *m_viewMenu = nullptr;
};

}  // namespace latent::ui
