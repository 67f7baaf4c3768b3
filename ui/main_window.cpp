// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow: projects, tabs, imports, runs ending, dataset rename/delete, window state.
#include "ui/main_window.hpp"

#include <QApplication>
#include <QCloseEvent>
#include <QCryptographicHash>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolButton>
#include <QUndoGroup>
#include <QUndoStack>
#include <QVBoxLayout>

#include <utility>

#include "core/jobs/samples.hpp"
#include "core/store/project_copy.hpp"
#include "core/store/run_store.hpp"
#include "ui/browsers/corpus_browser.hpp"
#include "ui/browsers/graph_browser.hpp"
#include "ui/browsers/ratings_browser.hpp"
#include "ui/demo/demo_catalogue.hpp"
#include "ui/demo/demo_driver.hpp"
#include "ui/import/import_dialog.hpp"
#include "ui/jobs/import_task.hpp"
#include "ui/jobs/project_session.hpp"
#include "ui/jobs/run_manager.hpp"
#include "ui/runs/run_comparison_view.hpp"
#include "ui/runs/run_panel.hpp"
#include "ui/runs/run_view.hpp"
#include "ui/util/format.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/resources.hpp"
#include "ui/util/settings.hpp"
#include "ui/widgets/project_tree.hpp"
#include "ui/widgets/start_page.hpp"
#include "ui/widgets/tab_page.hpp"

namespace latent::ui {
namespace {

QWidget* makeProjectHome(MainWindow* window, const QList<QAction*>& imports) {
  auto* home = new QWidget(window);
  auto* title = new QLabel(QObject::tr("<h2>Nothing open yet</h2>"
                                       "<p>Double-click a dataset or a run in the project tree to open it here.<br>"
                                       "New data comes in through the File menu or the buttons below; models are "
                                       "started from the run panel on the right.</p>"),
                           home);
  title->setAlignment(Qt::AlignCenter);
  title->setWordWrap(true);
  auto* buttons = new QHBoxLayout;
  buttons->addStretch(1);
  for (QAction* a : imports) {
    auto* b = new QToolButton(home);
    b->setDefaultAction(a);
    b->setToolButtonStyle(Qt::ToolButtonTextUnderIcon);
    b->setIconSize(QSize(40, 40));
    b->setMinimumWidth(110);
    buttons->addWidget(b);
  }
  buttons->addStretch(1);
  auto* layout = new QVBoxLayout(home);
  layout->addStretch(2);
  layout->addWidget(title);
  layout->addSpacing(16);
  layout->addLayout(buttons);
  layout->addStretch(3);
  return home;
}

// The settings key of a project file: a hash of its absolute path (QSettings keys cannot hold
// slashes).
QString projectSettingsKey(const QString& file) {
  return QString::fromLatin1(
      QCryptographicHash::hash(QFileInfo(file).absoluteFilePath().toUtf8(), QCryptographicHash::Sha1).toHex());
}

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  initResources();
  setWindowIcon(appIcon());
  setObjectName(QStringLiteral("mainWindow"));
  setAcceptDrops(true);  // drop a project to open it, or data to import it
  m_runs = new RunManager(this);
  m_question = [this](const QString& title, const QString& text, QMessageBox::StandardButtons buttons) {
    return QMessageBox::question(this, title, text, buttons);
  };
  m_chooseSaveFile = [this](const QString& title, const QString& suggestion) {
    return QFileDialog::getSaveFileName(this, title, suggestion, tr("Latent Studio projects (*.latent)"));
  };

  m_tree = new ProjectTree(this);
  m_runPanel = new RunPanel(m_runs, this);
  m_log = new LogView(this);
  createDocks();
  createActions();
  createMenus();
  createToolBar();

