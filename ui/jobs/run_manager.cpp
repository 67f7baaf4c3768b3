// SPDX-License-Identifier: GPL-3.0-or-later
// RunManager: one JobRunner thread per fit, reporting through its JobController.
#include "ui/jobs/run_manager.hpp"

#include "core/util/errors.hpp"
#include "ui/jobs/project_session.hpp"
#include "ui/util/qt_convert.hpp"

namespace latent::ui {

RunManager::RunManager(QObject* parent) : QObject(parent) {}

RunManager::~RunManager() {
  stopAll();
  waitAll();
}

JobController* RunManager::start(const std::filesystem::path& projectFile, const core::RunRequest& request) {
  auto* controller = new JobController(request, this);
  m_controllers.push_back(controller);
  connect(controller, &JobController::created, this, [this, controller] { Q_EMIT runCreated(controller); });
  connect(controller, &JobController::ended, this, [this, controller] { Q_EMIT runEnded(controller); });

  // The worker captures the raw pointer: the controller outlives the job because the runner is
  // joined before children are deleted, and controllers are never removed while running.
  const auto id = m_runner.start([controller, projectFile, request](std::stop_token stop) {
    std::optional<core::RunRecord> created;
    try {
      auto outcome = core::runFit(projectFile, request, controller, stop, [&](const core::RunRecord& run) {
        created = run;
        controller->postCreated(run);
      });
      controller->postEnded(outcome.run, {});
    } catch (const std::exception& e) {
      // runFit has recorded a model failure as a failed run; re-read it where possible.
      std::optional<core::RunRecord> stored;
      if (created) {
        try {
          core::Project project(offGuiThread(projectFile), core::Project::Access::ReadOnly);
          stored = core::loadRun(project, created->id);
        } catch (const std::exception&) {
          stored = created;
        }
      }
      controller->postEnded(stored, qs(e.what()));
    }
  });
  controller->setStopHandler([this, id] { m_runner.requestStop(id); });
  Q_EMIT started(controller);
  return controller;
}

void RunManager::stopAll() {
  for (auto* c : m_controllers)
    if (c->state() != JobController::State::Ended) c->requestStop();
  m_runner.requestStopAll();
}

void RunManager::waitAll() { m_runner.waitAll(); }

int RunManager::activeCount() const {
  int n = 0;
  for (const auto* c : m_controllers) n += c->state() != JobController::State::Ended ? 1 : 0;
  return n;
}

void RunManager::removeEnded() {
  for (auto it = m_controllers.begin(); it != m_controllers.end();) {
    if ((*it)->state() == JobController::State::Ended) {
      (*it)->deleteLater();
      it = m_controllers.erase(it);
    } else {
      ++it;
    }
  }
}

JobController* RunManager::controllerForRun(qint64 runId) const {
  for (auto* c : m_controllers)
    if (c->runId() == runId) return c;
  return nullptr;
}

}  // namespace latent::ui
