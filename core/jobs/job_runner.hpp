// SPDX-License-Identifier: GPL-3.0-or-later
// Background jobs (imports and fits) on threads of their own, each stoppable.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <stop_token>
#include <thread>

namespace latent::core {

// Each job runs on its own std::jthread; a fit inside it opens its own oneTBB arena of the
// requested size (runFit), so several runs can go at once without sharing a thread pool limit,
// and the caller's thread (the GUI's) never waits on TBB. The destructor stops every job and
// waits for them, like Qt's mandelbrot render thread.
class JobRunner {
 public:
  using JobId = std::uint64_t;

  JobRunner() = default;
  ~JobRunner();
  JobRunner(const JobRunner&) = delete;
  JobRunner& operator=(const JobRunner&) = delete;

  // `work` must catch its own exceptions (it reports them through its own channel).
  JobId start(std::function<void(std::stop_token)> work);
  void requestStop(JobId id);
  void requestStopAll();
  // Blocks until every job has returned.
  void waitAll();
  std::size_t activeCount() const;

 private:
  struct Job {
    std::jthread thread;
    std::shared_ptr<bool> done;
  };
  void reapFinished();

  mutable std::mutex m_mutex;
  std::map<JobId, Job> m_jobs;
  JobId m_next = 1;
};

}  // namespace latent::core
