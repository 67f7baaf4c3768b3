// SPDX-License-Identifier: GPL-3.0-or-later
// Message formatting for InputError.
#include "core/util/errors.hpp"

#include <utility>

namespace latent::core {
namespace {

std::string format(const std::string& file, std::int64_t line, const std::string& reason) {
  if (line > 0) return file + ":" + std::to_string(line) + ": " + reason;
  return file + ": " + reason;
}

}  // namespace

InputError::InputError(std::string file, std::int64_t line, std::string reason)
    : std::runtime_error(format(file, line, reason)),
      m_file(std::move(file)),
      m_line(line),
      m_reason(std::move(reason)) {}

bool isUserError(const std::exception& e) noexcept {
  return dynamic_cast<const UsageError*>(&e) != nullptr || dynamic_cast<const InputError*>(&e) != nullptr;
}

}  // namespace latent::core
