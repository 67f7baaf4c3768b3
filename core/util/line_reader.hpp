// SPDX-License-Identifier: GPL-3.0-or-later
// Streams a text file line by line in bounded memory, tracking line numbers and progress.
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace latent::core {

// Reads lines without their terminator ("\n" or "\r\n"). A UTF-8 byte order mark at the start
// of the file is skipped. Memory stays at a chunk plus the longest line, and a line longer than
// `maxLineBytes` is an InputError rather than a reason to allocate without bound.
class LineReader {
 public:
  struct Options {
    std::size_t maxLineBytes = std::size_t{64} << 20;
    // A NUL byte never occurs in text; finding one means a binary file was given.
    bool rejectNul = true;
  };

  explicit LineReader(const std::filesystem::path& path) : LineReader(path, Options{}) {}
  LineReader(const std::filesystem::path& path, Options options);
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  // Next line into `line` (valid until the next call); false at the end of the file.
  bool next(std::string_view& line);

  // 1-based number of the line last returned by next().
  std::int64_t lineNumber() const noexcept { return m_line; }
  std::uint64_t bytesConsumed() const noexcept { return m_consumed; }
  std::uint64_t fileSize() const noexcept { return m_size; }
  // The name used in error messages: the path as the user gave it.
  const std::string& displayName() const noexcept { return m_name; }

  // Throws InputError for the line last returned.
  [[noreturn]] void fail(const std::string& reason) const;

 private:
  bool fill();

  std::string m_name;
  Options m_options;
  std::FILE* m_file = nullptr;
  std::vector<char> m_buffer;
  std::size_t m_begin = 0;    // first unconsumed byte in m_buffer
  std::size_t m_end = 0;      // one past the last valid byte in m_buffer
  std::size_t m_scanned = 0;  // bytes after m_begin already searched for '\n'
  bool m_eof = false;
  bool m_started = false;
  std::int64_t m_line = 0;
  std::uint64_t m_consumed = 0;
  std::uint64_t m_size = 0;
};

}  // namespace latent::core
