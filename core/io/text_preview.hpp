// SPDX-License-Identifier: GPL-3.0-or-later
// The first lines of a file as text, for import dialogs, whatever the file holds.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace latent::core {

// Up to `maxLines` lines, each cut at `maxColumns` bytes; invalid UTF-8 is shown as Latin-1 and
// NUL bytes as U+FFFD, so a preview of a wrong file shows why it is wrong instead of failing.
// For a folder, the first file names (previewFolderTexts shows a folder corpus's texts).
std::vector<std::string> previewLines(const std::filesystem::path& path, std::size_t maxLines = 20,
                                      std::size_t maxColumns = 400);

// A folder corpus's first documents as the importer will read them (its .txt files in file-name
// order): for each, a line naming the file, then its first `linesPerDocument` non-blank lines.
// Like previewLines it does not fail on content; a folder with no .txt file (or one that cannot be
// listed as a corpus) gives its file names instead.
std::vector<std::string> previewFolderTexts(const std::filesystem::path& folder, std::size_t maxDocuments = 5,
                                            std::size_t linesPerDocument = 3, std::size_t maxColumns = 400);

}  // namespace latent::core
