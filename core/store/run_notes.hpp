// SPDX-License-Identifier: GPL-3.0-or-later
// A run's own name and notes, which the user writes (schema 14): the tree, the run's header and the
// comparison of runs show them.
#pragma once

#include <cstdint>
#include <string>

#include "core/store/project.hpp"

namespace latent::core {

// Longest name kept: a name is a label in a tree, notes are for the rest.
inline constexpr std::size_t kRunNameLength = 200;

// Sets the run's name, its surrounding white space trimmed and line breaks made spaces; an empty
// name takes it away. Returns the name stored. Throws UsageError for an unknown run or a name
// longer than kRunNameLength characters (UTF-8 bytes).
std::string setRunName(Project& project, std::int64_t runId, const std::string& name);
// Sets the run's notes as written (trailing white space trimmed); empty takes them away. Throws
// UsageError for an unknown run. A run still going can be named and annotated too.
void setRunNotes(Project& project, std::int64_t runId, const std::string& notes);

}  // namespace latent::core
