// SPDX-License-Identifier: GPL-3.0-or-later
// The two kinds of errors a user can cause: bad input files and bad arguments.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace latent::core {

// Something wrong in an input file. `line` is 1-based; 0 means the file as a whole.
// what() reads "FILE:LINE: reason" (or "FILE: reason"), the form compilers and grep use.
class InputError : public std::runtime_error {
 public:
  InputError(std::string file, std::int64_t line, std::string reason);

  const std::string& file() const noexcept { return m_file; }
  std::int64_t line() const noexcept { return m_line; }
  const std::string& reason() const noexcept { return m_reason; }

 private:
  std::string m_file;
  std::int64_t m_line;
  std::string m_reason;
};

// A bad option, argument or request that names no file: an unknown model, a fraction outside
// (0, 1), a dataset name that does not exist.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The user (or the window closing) asked an import or a job to stop.
class Cancelled : public std::runtime_error {
 public:
  Cancelled() : std::runtime_error("cancelled") {}
};

// Whether `e` is the user's doing (a UsageError or an InputError), which latent-cli exits 2 for.
bool isUserError(const std::exception& e) noexcept;

}  // namespace latent::core
