// SPDX-License-Identifier: GPL-3.0-or-later
// Process ownership checks with gethostname and kill(pid, 0).
#include "core/store/process_owner.hpp"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <sstream>

namespace latent::core {

std::string hostName() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return {};
  return name;
}

std::int64_t currentProcessId() { return static_cast<std::int64_t>(getpid()); }

namespace {

// Field 22 of /proc/PID/stat; the command name (field 2) is in parentheses and may hold spaces
// and parentheses itself, so the fields are counted from the last ')'.
std::optional<std::int64_t> processStart(std::int64_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat;
  if (!std::getline(in, stat)) return std::nullopt;
  const auto close = stat.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream fields(stat.substr(close + 1));
  std::string field;
  for (int i = 3; i <= 22; ++i)
    if (!(fields >> field)) return std::nullopt;
  try {
    return std::stoll(field);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace

std::optional<std::int64_t> currentProcessStart() { return processStart(currentProcessId()); }

bool ownerIsGone(std::int64_t pid, const std::string& host, std::optional<std::int64_t> started) {
  if (host != hostName() || pid <= 0) return false;
  if (kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) return true;
  if (!started) return false;
  const auto now = processStart(pid);
  return now && *now != *started;
}

}  // namespace latent::core
