// SPDX-License-Identifier: GPL-3.0-or-later
// Runs a function on Qt's thread pool and hands its result to a QObject on the GUI thread.
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QtConcurrent/QtConcurrentRun>

#include <type_traits>
#include <utility>

namespace latent::ui {

// `work` runs off the GUI thread and must not touch `context` or any widget: it captures what it
// needs by value (a project path, an id) and opens its own read-only project connection. It must
// catch its own exceptions and return them in its result. `done(result)` runs on the GUI thread;
// when `context` is destroyed first, the result is dropped.
template <typename Work, typename Done>
void runInBackground(QObject* context, Work work, Done done) {
  using Result = std::invoke_result_t<Work>;
  auto* watcher = new QFutureWatcher<Result>(context);
  QObject::connect(watcher, &QFutureWatcherBase::finished, context, [watcher, done = std::move(done)]() mutable {
    done(watcher->result());
    watcher->deleteLater();
  });
  watcher->setFuture(QtConcurrent::run(std::move(work)));
}

}  // namespace latent::ui
