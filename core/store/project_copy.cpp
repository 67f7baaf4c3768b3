// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/store/project_copy.hpp"

#include <unistd.h>

#include <system_error>

#include "core/util/errors.hpp"

namespace latent::core {

void copyProjectTo(Project& project, const std::filesystem::path& target) {
  std::error_code error;
  if (std::filesystem::exists(target, error))
    throw UsageError(target.string() + " already exists; choose a new file name");
  const auto folder = target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
  if (!std::filesystem::is_directory(folder, error)) throw UsageError(folder.string() + " is not a folder");
  auto partial = target;
  partial += ".partial-" + std::to_string(::getpid());
  std::filesystem::remove(partial, error);
  try {
    project.db().prepare("VACUUM INTO ?1").bind(1, partial.string()).run();
  } catch (...) {
    std::filesystem::remove(partial, error);
    throw;
  }
  std::filesystem::rename(partial, target, error);
  if (error) {
    std::filesystem::remove(partial, error);
    throw UsageError("cannot write " + target.string() + ": " + error.message());
  }
}

}  // namespace latent::core
