// SPDX-License-Identifier: GPL-3.0-or-later
// RFC 4180 records (quoted fields may hold delimiters, quotes and line breaks), streamed.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "core/util/line_reader.hpp"

namespace latent::core {

class CsvReader {
 public:
  struct Options {
    // ',' '\t' ';' or '|'; 0 sniffs it from the first line (the most frequent outside quotes).
    char delimiter = 0;
    std::size_t maxRecordBytes = std::size_t{64} << 20;
  };

  explicit CsvReader(const std::filesystem::path& path) : CsvReader(path, Options{}) {}
  CsvReader(const std::filesystem::path& path, Options options);

  // Next record; false at the end. Blank lines are skipped.
  bool next(std::vector<std::string>& fields);

  // Line on which the record last returned starts (1-based).
  std::int64_t recordLine() const noexcept { return m_recordLine; }
  char delimiter() const noexcept { return m_delimiter; }
  std::uint64_t bytesConsumed() const noexcept { return m_lines.bytesConsumed(); }
  std::uint64_t fileSize() const noexcept { return m_lines.fileSize(); }
  const std::string& displayName() const noexcept { return m_lines.displayName(); }

  // Throws InputError naming the record's first line.
  [[noreturn]] void fail(const std::string& reason) const;

 private:
  bool nextLine(std::string_view& line);

  LineReader m_lines;
  Options m_options;
  char m_delimiter = ',';
  std::int64_t m_recordLine = 0;
  bool m_havePending = false;
  std::string_view m_pending;
};

// Index of `name` in a header (exact match first, then case-insensitive), or -1.
int findColumn(const std::vector<std::string>& header, std::string_view name);

// "a, b, c" for error messages that list the columns a file does have.
std::string joinColumns(const std::vector<std::string>& header);

}  // namespace latent::core
