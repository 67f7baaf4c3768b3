// SPDX-License-Identifier: GPL-3.0-or-later
// Regular files only, checked on the open descriptor itself.
#include "core/util/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/util/errors.hpp"

namespace latent::core {
namespace {

std::string describeMode(mode_t mode) {
  if (S_ISREG(mode)) return "";
  if (S_ISDIR(mode)) return "is a folder, not a file";
  if (S_ISFIFO(mode)) return "is a named pipe (FIFO), not a regular file";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "is a device, not a regular file";
  if (S_ISSOCK(mode)) return "is a socket, not a regular file";
  return "is not a regular file";
}

}  // namespace

std::string notARegularFile(const std::filesystem::path& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0) return describeMode(info.st_mode);
  const int error = errno;
  struct stat link {};
  if (error == ENOENT && ::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode))
    return "is a link to a missing file";
  if (error == ENOENT) return "does not exist";
  return std::string("cannot open: ") + std::strerror(error);
}

InputFile openInputFile(const std::filesystem::path& path) {
  const std::string name = path.string();
  if (const auto reason = notARegularFile(path); !reason.empty()) throw InputError(name, 0, reason);
  // O_NONBLOCK: should a FIFO replace the file after the check, open() returns at once and the
  // check on the descriptor below refuses it.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw InputError(name, 0, std::string("cannot open: ") + std::strerror(errno));
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    ::close(fd);
    throw InputError(name, 0, describeMode(info.st_mode).empty() ? "cannot open" : describeMode(info.st_mode));
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  std::FILE* file = ::fdopen(fd, "rb");
  if (!file) {
    ::close(fd);
    throw InputError(name, 0, std::string("cannot open: ") + std::strerror(errno));
  }
  return InputFile(file);
}

}  // namespace latent::core
