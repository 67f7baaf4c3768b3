// SPDX-License-Identifier: GPL-3.0-or-later
// The main window (DESIGN §7): project tree on the left, tabbed views in the centre, the run
// panel on the right, the log at the bottom; menus, recent projects, window state.
#pragma once

#include <QMainWindow>
#include <QPointer>
#include <QStringList>

#include <filesystem>
#include <functional>

#include "core/data/data_kind.hpp"
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
class RunManager;
class RunPanel;
class RunView;
class StartPage;
class TabPage;

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

 Q_SIGNALS:
  void projectOpened(const QString& file);
  void projectOpenFailed(const QString& message);
  void datasetRenamed(qint64 datasetId, const QString& name);
  void datasetDeleted(qint64 datasetId);
  void projectClosed();
  void datasetImported(qint64 datasetId);
  void runEnded(qint64 runId);

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

  std::filesystem::path m_projectFile;
  ProjectSession* m_session = nullptr;
  ProjectSession* m_opening = nullptr;  // a project being opened, until it has opened or failed
  bool m_warnOpenFailures = false;      // the user asked (a dialog, a drop): failures get a box
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
  QAction *m_exportFigure = nullptr, *m_exportTable = nullptr;
  // Undo and Redo act on the current tab's history (a run's topic labels).
  QUndoGroup* m_undoGroup = nullptr;
  QAction *m_undoAction = nullptr, *m_redoAction = nullptr;
  QMenu *m_recentMenu = nullptr, *m_sampleMenu = nullptr, *m_demoMenu = nullptr, *m_viewMenu = nullptr;
};

}  // namespace latent::ui
