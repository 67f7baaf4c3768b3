// SPDX-License-Identifier: GPL-3.0-or-later
// The first lines of a file as text, for import dialogs, whatever the file holds.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace latent::core {

// Up to `maxLines` lines, each cut at `maxColumns` bytes; invalid UTF-8 is shown as Latin-1 and
// NUL bytes as U+FFFD, so a preview of a wrong file shows why it is wrong instead of failing.
// For a folder, the first file names.
std::vector<std::string> previewLines(const std::filesystem::path& path, std::size_t maxLines = 20,
                                      std::size_t maxColumns = 400);

}  // namespace latent::core
