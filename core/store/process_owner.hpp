// SPDX-License-Identifier: GPL-3.0-or-later
// Which process owns a row of the project file (a running run, a dataset being imported), and
// whether that process still exists.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace latent::core {

std::string hostName();
std::int64_t currentProcessId();
// When this process started, in clock ticks since boot; nothing where /proc cannot tell.
std::optional<std::int64_t> currentProcessStart();

// True when `pid` on `host` is this machine's and no longer exists (it was killed or crashed), or
// when the process now holding that id started at another time than `started` (the id was
// reused: Linux hands out at most 32768 by default). A process on another machine sharing the
// file cannot be checked: false.
bool ownerIsGone(std::int64_t pid, const std::string& host, std::optional<std::int64_t> started = std::nullopt);

}  // namespace latent::core
