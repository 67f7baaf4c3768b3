// SPDX-License-Identifier: GPL-3.0-or-later
// Starts fits on background threads (core::JobRunner) and keeps one JobController per run.
#pragma once

#include <QList>
#include <QObject>

#include <filesystem>

#include "core/jobs/fit_job.hpp"
#include "core/jobs/job_runner.hpp"
#include "ui/jobs/job_controller.hpp"

namespace latent::ui {

class RunManager final : public QObject {
  Q_OBJECT

 public:
  explicit RunManager(QObject* parent = nullptr);
  // Stops every run and waits for them (closing the window must not leave threads behind).
  ~RunManager() override;

  // Validation happens on the worker (runFit validates before writing anything); a request the
  // caller has not validated ends with the UsageError text as the controller's error.
  JobController* start(const std::filesystem::path& projectFile, const core::RunRequest& request);
  void stopAll();
  void waitAll();
  int activeCount() const;
  // Forgets the controllers of runs that have ended (when another project opens).
  void removeEnded();
  const QList<JobController*>& controllers() const noexcept { return m_controllers; }
  JobController* controllerForRun(qint64 runId) const;

 Q_SIGNALS:
  void started(latent::ui::JobController* controller);
  void runCreated(latent::ui::JobController* controller);
  void runEnded(latent::ui::JobController* controller);

 private:
  QList<JobController*> m_controllers;
  // Declared last: destroyed first, so the threads are joined before the controllers (children)
  // they post to are deleted.
  core::JobRunner m_runner;
};

}  // namespace latent::ui
