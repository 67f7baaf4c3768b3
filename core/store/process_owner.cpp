// SPDX-License-Identifier: GPL-3.0-or-later
// Process ownership checks with gethostname and kill(pid, 0).
#include "core/store/process_owner.hpp"

#include <signal.h>
#include <unistd.h>

#include <cerrno>

namespace latent::core {

std::string hostName() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return {};
  return name;
}

std::int64_t currentProcessId() { return static_cast<std::int64_t>(getpid()); }

bool ownerIsGone(std::int64_t pid, const std::string& host) {
  if (host != hostName()) return false;
  return pid > 0 && kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
}

}  // namespace latent::core
