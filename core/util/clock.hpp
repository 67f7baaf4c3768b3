// SPDX-License-Identifier: GPL-3.0-or-later
// Wall-clock helpers: UTC time stamps for the project file, a stopwatch for reports.
#pragma once

#include <chrono>
#include <string>

namespace latent::core {

// "2026-11-22T08:15:30Z"
std::string utcTimestamp();

class Stopwatch {
 public:
  Stopwatch() : m_start(std::chrono::steady_clock::now()) {}
  double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count(); }
  void restart() { m_start = std::chrono::steady_clock::now(); }

 private:
  std::chrono::steady_clock::time_point m_start;
};

}  // namespace latent::core