  // Central area: start page (no project), project home (no tabs), or banner + tabs.
  m_start = new StartPage(this);
  m_projectHome = makeProjectHome(this, {m_importCorpus, m_importGraph, m_importRatings, m_importTable});
  m_tabs = new QTabWidget(this);
  m_tabs->setTabsClosable(true);
  m_tabs->setMovable(true);
  m_tabs->setDocumentMode(true);
  m_bannerFrame = new QFrame(this);
  m_bannerFrame->setObjectName(QStringLiteral("banner"));
  m_banner = new QLabel(m_bannerFrame);
  m_banner->setWordWrap(true);
  m_banner->setTextFormat(Qt::RichText);
  auto* bannerClose = new QToolButton(m_bannerFrame);
  bannerClose->setText(QStringLiteral("✕"));
  bannerClose->setAutoRaise(true);
  auto* bannerLayout = new QHBoxLayout(m_bannerFrame);
  bannerLayout->setContentsMargins(12, 8, 6, 8);
  auto* bannerIcon = new QLabel(m_bannerFrame);
  bannerIcon->setPixmap(themedIcon("demo").pixmap(24, 24));
  bannerLayout->addWidget(bannerIcon, 0, Qt::AlignTop);
  bannerLayout->addWidget(m_banner, 1);
  bannerLayout->addWidget(bannerClose, 0, Qt::AlignTop);
  m_bannerFrame->hide();
  connect(bannerClose, &QToolButton::clicked, m_bannerFrame, &QWidget::hide);
  m_workArea = new QWidget(this);
  auto* workLayout = new QVBoxLayout(m_workArea);
  workLayout->setContentsMargins(0, 0, 0, 0);
  workLayout->setSpacing(0);
  workLayout->addWidget(m_bannerFrame);
  auto* pages = new QStackedWidget(m_workArea);
  pages->addWidget(m_projectHome);
  pages->addWidget(m_tabs);
  workLayout->addWidget(pages, 1);
  m_central = new QStackedWidget(this);
  m_central->addWidget(m_start);
  m_central->addWidget(m_workArea);
  setCentralWidget(m_central);

  m_statusProject = new QLabel(this);
  m_statusJobs = new QLabel(this);
  m_statusProgress = new QProgressBar(this);
  m_statusProgress->setMaximumWidth(160);
  m_statusProgress->setMaximumHeight(14);
  m_statusProgress->setRange(0, 0);
  m_statusProgress->hide();
  statusBar()->addWidget(m_statusProject, 1);
  statusBar()->addPermanentWidget(m_statusProgress);
  statusBar()->addPermanentWidget(m_statusJobs);

