// SPDX-License-Identifier: GPL-3.0-or-later
// Line splitting for edge lists and matrices: separator sniffing, quoted fields, comments, numbers.
#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>

#include "core/io/graph_reading.hpp"
#include "core/util/parse_number.hpp"
#include "core/util/utf8.hpp"

namespace latent::core::graph_detail {
namespace {

bool isBlank(char c) noexcept { return c == ' ' || c == '\t'; }

char separatorChar(Separator separator) noexcept {
  switch (separator) {
    case Separator::Comma:
      return ',';
    case Separator::Tab:
      return '\t';
    case Separator::Semicolon:
      return ';';
    case Separator::Spaces:
      break;
  }
  return ' ';
}

}  // namespace

Separator sniffSeparator(std::string_view line) noexcept {
  std::array<int, 3> counts{};
  bool quoted = false;
  for (const char c : line) {
    if (c == '"') quoted = !quoted;
    if (quoted) continue;
    if (c == ',') ++counts[0];
    if (c == '\t') ++counts[1];
    if (c == ';') ++counts[2];
  }
  // Ties go to the earlier of comma, tab, semicolon.
  std::size_t best = 0;
  for (std::size_t i = 1; i < counts.size(); ++i)
    if (counts[i] > counts[best]) best = i;
  if (counts[best] == 0) return Separator::Spaces;
  return best == 0 ? Separator::Comma : best == 1 ? Separator::Tab : Separator::Semicolon;
}

bool isCommentLine(std::string_view line) noexcept {
  const auto text = trimSpaces(line);
  return !text.empty() && (text.front() == '#' || text.front() == '%');
}

bool isSkippedLine(std::string_view line) noexcept { return trimSpaces(line).empty() || isCommentLine(line); }

std::string splitFields(std::string_view line, Separator separator, std::vector<std::string>& fields) {
  const char delimiter = separatorChar(separator);
  const bool spaces = separator == Separator::Spaces;
  std::size_t count = 0;
  std::size_t i = 0;
  const std::size_t n = line.size();
  auto slot = [&]() -> std::string& {
    if (count == fields.size()) fields.emplace_back();
    fields[count].clear();
    return fields[count++];
  };
  if (spaces)
    while (i < n && isBlank(line[i])) ++i;
  if (spaces && i == n) {
    fields.clear();
    return {};
  }
  for (;;) {
    // One field starting at i (leading blanks skipped).
    while (i < n && isBlank(line[i]) && line[i] != delimiter) ++i;
    std::string& field = slot();
    if (i < n && line[i] == '"') {
      ++i;
      for (;;) {
        if (i == n) return "a quoted field is not closed on this line (field " + std::to_string(count) + ")";
        if (line[i] == '"') {
          if (i + 1 < n && line[i + 1] == '"') {
            field.push_back('"');
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        field.push_back(line[i++]);
      }
      if (!spaces)
        while (i < n && isBlank(line[i]) && line[i] != delimiter) ++i;
      const bool fieldEnds = i == n || (spaces ? isBlank(line[i]) : line[i] == delimiter);
      if (!fieldEnds) return "unexpected text after the closing quote of field " + std::to_string(count);
    } else if (spaces) {
      const std::size_t start = i;
      while (i < n && !isBlank(line[i])) ++i;
      field.assign(line.substr(start, i - start));
    } else {
      const std::size_t start = i;
      while (i < n && line[i] != delimiter) ++i;
      field.assign(trimSpaces(line.substr(start, i - start)));
    }
    if (spaces) {
      while (i < n && isBlank(line[i])) ++i;
      if (i == n) break;
    } else {
      if (i == n) break;
      ++i;  // the delimiter; a trailing one leaves an empty last field
    }
  }
  fields.resize(count);
  return {};
}

bool isEndpointName(std::string_view text) noexcept {
  constexpr std::array<std::string_view, 21> names{"source", "target", "from", "to",     "src",      "dst", "dest",
                                                   "node1",  "node2",  "u",    "v",      "i",        "j",   "id1",
                                                   "id2",    "head",   "tail", "sender", "receiver", "ego", "alter"};
  return std::any_of(names.begin(), names.end(), [&](std::string_view name) {
    return name.size() == text.size() && std::equal(name.begin(), name.end(), text.begin(), [](char a, char b) {
             return a == std::tolower(static_cast<unsigned char>(b));
           });
  });
}

DelimitedLines::DelimitedLines(const std::filesystem::path& path, std::size_t maxLineBytes)
    : m_lines(path, LineReader::Options{maxLineBytes, true}) {}

bool DelimitedLines::nextLine(std::string_view& line) {
  while (m_lines.next(line))
    if (!isSkippedLine(line)) return true;
  return false;
}

bool DelimitedLines::next(std::vector<std::string>& fields) {
  std::string_view line;
  if (!nextLine(line)) return false;
  if (const auto bad = utf8::firstInvalid(line); bad != utf8::npos) fail(utf8::invalidMessage(line, bad));
  if (!m_separatorKnown) {
    m_separator = sniffSeparator(line);
    m_separatorKnown = true;
  }
  if (auto problem = splitFields(line, m_separator, fields); !problem.empty()) fail(problem);
  return true;
}

bool DelimitedLines::skip() {
  std::string_view line;
  return nextLine(line);
}

bool isNumber(std::string_view text) noexcept { return parseReal(text).has_value(); }

std::string shownText(std::string_view text) {
  constexpr std::size_t kMax = 40;
  if (text.size() <= kMax) return "'" + std::string(text) + "'";
  std::size_t cut = kMax;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // keep UTF-8 whole
  return "'" + std::string(text.substr(0, cut)) + "...'";
}

std::string formatNumber(double value) {
  std::array<char, 32> buffer{};
  const auto [end, ec] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  if (ec != std::errc{}) return std::to_string(value);
  return std::string(buffer.data(), end);
}

}  // namespace latent::core::graph_detail
