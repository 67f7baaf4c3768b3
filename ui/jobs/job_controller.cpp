// SPDX-License-Identifier: GPL-3.0-or-later
// JobController: coalesced posting of reports, run creation and the end of a run.
#include "ui/jobs/job_controller.hpp"

#include <QMetaObject>

namespace latent::ui {

JobController::JobController(core::RunRequest request, QObject* parent)
    : QObject(parent), m_request(std::move(request)) {
  qRegisterMetaType<core::IterationReport>();
  m_clock.start();
}

JobController::~JobController() = default;

bool JobController::onReport(const core::IterationReport& report) {
  bool post = false;
  {
    std::lock_guard lock(m_mutex);
    m_pending.push_back(report);
    post = !m_posted;
    m_posted = true;
  }
  // One queued call per batch: a model reporting thousands of times a second costs the event
  // loop one call per frame or so, not one per report.
  if (post) QMetaObject::invokeMethod(this, &JobController::drain, Qt::QueuedConnection);
  return !m_stop.load();
}

void JobController::postCreated(const core::RunRecord& run) {
  QMetaObject::invokeMethod(
      this,
      [this, run] {
        m_run = run;
        m_state = State::Running;
        Q_EMIT created(run.id);
      },
      Qt::QueuedConnection);
}

void JobController::postEnded(std::optional<core::RunRecord> run, const QString& error) {
  QMetaObject::invokeMethod(
      this,
      [this, run = std::move(run), error] {
        drain();  // every report before the end
        if (run) m_run = *run;
        if (!error.isEmpty()) {
          m_error = error;
          if (m_run.id != 0 && m_run.status == core::RunStatus::Running) m_run.status = core::RunStatus::Failed;
        }
        m_finalSeconds = static_cast<double>(m_clock.elapsed()) / 1000.0;
        m_state = State::Ended;
        Q_EMIT ended();
      },
      Qt::QueuedConnection);
}

void JobController::requestStop() {
  m_stop.store(true);
  if (m_stopHandler) m_stopHandler();
}

double JobController::elapsedSeconds() const {
  return m_finalSeconds >= 0 ? m_finalSeconds : static_cast<double>(m_clock.elapsed()) / 1000.0;
}

void JobController::drain() {
  std::vector<core::IterationReport> batch;
  {
    std::lock_guard lock(m_mutex);
    batch.swap(m_pending);
    m_posted = false;
  }
  if (batch.empty()) return;
  for (const auto& r : batch) {
    m_reports.push_back(r);
    Q_EMIT report(r);
  }
  Q_EMIT reportsArrived();
}

}  // namespace latent::ui
