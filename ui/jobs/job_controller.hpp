// SPDX-License-Identifier: GPL-3.0-or-later
// The bridge between one fit on a worker thread and the GUI (STYLE §4): it observes the model,
// copies each report and posts it to the GUI thread; widgets never see the worker.
#pragma once

#include <QElapsedTimer>
#include <QMetaType>
#include <QObject>
#include <QString>
#include <QVector>

#include <atomic>
#include <functional>
#include <mutex>
#include <optional>
#include <vector>

#include "core/jobs/fit_job.hpp"
#include "core/models/training.hpp"
#include "core/store/run_store.hpp"

namespace latent::ui {

class JobController final : public QObject, public core::TrainingObserver {
  Q_OBJECT

 public:
  enum class State { Starting, Running, Ended };

  explicit JobController(core::RunRequest request, QObject* parent = nullptr);
  ~JobController() override;

  // --- Worker thread. Cheap, never blocking: copy under a short lock and post once per batch.
  bool onReport(const core::IterationReport& report) override;
  void postCreated(const core::RunRecord& run);
  // `run` is the stored record when the run exists; `error` is what went wrong, if anything.
  void postEnded(std::optional<core::RunRecord> run, const QString& error);
  bool stopRequested() const noexcept { return m_stop.load(); }

  // --- GUI thread.
  // From now on the model is told to stop at its next report, and the stop handler (the job's
  // stop_token) is fired so it stops between reports too.
  void requestStop();
  void setStopHandler(std::function<void()> handler) { m_stopHandler = std::move(handler); }

  const core::RunRequest& request() const noexcept { return m_request; }
  State state() const noexcept { return m_state; }
  qint64 runId() const noexcept { return m_run.id; }
  // The run as last known: as created, then as finally stored.
  const core::RunRecord& run() const noexcept { return m_run; }
  bool hasRun() const noexcept { return m_run.id != 0; }
  const QString& error() const noexcept { return m_error; }
  // Every report received so far, in order (the charts' data; nothing is dropped).
  const QVector<core::IterationReport>& reports() const noexcept { return m_reports; }
  double elapsedSeconds() const;

 Q_SIGNALS:
  void created(qint64 runId);
  // One signal per report, in order.
  void report(const latent::core::IterationReport& report);
  // Once per batch of reports delivered; views redraw from this (throttled on their side).
  void reportsArrived();
  void ended();

 private:
  void drain();

  core::RunRequest m_request;
  std::atomic<bool> m_stop{false};
  std::function<void()> m_stopHandler;

  std::mutex m_mutex;  // guards m_pending and m_posted (worker appends, GUI drains)
  std::vector<core::IterationReport> m_pending;
  bool m_posted = false;

  State m_state = State::Starting;
  core::RunRecord m_run;
  QString m_error;
  QVector<core::IterationReport> m_reports;
  QElapsedTimer m_clock;
  double m_finalSeconds = -1.0;
};

}  // namespace latent::ui

Q_DECLARE_METATYPE(latent::core::IterationReport)
