// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/jobs/project_session.hpp"

#include <QCoreApplication>
#include <QThread>

#include <algorithm>
#include <atomic>
#include <vector>

namespace latent::ui {
namespace {

std::atomic<int> g_guiThreadOpens{0};

// GUI thread only, like the sessions themselves.
std::vector<ProjectSession*>& sessions() {
  static std::vector<ProjectSession*> all;
  return all;
}

}  // namespace

const std::filesystem::path& offGuiThread(const std::filesystem::path& projectFile) {
  const auto* app = QCoreApplication::instance();
  if (app && QThread::currentThread() == app->thread()) {
    ++g_guiThreadOpens;
    qWarning("latent: a project connection was opened on the GUI thread (%s)", projectFile.string().c_str());
#ifndef NDEBUG
    qFatal("latent: open projects through ProjectSession, never on the GUI thread");
#endif
  }
  return projectFile;
}

int guiThreadProjectOpens() { return g_guiThreadOpens.load(); }

ProjectSession::ProjectSession(std::filesystem::path projectFile, QObject* parent)
    : QObject(parent), m_file(std::move(projectFile)) {
  m_writer.setMaxThreadCount(1);
  sessions().push_back(this);
}

ProjectSession::~ProjectSession() {
  auto& all = sessions();
  all.erase(std::remove(all.begin(), all.end(), this), all.end());
  waitForWrites();
}

ProjectSession* ProjectSession::find(const std::filesystem::path& projectFile) {
  // The newest first: a project reopened has a new session while the old one winds down.
  const auto& all = sessions();
  for (auto it = all.rbegin(); it != all.rend(); ++it)
    if ((*it)->file() == projectFile) return *it;
  return nullptr;
}

void ProjectSession::waitForWrites() { m_writer.waitForDone(); }

}  // namespace latent::ui
