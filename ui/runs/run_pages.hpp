// SPDX-License-Identifier: GPL-3.0-or-later
// The pages one family of results adds to a run's tab (topics, blocks, factors, ...): after each
// reload RunView hands every family the run and what it holds; the family decides from that
// whether it applies, reads its data off the GUI thread, and adds, updates or removes its tabs.
#pragma once

#include <QObject>
#include <QPointer>
#include <QString>

#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/data/data_kind.hpp"
#include "core/store/run_store.hpp"
#include "ui/util/background.hpp"

class QTabWidget;
class QUndoStack;
class QWidget;

namespace latent::ui {

class JobController;

// What RunView gives every family when it makes it.
struct RunPagesContext {
  std::filesystem::path projectFile;
  qint64 runId = 0;
  QTabWidget* pages = nullptr;      // the run's pages, Training among them
  QWidget* training = nullptr;      // the Training page, for pages placed before or after it
  QUndoStack* undoStack = nullptr;  // edits made on the pages (the main window's Edit menu follows it)
};

// What a run holds, read with its record off the GUI thread at each reload, so that a family can
// decide whether it applies without opening the project on the GUI thread.
struct RunHoldings {
  core::DataKind kind = core::DataKind::Corpus;                // the run's dataset's
  std::vector<std::pair<std::string, std::int64_t>> matrices;  // (name, iteration); -1: the final result

  bool holds(std::string_view name) const;
  // Whether a reader of the result made of `names` finds it: all of them stored as final results,
  // or all in one snapshot (the rule of core::latestResultIteration, over the list read here).
  bool holdsResult(std::initializer_list<std::string_view> names) const;
};

class RunPages : public QObject {
  Q_OBJECT

 public:
  RunPages(RunPagesContext context, QObject* parent = nullptr);

  // The controller of the run while it goes (null otherwise), for pages that follow it live.
  void setController(JobController* controller);
  // After each reload of the run: load the family's data when the run has it (pending until it is
  // shown), else drop a load under way. Pages once shown stay: a run does not lose its results.
  virtual void update(const core::RunRecord& run, const RunHoldings& holdings) = 0;
  // A load is under way: the run's tab is not settled.
  bool isPending() const noexcept { return m_pending; }

 Q_SIGNALS:
  // Something the family could not read, for the run's facts line.
  void failed(const QString& message);
  // isPending() became false (after the pages of the load are shown).
  void settled();

 protected:
  const RunPagesContext& context() const noexcept { return m_context; }
  JobController* controller() const;

  // Runs `work` off the GUI thread (see runInBackground: it captures what it needs by value and
  // catches its own exceptions) and hands its result to `done` on the GUI thread, unless a later
  // load or cancel() came first, in which case the result is dropped. Pending until `done` ran.
  template <typename Work, typename Done>
  void load(Work work, Done done) {
    const int generation = ++m_generation;
    m_pending = true;
    runInBackground(this, std::move(work), [this, generation, done = std::move(done)](auto result) mutable {
      if (generation != m_generation) return;
      m_pending = false;
      done(std::move(result));
      Q_EMIT settled();
    });
  }
  // Drops a load under way; not pending any more.
  void cancel();

  // Puts `page` among the run's pages at `index` under `title`, or renames it where it is.
  void showPage(QWidget* page, const QString& title, int index);
  // Takes `page` out of the run's pages (it is kept, hidden, for a later showPage).
  void hidePage(QWidget* page);
  bool isShown(const QWidget* page) const;
  // The position of the Training page, for pages placed around it.
  int trainingIndex() const;

 private:
  RunPagesContext m_context;
  QPointer<JobController> m_controller;
  int m_generation = 0;
  bool m_pending = false;
};

}  // namespace latent::ui
