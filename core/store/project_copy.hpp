// SPDX-License-Identifier: GPL-3.0-or-later
// A copy of a whole project in a new file (File > Save Project As…): SQLite's VACUUM INTO writes
// a consistent, compacted copy while the project stays open, runs and all.
#pragma once

#include <filesystem>

#include "core/store/project.hpp"

namespace latent::core {

// Writes `project` to `target`, which must not exist yet (UsageError otherwise, and when the
// target's folder does not exist); the copy is written beside the target and renamed into place,
// so a failed copy leaves nothing behind.
void copyProjectTo(Project& project, const std::filesystem::path& target);

}  // namespace latent::core