  connect(m_start, &StartPage::newProjectRequested, this, &MainWindow::newProjectDialog);
  connect(m_start, &StartPage::openProjectRequested, this, &MainWindow::openProjectDialog);
  connect(m_start, &StartPage::recentProjectRequested, this, [this](const QString& f) { openProject(f); });
  connect(m_start, &StartPage::sampleRequested, this,
          [this](const QString& sample) { startDemo(QStringLiteral("sample:") + sample); });
  connect(m_tabs, &QTabWidget::tabCloseRequested, this, &MainWindow::closeTab);
  connect(m_tabs, &QTabWidget::currentChanged, this, [this, pages] {
    pages->setCurrentWidget(m_tabs->count() > 0 ? static_cast<QWidget*>(m_tabs) : m_projectHome);
    auto* view = qobject_cast<RunView*>(m_tabs->currentWidget());
    m_undoGroup->setActiveStack(view ? view->undoStack() : nullptr);
    updateSelectedRun();
    updateActions();
  });
  connect(m_tree, &ProjectTree::openDatasetRequested, this, [this](qint64 id) { openDataset(id); });
  connect(m_tree, &ProjectTree::openRunRequested, this, &MainWindow::openRun);
  connect(m_tree, &ProjectTree::newRunRequested, this, &MainWindow::focusRunPanel);
  connect(m_tree, &ProjectTree::rerunRequested, this, &MainWindow::rerun);
  connect(m_tree, &ProjectTree::precisionRecallRequested, this, &MainWindow::openPrecisionRecall);
  connect(m_tree, &ProjectTree::renameDatasetRequested, this, &MainWindow::renameDataset);
  connect(m_tree, &ProjectTree::attachLinksRequested, this, &MainWindow::chooseLinksFile);
  connect(m_tree, &ProjectTree::deleteDatasetRequested, this, &MainWindow::deleteDataset);
  connect(m_tree, &ProjectTree::deleteRunRequested, this, &MainWindow::deleteRunAsked);
  connect(m_tree, &ProjectTree::removeSnapshotsRequested, this, &MainWindow::removeSnapshotsAsked);
  connect(m_tree, &ProjectTree::annotateRunRequested, this, &MainWindow::annotateRunAsked);
  connect(m_tree, &ProjectTree::compareRunsRequested, this, &MainWindow::openRunComparison);
  // Comparisons of runs follow the runs as the tree does (started, ended, renamed, deleted).
  connect(m_tree, &ProjectTree::refreshed, this, [this] {
    for (int i = 0; i < m_tabs->count(); ++i)
      if (auto* comparison = qobject_cast<RunComparisonView*>(m_tabs->widget(i))) comparison->reload();
  });
  connect(m_tree, &ProjectTree::readFailed, this,
          [this](const QString& m) { log(tr("Could not read the project: %1").arg(m), LogView::Level::Error); });
  connect(m_tree, &QTreeWidget::itemSelectionChanged, this, &MainWindow::updateSelectedRun);
  connect(m_runPanel, &RunPanel::openRunRequested, this, &MainWindow::openRun);
  connect(m_runs, &RunManager::runCreated, this, &MainWindow::onRunCreated);
  connect(m_runs, &RunManager::runEnded, this, &MainWindow::onRunEnded);
  connect(m_runs, &RunManager::started, this, [this] { updateStatus(); });

  // Window state: the last one, or a sensible first one.
  auto settings = appSettings();
  if (!restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray())) resize(1400, 900);
  // The docks' minimum widths hold against a saved state too: one saved squeezed comes back usable.
  if (!restoreState(settings.value(QStringLiteral("window/state")).toByteArray())) resetLayout();
  m_start->setRecentProjects(recentProjects());
  updateCentral();
  updateTitle();
  updateActions();
  updateStatus();
}

MainWindow::~MainWindow() = default;

void MainWindow::closeEvent(QCloseEvent* event) {
  if (!confirmStopRuns() || !confirmCloseTemporary()) {
    event->ignore();
    return;
  }
  rememberOpenTabs();
  const int active = m_runs->activeCount();
  if (active > 0) log(tr("Stopping %1 before closing…").arg(countOf(active, tr("run"), tr("runs"))));
  // Stop every job and wait for them (runs keep what they reached: they are recorded as stopped).
  m_runs->stopAll();
  m_runs->waitAll();
  auto settings = appSettings();
  settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
  settings.setValue(QStringLiteral("window/state"), saveState());
  event->accept();
}

// --- Projects ---------------------------------------------------------------------------------

void MainWindow::setPrompts(Question question, SaveFileChooser chooser) {
  m_question = std::move(question);
  m_chooseSaveFile = std::move(chooser);
}

bool MainWindow::confirmStopRuns() {
  const int active = m_runs->activeCount();
  if (active == 0) return true;
  const auto answer = m_question(tr("Runs Going"),
                                 tr("%1 still going. Stop and keep what they have reached?")
                                     .arg(countOf(active, tr("One run is"), tr("runs are"))),
                                 QMessageBox::Yes | QMessageBox::Cancel);
  return answer == QMessageBox::Yes;
}

