// SPDX-License-Identifier: GPL-3.0-or-later
// Output helpers of latent-cli.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "core/util/errors.hpp"

#include "cli_common.hpp"

namespace latent::cli {

void printJsonLine(const nlohmann::json& object) {
  std::cout << object.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n' << std::flush;
}

core::WriteWait projectWriteWait(const std::string& project) {
  core::WriteWait wait;
  wait.abandon = abandonToken();
  // Once when the wait begins to show, then every ten seconds: a line a person can follow.
  auto nextNotice = std::make_shared<double>(0.0);
  wait.waiting = [project, nextNotice](double seconds) {
    if (seconds < *nextNotice) return;
    *nextNotice = seconds + 10.0;
    std::cerr << "latent-cli: waiting for " << project << ": another program holds its write lock ("
              << static_cast<int>(seconds) << " s so far); a second Ctrl-C gives up without saving\n"
              << std::flush;
  };
  return wait;
}

std::string withThousands(std::int64_t value) {
  std::string digits = std::to_string(value < 0 ? -value : value);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return value < 0 ? "-" + out : out;
}

void writeOutput(const std::string& path, const std::function<void(std::ostream&)>& write) {
  if (path == "-") {
    write(std::cout);
    return;
  }
  // Written beside the target and renamed at the end: a failure never leaves half a file.
  const std::filesystem::path target(path);
  const std::filesystem::path partial = target.string() + ".partial";
  try {
    std::ofstream file(partial, std::ios::binary | std::ios::trunc);
    if (!file) throw core::UsageError("cannot write " + target.string());
    write(file);
    file.close();
    if (!file) throw std::runtime_error("writing " + target.string() + " failed (disk full?)");
    std::filesystem::rename(partial, target);
  } catch (...) {
    std::error_code ec;
    std::filesystem::remove(partial, ec);
    throw;
  }
}

ProgressLine::ProgressLine(std::string label) : m_label(std::move(label)), m_enabled(isatty(STDERR_FILENO) != 0) {}

ProgressLine::~ProgressLine() {
  if (m_enabled && m_lastPercent >= 0) std::cerr << "\r\033[K" << std::flush;
}

void ProgressLine::update(std::uint64_t done, std::uint64_t total) {
  if (!m_enabled || total == 0) return;
  const int percent = static_cast<int>(100.0 * static_cast<double>(done) / static_cast<double>(total));
  if (percent == m_lastPercent) return;
  m_lastPercent = percent;
  std::cerr << "\r" << m_label << " " << percent << "%" << std::flush;
}

}  // namespace latent::cli
