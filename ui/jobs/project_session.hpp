// SPDX-License-Identifier: GPL-3.0-or-later
// The UI's way into an open project: reads and writes run off the GUI thread, each on a
// connection opened where it runs, and their results come back to the GUI thread.
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <filesystem>
#include <optional>
#include <type_traits>
#include <utility>
#include <variant>

#include "core/store/project.hpp"

namespace latent::ui {

// Every core::Project the UI opens takes its path through this: the GUI thread must never hold
// a connection (a running fit or import may hold the write lock, and a cascade delete is slow).
// On the GUI thread it counts the offence and warns, and aborts in debug builds, so a test can
// fail on it in release builds too.
const std::filesystem::path& offGuiThread(const std::filesystem::path& projectFile);
int guiThreadProjectOpens();

// What a read or write hands back: its value, or the message of what it threw.
template <typename T>
struct SessionResult {
  std::optional<T> value;
  QString error;
  bool ok() const noexcept { return value.has_value(); }
};

class ProjectSession final : public QObject {
  Q_OBJECT

 public:
  explicit ProjectSession(std::filesystem::path projectFile, QObject* parent = nullptr);
  // Waits for the queued writes: they were promised to the user.
  ~ProjectSession() override;

  const std::filesystem::path& file() const noexcept { return m_file; }

  // The session open for `projectFile`, for views built with a path only (GUI thread only).
  static ProjectSession* find(const std::filesystem::path& projectFile);

  // `work(core::Project&)` runs on a worker with a read-only connection and must not touch
  // widgets; `done(SessionResult<R>)` runs on the GUI thread, and not at all when `context`
  // has gone. Reads may run side by side.
  template <typename Work, typename Done>
  void read(QObject* context, Work work, Done done) {
    submit(context, core::Project::Access::ReadOnly, nullptr, std::move(work), std::move(done));
  }

  // As read, but read-write and on the session's one writer thread, so writes happen and
  // report back in the order they were asked for; changed() follows each one that succeeded.
  template <typename Work, typename Done>
  void write(QObject* context, Work work, Done done) {
    submit(context, core::Project::Access::ReadWrite, &m_writer, std::move(work), std::move(done));
  }

  // Blocks until the queued writes are done; for closing only.
  void waitForWrites();

 Q_SIGNALS:
  void changed();

 private:
  template <typename Work>
  using ValueOf = std::conditional_t<std::is_void_v<std::invoke_result_t<Work&, core::Project&>>, std::monostate,
                                     std::invoke_result_t<Work&, core::Project&>>;

  template <typename Work, typename Done>
  void submit(QObject* context, core::Project::Access access, QThreadPool* pool, Work work, Done done) {
    using Value = ValueOf<Work>;
    using Result = SessionResult<Value>;
    // The watcher belongs to the session so that a write still announces changed() when the
    // widget that asked for it has gone meanwhile.
    auto* watcher = new QFutureWatcher<Result>(this);
    const bool isWrite = pool != nullptr;
    QObject::connect(watcher, &QFutureWatcherBase::finished, this,
                     [this, watcher, isWrite, guard = QPointer<QObject>(context), done = std::move(done)]() mutable {
                       Result result = watcher->result();
                       watcher->deleteLater();
                       const bool ok = result.ok();
                       if (guard) done(std::move(result));
                       if (isWrite && ok) Q_EMIT changed();
                     });
    auto task = [file = m_file, access, work = std::move(work)]() mutable -> Result {
      try {
        core::Project project(offGuiThread(file), access);
        if constexpr (std::is_void_v<std::invoke_result_t<Work&, core::Project&>>) {
          work(project);
          return Result{std::monostate{}, {}};
        } else {
          return Result{work(project), {}};
        }
      } catch (const std::exception& e) {
        return Result{std::nullopt, QString::fromUtf8(e.what())};
      }
    };
    watcher->setFuture(pool ? QtConcurrent::run(pool, std::move(task)) : QtConcurrent::run(std::move(task)));
  }

  std::filesystem::path m_file;
  QThreadPool m_writer;
};

}  // namespace latent::ui