bool MainWindow::confirmCloseTemporary() {
  if (!hasProject() || !m_temporary) return true;
  const auto answer =
      m_question(tr("Temporary Project"),
                 tr("%1 was made for a demo or a sample and is discarded when it closes. Save a copy first?")
                     .arg(fromPath(m_projectFile.filename())),
                 QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
  if (answer == QMessageBox::Discard) return true;
  if (answer == QMessageBox::Save) {
    // The close goes on once the copy is open in place of the temporary project.
    m_closeAfterSave = true;
    saveProjectAsDialog();
  }
  return false;
}

void MainWindow::saveProjectAsDialog() {
  if (!hasProject()) return;
  QString file = m_chooseSaveFile(tr("Save Project As"), fromPath(m_projectFile.filename()));
  if (file.isEmpty()) {
    m_closeAfterSave = false;
    return;
  }
  if (!file.endsWith(QLatin1String(".latent"))) file += QStringLiteral(".latent");
  if (QFileInfo::exists(file) && QFileInfo(file).absoluteFilePath() != fromPath(m_projectFile)) {
    // The dialog has asked about replacing it.
    for (const QString& suffix : {QString(), QStringLiteral("-wal"), QStringLiteral("-shm")})
      QFile::remove(file + suffix);
  }
  m_warnSaveFailure = true;  // the user asked: a failure gets a box
  saveProjectAs(file);
}

void MainWindow::saveProjectAs(const QString& file) {
  if (!hasProject()) return;
  log(tr("Saving a copy as %1…").arg(QDir::toNativeSeparators(file)));
  m_session->write(
      this, [target = toPath(file)](core::Project& project) { core::copyProjectTo(project, target); },
      [this, file](SessionResult<std::monostate> result) {
        if (!result.ok()) {
          m_closeAfterSave = false;
          const QString message = tr("Could not save %1: %2").arg(QDir::toNativeSeparators(file), result.error);
          log(message, LogView::Level::Error);
          statusBar()->showMessage(message, 10000);
          if (std::exchange(m_warnSaveFailure, false)) QMessageBox::warning(this, tr("Save Project As"), message);
          return;
        }
        m_warnSaveFailure = false;
        log(tr("Saved the project as %1").arg(QDir::toNativeSeparators(file)), LogView::Level::Success);
        if (std::exchange(m_closeAfterSave, false)) {
          // Asked while closing: the copy is kept, the temporary project goes, and so does the window.
          m_temporary = false;
          addRecent(file);
          close();
          return;
        }
        openProject(file);
      });
}

void MainWindow::rememberOpenTabs() {
  if (!hasProject() || m_temporary) return;
  QStringList keys;
  for (int i = 0; i < m_tabs->count(); ++i)
    if (auto* page = qobject_cast<TabPage*>(m_tabs->widget(i));
        page && (page->key().startsWith(QLatin1String("run:")) || page->key().startsWith(QLatin1String("dataset:"))))
      keys << page->key();
  auto settings = appSettings();
  settings.beginGroup(QStringLiteral("projectTabs"));
  const QString id = projectSettingsKey(fromPath(m_projectFile));
  if (keys.isEmpty())
    settings.remove(id);
  else
    settings.setValue(id, keys);
}

void MainWindow::reopenTabs() {
  auto settings = appSettings();
  settings.beginGroup(QStringLiteral("projectTabs"));
  const QStringList keys = settings.value(projectSettingsKey(fromPath(m_projectFile))).toStringList();
  for (const QString& key : keys) {
    const qint64 id = key.section(QLatin1Char(':'), 1).toLongLong();
    if (id <= 0) continue;
    // A run or dataset deleted since is reported in the log by the view that cannot read it.
    if (key.startsWith(QLatin1String("run:")))
      openRun(id);
    else if (key.startsWith(QLatin1String("dataset:")))
      openDataset(id);
  }
}

void MainWindow::newProjectDialog() {
  if (!confirmCloseTemporary()) return;
  QString file =
      QFileDialog::getSaveFileName(this, tr("New Project"), QString(), tr("Latent Studio projects (*.latent)"));
  if (file.isEmpty()) return;
  if (!file.endsWith(QLatin1String(".latent"))) file += QStringLiteral(".latent");
  QString error;
  m_warnOpenFailures = true;
  if (!createProject(file, &error)) QMessageBox::warning(this, tr("New Project"), error);
}

void MainWindow::openProjectDialog() {
  if (!confirmCloseTemporary()) return;
  const QString file = QFileDialog::getOpenFileName(this, tr("Open Project"), QString(),
                                                    tr("Latent Studio projects (*.latent);;All files (*)"));
  if (file.isEmpty()) return;
  QString error;
  m_warnOpenFailures = true;
  if (!openProject(file, &error)) QMessageBox::warning(this, tr("Open Project"), error);
}

bool MainWindow::createProject(const QString& file, QString* /*error*/, bool remember) {
  // The file dialog has asked about replacing; an existing file is removed so "new" means new.
  if (QFileInfo::exists(file)) {
    for (const QString& suffix : {QString(), QStringLiteral("-wal"), QStringLiteral("-shm")})
      QFile::remove(file + suffix);
  }
  startOpening(file, remember, true);
  return true;
}

bool MainWindow::openProject(const QString& file, QString* error, bool remember) {
  if (!QFileInfo::exists(file)) {
    m_warnOpenFailures = false;  // the caller shows `error` itself
    openFailed(file, tr("Cannot open %1: the file does not exist.").arg(QDir::toNativeSeparators(file)), error);
    return false;
  }
  startOpening(file, remember, false);
  return true;
}

void MainWindow::startOpening(const QString& file, bool remember, bool creating) {
  const bool warn = std::exchange(m_warnOpenFailures, false);
  delete m_opening;  // a newer open wins over one still under way
  auto* session = m_opening = new ProjectSession(toPath(file), this);
  // A read-write connection creates the file or migrates an older one forward; views then read
  // through their own read-only connections.
  session->write(
      this, [](core::Project&) {},
      [this, session, file, remember, creating, warn](SessionResult<std::monostate> result) {
        if (session != m_opening) return;
        m_opening = nullptr;
        if (!result.ok()) {
          session->deleteLater();
          const QString message = creating ? tr("Could not create %1: %2").arg(file, result.error)
                                           : tr("Cannot open %1: %2").arg(QDir::toNativeSeparators(file), result.error);
          openFailed(file, message, nullptr);
          if (warn) QMessageBox::warning(this, creating ? tr("New Project") : tr("Open Project"), message);
          return;
        }
        log(creating ? tr("Created project %1").arg(QDir::toNativeSeparators(file))
                     : tr("Opened project %1").arg(QDir::toNativeSeparators(file)));
        useProject(session, remember);
      });
}

void MainWindow::openFailed(const QString& file, const QString& message, QString* error) {
  log(message, LogView::Level::Error);
  statusBar()->showMessage(message, 10000);
  if (error) *error = message;
  // A recent entry that no longer opens is dropped.
  auto settings = appSettings();
  QStringList recent = settings.value(QStringLiteral("recentProjects")).toStringList();
  if (recent.removeAll(QFileInfo(file).absoluteFilePath()) > 0) {
    settings.setValue(QStringLiteral("recentProjects"), recent);
    updateRecentMenu();
    m_start->setRecentProjects(recentProjects());
  }
  Q_EMIT projectOpenFailed(message);
}

void MainWindow::useProject(ProjectSession* session, bool remember) {
  if (hasProject()) closeProject();
  m_session = session;
  m_temporary = !remember;
  m_projectFile = session->file();
  // Every write through the session changes what the tree and the run panel show.
  connect(m_session, &ProjectSession::changed, this, &MainWindow::refreshProject);
  m_tree->setProject(m_session);
  m_runPanel->setProject(m_session);
  if (remember) addRecent(fromPath(m_projectFile));
  updateCentral();
  updateTitle();
  updateActions();
  updateStatus();
  if (!m_temporary) reopenTabs();
  Q_EMIT projectOpened(fromPath(m_projectFile));
}

void MainWindow::closeProject() {
  if (!hasProject()) return;
  if (m_runs->activeCount() > 0) {
    log(tr("Stopping the project's runs…"));
    m_runs->stopAll();
    m_runs->waitAll();
    QCoreApplication::sendPostedEvents();  // deliver their endings while the project is known
  }
  rememberOpenTabs();
  while (m_tabs->count() > 0) closeTab(0);
  m_projectFile.clear();
  m_temporary = false;
  m_tree->setProject(nullptr);
  m_runPanel->setProject(nullptr);
  // Its destructor lets queued writes finish: they were promised to the user.
  delete std::exchange(m_session, nullptr);
  m_runs->removeEnded();
  m_bannerFrame->hide();
  updateCentral();
  updateTitle();
  updateActions();
  updateStatus();
  Q_EMIT projectClosed();
}

QStringList MainWindow::recentProjects() const {
  QStringList files;
  for (const QString& f : appSettings().value(QStringLiteral("recentProjects")).toStringList())
    if (QFileInfo::exists(f) && !files.contains(f)) files << f;
  return files.mid(0, kMaxRecentProjects);
}

void MainWindow::addRecent(const QString& file) {
  const QString absolute = QFileInfo(file).absoluteFilePath();
  QStringList files = recentProjects();
  files.removeAll(absolute);
  files.prepend(absolute);
  appSettings().setValue(QStringLiteral("recentProjects"), files.mid(0, kMaxRecentProjects));
  updateRecentMenu();
  m_start->setRecentProjects(recentProjects());
}

void MainWindow::refreshProject() {
  m_tree->refresh();
  m_runPanel->refreshDatasets();
  updateStatus();
}

void MainWindow::updateTitle() {
  setWindowTitle(hasProject() ? QStringLiteral("%1 — Latent Studio").arg(fromPath(m_projectFile.filename()))
                              : tr("Latent Studio"));
  setWindowFilePath(hasProject() ? fromPath(m_projectFile) : QString());
}

void MainWindow::updateCentral() {
  const bool open = hasProject();
  m_central->setCurrentWidget(open ? m_workArea : static_cast<QWidget*>(m_start));
  // Without a project the docks would be empty panes: the start page gets the whole window.
  for (QDockWidget* dock : {m_treeDock, m_runDock, m_logDock}) dock->setVisible(open);
}

void MainWindow::updateStatus() {
  m_statusProject->setText(hasProject() ? QDir::toNativeSeparators(fromPath(m_projectFile)) : tr("No project open"));
  const int runs = m_runs->activeCount();
  QStringList jobs;
  if (runs > 0) jobs << tr("%1 going").arg(countOf(runs, tr("run"), tr("runs")));
  if (m_importsRunning > 0) jobs << tr("%1 going").arg(countOf(m_importsRunning, tr("import"), tr("imports")));
  m_statusJobs->setText(jobs.join(QStringLiteral(" · ")));
  m_statusProgress->setVisible(runs + m_importsRunning > 0);
  if (m_stopRun) m_stopRun->setEnabled(runs > 0);
}

void MainWindow::log(const QString& message, LogView::Level level) { m_log->append(message, level); }

void MainWindow::showBanner(const QString& html) {
  m_banner->setText(html);
  QColor background = palette().color(QPalette::Highlight);
  background.setAlphaF(0.14f);
  m_bannerFrame->setStyleSheet(
      QStringLiteral("#banner { background: rgba(%1,%2,%3,%4); border-bottom: 1px solid palette(mid); }")
          .arg(background.red())
          .arg(background.green())
          .arg(background.blue())
          .arg(background.alphaF()));
  m_bannerFrame->show();
}

QString MainWindow::bannerText() const { return m_bannerFrame->isHidden() ? QString() : m_banner->text(); }

bool MainWindow::startDemo(const QString& name, const QString& screenshotPath) {
  const auto spec = findDemo(name);
  if (!spec) return false;
  auto* driver = new DemoDriver(this, *spec, screenshotPath);
  driver->start();
  return true;
}

}  // namespace latent::ui
