// SPDX-License-Identifier: GPL-3.0-or-later
// Runs one demo in the main window, step by step as each background job ends: a fresh
// temporary project, the sample imported, its browser opened, optionally a model fitted and its
// run view opened (or, for a demo that compares models, several fitted and their precision-recall
// opened), then (for --screenshot) the window saved as PNG.
#pragma once

#include <QObject>
#include <QPointer>
#include <QString>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include "ui/demo/demo_catalogue.hpp"

namespace latent::ui {

class MainWindow;
class TabPage;

class DemoDriver final : public QObject {
  Q_OBJECT

 public:
  // The driver is a child of the window: its temporary folder lives as long as the session.
  DemoDriver(MainWindow* window, DemoSpec spec, QString screenshotPath = {});

  void start();
  const DemoSpec& spec() const noexcept { return m_spec; }
  const QString& projectFile() const noexcept { return m_projectFile; }

 Q_SIGNALS:
  // When the demo has shown what it shows (and the screenshot, if asked for, is written).
  void finished(bool ok, const QString& message);

 private:
  void projectReady();
  void imported(qint64 datasetId);
  void datasetOpened(qint64 datasetId, TabPage* page);
  void pageShown(TabPage* page);
  void runEnded(qint64 runId);
  void startFit();
  // The next of the spec's thenFit models, on the same split and seed.
  void startNextModel();
  // The end of a demo that compares models: the precision-recall of its runs.
  void showRetrieval();
  void finish(bool ok, const QString& message);

  QPointer<MainWindow> m_window;
  DemoSpec m_spec;
  QString m_screenshot;
  QTemporaryDir m_dir;
  QString m_projectFile;
  bool m_done = false;
  nlohmann::json m_options;  // the demo's model options
  int m_nextK = 0;           // demos over several K: the index of the next one
  int m_nextFit = 0;         // demos over several models: the index of the next thenFit
  QList<qint64> m_runIds;    // the runs the demo fitted, in order
};

}  // namespace latent::ui
