// SPDX-License-Identifier: GPL-3.0-or-later
// Output helpers of latent-cli.
#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "core/util/errors.hpp"
#include "core/util/utf8.hpp"

#include "cli_common.hpp"

namespace latent::cli {

void printJsonLine(const nlohmann::json& object) {
  std::cout << object.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n' << std::flush;
}

core::WriteWait projectWriteWait(const std::string& project) {
  core::WriteWait wait;
  wait.abandon = abandonToken();
  // Once when the wait begins to show, then every ten seconds: a line a person can follow.
  auto nextNotice = std::make_shared<double>(0.0);
  wait.waiting = [project, nextNotice](double seconds) {
    if (seconds < *nextNotice) return;
    *nextNotice = seconds + 10.0;
    std::cerr << "latent-cli: waiting for " << project << ": another program holds its write lock ("
              << static_cast<int>(seconds) << " s so far); a second Ctrl-C gives up without saving\n"
              << std::flush;
  };
  return wait;
}

std::string terminalSafe(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  auto hexByte = [&](unsigned char c) {
    out += "\\x";
    out += kHex[c >> 4];
    out += kHex[c & 0xF];
  };
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\n' || c == '\t' || c == '\r') {
      out += c == '\n' ? "\\n" : c == '\t' ? "\\t" : "\\r";
      ++i;
    } else if (c < 0x20 || c == 0x7F) {
      hexByte(c);
      ++i;
    } else if (c < 0x80) {
      out += static_cast<char>(c);
      ++i;
    } else {
      // One whole code point when it is valid UTF-8 (C1 controls, U+0080 to U+009F, escaped).
      const std::size_t length = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
      const auto sequence = text.substr(i, length);
      if (length > 1 && sequence.size() == length && core::utf8::isValid(sequence)) {
        if (c == 0xC2 && static_cast<unsigned char>(sequence[1]) < 0xA0) {
          out += "\\u00";
          out += kHex[static_cast<unsigned char>(sequence[1]) >> 4];
          out += kHex[static_cast<unsigned char>(sequence[1]) & 0xF];
        } else {
          out += sequence;
        }
        i += length;
      } else {
        hexByte(c);
        ++i;
      }
    }
  }
  return out;
}

std::string withThousands(std::int64_t value) {
  std::string digits = std::to_string(value < 0 ? -value : value);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return value < 0 ? "-" + out : out;
}

namespace {

// An ostream's buffer over a file descriptor: the partial file is created exclusively with
// open(2), which std::ofstream cannot do.
class DescriptorBuffer : public std::streambuf {
 public:
  explicit DescriptorBuffer(int fd) : m_fd(fd) { setp(m_buffer.data(), m_buffer.data() + m_buffer.size()); }

 protected:
  int_type overflow(int_type c) override {
    if (drain() != 0) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override { return drain(); }

 private:
  int drain() {
    for (const char* p = pbase(); p < pptr();) {
      const ssize_t n = ::write(m_fd, p, static_cast<std::size_t>(pptr() - p));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return -1;
      p += n;
    }
    setp(m_buffer.data(), m_buffer.data() + m_buffer.size());
    return 0;
  }

  int m_fd;
  std::array<char, 1 << 16> m_buffer{};
};

bool samePath(const std::filesystem::path& a, const std::filesystem::path& b) {
  std::error_code ec;
  if (std::filesystem::equivalent(a, b, ec)) return true;
  return std::filesystem::weakly_canonical(a, ec) == std::filesystem::weakly_canonical(b, ec) && !ec;
}

}  // namespace

void writeOutput(const std::string& path, const std::string& project, const std::function<void(std::ostream&)>& write) {
  if (path == "-") {
    write(std::cout);
    return;
  }
  const std::filesystem::path target(path);
  for (const char* suffix : {"", "-wal", "-shm", "-journal"})
    if (samePath(target, project + suffix))
      throw core::UsageError("--out " + path +
                             (*suffix ? " is the project's " + std::string(suffix) + " file" : " is the project file") +
                             "; name another file for the CSV");
  if (std::filesystem::is_directory(target)) throw core::UsageError("--out " + path + " is a folder; name a file");
  // Written beside the target and renamed at the end, so a failure never leaves half a file. The
  // partial file is created exclusively and never through a link: one planted under its name
  // fails the command instead of redirecting the write.
  const std::filesystem::path partial = target.string() + ".partial-" + std::to_string(getpid());
  const int fd = ::open(partial.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0)
    throw core::UsageError("cannot write " + partial.string() + " (beside " + target.string() +
                           "): " + std::strerror(errno));
  try {
    DescriptorBuffer buffer(fd);
    std::ostream file(&buffer);
    write(file);
    file.flush();
    if (!file) throw std::runtime_error("writing " + target.string() + " failed (disk full?)");
    if (::close(fd) != 0) throw std::runtime_error("writing " + target.string() + " failed (disk full?)");
    std::filesystem::rename(partial, target);
  } catch (...) {
    ::close(fd);  // a second close of the same descriptor fails harmlessly with EBADF
    std::error_code ec;
    std::filesystem::remove(partial, ec);
    throw;
  }
}

ProgressLine::ProgressLine(std::string label) : m_label(std::move(label)), m_enabled(isatty(STDERR_FILENO) != 0) {}

ProgressLine::~ProgressLine() {
  if (m_enabled && m_lastPercent >= 0) std::cerr << "\r\033[K" << std::flush;
}

void ProgressLine::update(std::uint64_t done, std::uint64_t total) {
  if (!m_enabled || total == 0) return;
  const int percent = static_cast<int>(100.0 * static_cast<double>(done) / static_cast<double>(total));
  if (percent == m_lastPercent) return;
  m_lastPercent = percent;
  std::cerr << "\r" << m_label << " " << percent << "%" << std::flush;
}

}  // namespace latent::cli
