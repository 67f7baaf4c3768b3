// SPDX-License-Identifier: GPL-3.0-or-later
// JobRunner: a map of jthreads with done flags.
#include "core/jobs/job_runner.hpp"

#include "core/util/thread_priority.hpp"

#include <atomic>
#include <vector>

namespace latent::core {

JobRunner::~JobRunner() {
  requestStopAll();
  waitAll();
}

JobRunner::JobId JobRunner::start(std::function<void(std::stop_token)> work) {
  std::lock_guard lock(m_mutex);
  reapFinished();
  const JobId id = m_next++;
  auto done = std::make_shared<bool>(false);
  Job job;
  job.done = done;
  job.thread = std::jthread([work = std::move(work), done, this](std::stop_token stop) {
    // Jobs run beside a window: they yield the processor to its thread (util/thread_priority.hpp).
    lowerCurrentThreadPriority();
    work(stop);
    std::lock_guard finishLock(m_mutex);
    *done = true;
  });
  m_jobs.emplace(id, std::move(job));
  return id;
}

void JobRunner::requestStop(JobId id) {
  std::lock_guard lock(m_mutex);
  if (auto it = m_jobs.find(id); it != m_jobs.end()) it->second.thread.request_stop();
}

void JobRunner::requestStopAll() {
  std::lock_guard lock(m_mutex);
  for (auto& [id, job] : m_jobs) job.thread.request_stop();
}

void JobRunner::waitAll() {
  std::map<JobId, Job> jobs;
  {
    std::lock_guard lock(m_mutex);
    jobs.swap(m_jobs);
  }
  for (auto& [id, job] : jobs)
    if (job.thread.joinable()) job.thread.join();
}

std::size_t JobRunner::activeCount() const {
  std::lock_guard lock(m_mutex);
  std::size_t n = 0;
  for (const auto& [id, job] : m_jobs) n += *job.done ? 0 : 1;
  return n;
}

void JobRunner::reapFinished() {
  for (auto it = m_jobs.begin(); it != m_jobs.end();) {
    if (*it->second.done) {
      it->second.thread.join();
      it = m_jobs.erase(it);
    } else {
      ++it;
    }
  }
}

}  // namespace latent::core
