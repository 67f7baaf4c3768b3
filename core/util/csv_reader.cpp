// SPDX-License-Identifier: GPL-3.0-or-later
// CsvReader: a small state machine over LineReader's lines.
#include "core/util/csv_reader.hpp"
#include "core/util/ascii.hpp"

#include <algorithm>
#include <array>
#include <cctype>

#include "core/util/errors.hpp"

namespace latent::core {
namespace {

char sniffDelimiter(std::string_view line) {
  constexpr std::array<char, 4> candidates{',', '\t', ';', '|'};
  std::array<int, 4> counts{};
  bool quoted = false;
  for (const char c : line) {
    if (c == '"') quoted = !quoted;
    if (quoted) continue;
    for (std::size_t i = 0; i < candidates.size(); ++i)
      if (c == candidates[i]) ++counts[i];
  }
  const auto best = std::max_element(counts.begin(), counts.end());
  return *best == 0 ? ',' : candidates[static_cast<std::size_t>(best - counts.begin())];
}

}  // namespace

CsvReader::CsvReader(const std::filesystem::path& path, Options options)
    : m_lines(path, LineReader::Options{options.maxRecordBytes, true}), m_options(options) {
  m_delimiter = options.delimiter;
  if (m_delimiter == 0) {
    std::string_view first;
    if (m_lines.next(first)) {
      m_pending = first;
      m_havePending = true;
      m_delimiter = sniffDelimiter(first);
    } else {
      m_delimiter = ',';
    }
  }
}

void CsvReader::fail(const std::string& reason) const { throw InputError(m_lines.displayName(), m_recordLine, reason); }

bool CsvReader::nextLine(std::string_view& line) {
  if (m_havePending) {
    m_havePending = false;
    line = m_pending;
    return true;
  }
  return m_lines.next(line);
}

bool CsvReader::next(std::vector<std::string>& fields) {
  fields.clear();
  std::string_view line;
  do {
    if (!nextLine(line)) return false;
  } while (line.empty());
  m_recordLine = m_lines.lineNumber();

  std::string field;
  std::size_t recordBytes = 0;
  bool quoted = false;     // inside a quoted field
  bool wasQuoted = false;  // the current field was quoted (and its quote closed)
  for (;;) {
    recordBytes += line.size() + 1;
    if (recordBytes > m_options.maxRecordBytes)
      fail("record is longer than " + std::to_string(m_options.maxRecordBytes >> 20) + " MB");
    for (std::size_t i = 0; i < line.size(); ++i) {
      const char c = line[i];
      if (quoted) {
        if (c == '"') {
          if (i + 1 < line.size() && line[i + 1] == '"') {
            field.push_back('"');
            ++i;
          } else {
            quoted = false;
            wasQuoted = true;
          }
        } else {
          field.push_back(c);
        }
      } else if (c == m_delimiter) {
        fields.push_back(std::move(field));
        field.clear();
        wasQuoted = false;
      } else if (c == '"' && field.empty() && !wasQuoted) {
        quoted = true;
      } else if (wasQuoted) {
        fail("unexpected text after a closing quote in field " + std::to_string(fields.size() + 1));
      } else {
        field.push_back(c);
      }
    }
    if (!quoted) break;
    // A quoted field continues on the next physical line.
    if (!m_lines.next(line)) fail("a quoted field is not closed before the end of the file");
    field.push_back('\n');
  }
  fields.push_back(std::move(field));
  return true;
}

int findColumn(const std::vector<std::string>& header, std::string_view name) {
  for (std::size_t i = 0; i < header.size(); ++i)
    if (header[i] == name) return static_cast<int>(i);
  for (std::size_t i = 0; i < header.size(); ++i)
    if (equalsIgnoreCase(header[i], name)) return static_cast<int>(i);
  return -1;
}

std::string joinColumns(const std::vector<std::string>& header) {
  std::string out;
  for (const auto& h : header) {
    if (!out.empty()) out += ", ";
    out += h.empty() ? "(empty)" : h;
  }
  return out;
}

}  // namespace latent::core
