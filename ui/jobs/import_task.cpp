// SPDX-License-Identifier: GPL-3.0-or-later
// ImportTask: the worker side (project connection, throttled progress, error capture).
#include "ui/jobs/import_task.hpp"

#include <QMetaObject>

#include <chrono>

#include "core/store/project.hpp"
#include "core/util/errors.hpp"
#include "ui/import/import_settings.hpp"
#include "ui/jobs/project_session.hpp"
#include "ui/util/qt_convert.hpp"

namespace latent::ui {

ImportTask::ImportTask(std::filesystem::path projectFile, QString title, Work work, QObject* parent)
    : QObject(parent), m_projectFile(std::move(projectFile)), m_title(std::move(title)), m_work(std::move(work)) {}

ImportTask::~ImportTask() {
  m_runner.requestStopAll();
  m_runner.waitAll();
}

void ImportTask::start() {
  if (m_running) return;
  m_running = true;
  m_runner.start([this](std::stop_token stop) {
    using Clock = std::chrono::steady_clock;
    auto lastPost = Clock::now() - std::chrono::seconds(1);
    core::ImportControl control;
    control.stop = stop;
    control.progress = [this, lastPost](std::uint64_t done, std::uint64_t total) mutable {
      const auto now = Clock::now();
      if (now - lastPost < std::chrono::milliseconds(50) && done != total) return;
      lastPost = now;
      QMetaObject::invokeMethod(
          this, [this, done, total] { Q_EMIT progress(static_cast<qint64>(done), static_cast<qint64>(total)); },
          Qt::QueuedConnection);
    };

    bool ok = false, cancelled = false;
    QString error;
    core::ImportResult result;
    try {
      core::Project project(offGuiThread(m_projectFile), core::Project::Access::ReadWrite);
      result = m_work(project, control);
      ok = true;
    } catch (const core::Cancelled&) {
      cancelled = true;
    } catch (const std::exception& e) {
      // InputError reads "FILE:LINE: reason", UsageError a sentence; both are for the user.
      error = qs(e.what());
    } catch (...) {
      error = tr("the import failed for an unknown reason");
    }
    QStringList notes;
    for (const auto& n : result.notes) notes << importNoteText(n);
    QMetaObject::invokeMethod(
        this,
        [this, ok, cancelled, error, notes, dataset = result.dataset] {
          m_running = false;
          m_succeeded = ok;
          m_cancelled = cancelled;
          m_error = error;
          m_dataset = dataset;
          m_notes = notes;
          Q_EMIT ended();
        },
        Qt::QueuedConnection);
  });
}

void ImportTask::cancel() { m_runner.requestStopAll(); }

}  // namespace latent::ui
