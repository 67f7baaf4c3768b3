// SPDX-License-Identifier: GPL-3.0-or-later
// UTC time stamps.
#include "core/util/clock.hpp"

#include <ctime>

namespace latent::core {

std::string utcTimestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

}  // namespace latent::core
