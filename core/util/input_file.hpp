// SPDX-License-Identifier: GPL-3.0-or-later
// Opening a file a user named as input. Only regular files are read: a named pipe would block
// the open (deaf to Ctrl-C) or the read forever, and /dev/zero never ends.
#pragma once

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

namespace latent::core {

struct FileCloser {
  void operator()(std::FILE* f) const noexcept {
    if (f) std::fclose(f);
  }
};
using InputFile = std::unique_ptr<std::FILE, FileCloser>;

// Why `path` cannot be read as an input file ("is a named pipe (FIFO), not a regular file", "is a
// link to a missing file"), or "" when it is a regular file (links followed).
std::string notARegularFile(const std::filesystem::path& path);

// Opens `path` for reading in binary mode; throws InputError naming the file when it is not a
// regular file or cannot be opened. Never blocks on a FIFO that appears under the name meanwhile.
InputFile openInputFile(const std::filesystem::path& path);

}  // namespace latent::core
