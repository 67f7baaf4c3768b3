// SPDX-License-Identifier: GPL-3.0-or-later
// Per-thread nice values through setpriority on the thread id (Linux schedules threads, not
// processes, so this affects the calling thread alone).
#include "core/util/thread_priority.hpp"

#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#endif

namespace latent::core {
namespace {

thread_local bool tBackground = false;
constexpr int kNiceIncrement = 10;

}  // namespace

void lowerCurrentThreadPriority() noexcept {
  if (tBackground) return;
  tBackground = true;
#if defined(__linux__)
  const auto tid = static_cast<id_t>(::syscall(SYS_gettid));
  errno = 0;
  const int current = ::getpriority(PRIO_PROCESS, tid);
  if (errno == 0) ::setpriority(PRIO_PROCESS, tid, current + kNiceIncrement < 19 ? current + kNiceIncrement : 19);
#endif
}

bool currentThreadIsBackground() noexcept { return tBackground; }

}  // namespace latent::core
