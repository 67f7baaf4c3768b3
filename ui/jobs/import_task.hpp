// SPDX-License-Identifier: GPL-3.0-or-later
// One import on a background thread with its own project connection, reporting progress and
// its end to the GUI thread; used by the import dialog, File ▸ Import Sample and the demos.
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

#include <filesystem>
#include <functional>

#include "core/jobs/import_job.hpp"
#include "core/jobs/job_runner.hpp"

namespace latent::ui {

class ImportTask final : public QObject {
  Q_OBJECT

 public:
  // Runs on the worker thread with a read-write connection opened there (one per thread).
  using Work = std::function<core::ImportResult(core::Project&, const core::ImportControl&)>;

  ImportTask(std::filesystem::path projectFile, QString title, Work work, QObject* parent = nullptr);
  // Cancels and waits: the import rolls back, the project is as it was.
  ~ImportTask() override;

  void start();
  void cancel();
  bool isRunning() const noexcept { return m_running; }
  const QString& title() const noexcept { return m_title; }

  // After ended(): what happened.
  bool succeeded() const noexcept { return m_succeeded; }
  bool wasCancelled() const noexcept { return m_cancelled; }
  const QString& errorMessage() const noexcept { return m_error; }
  const core::DatasetInfo& dataset() const noexcept { return m_dataset; }
  const QStringList& notes() const noexcept { return m_notes; }

 Q_SIGNALS:
  // Bytes done and in all (total 0 when unknown); at most about 20 per second.
  void progress(qint64 done, qint64 total);
  void ended();

 private:
  std::filesystem::path m_projectFile;
  QString m_title;
  Work m_work;
  bool m_running = false;
  bool m_succeeded = false;
  bool m_cancelled = false;
  QString m_error;
  core::DatasetInfo m_dataset;
  QStringList m_notes;
  core::JobRunner m_runner;  // last: joined before anything else goes
};

}  // namespace latent::ui
