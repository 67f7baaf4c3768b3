// SPDX-License-Identifier: GPL-3.0-or-later
// Which process owns a row of the project file (a running run, a dataset being imported), and
// whether that process still exists.
#pragma once

#include <cstdint>
#include <string>

namespace latent::core {

std::string hostName();
std::int64_t currentProcessId();

// True when `pid` on `host` is this machine's and no longer exists (it was killed or crashed).
// A process on another machine sharing the file cannot be checked: false.
bool ownerIsGone(std::int64_t pid, const std::string& host);

}  // namespace latent::core
