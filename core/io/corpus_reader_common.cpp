// SPDX-License-Identifier: GPL-3.0-or-later
// Pieces the corpus readers share: splitting, quoting input in messages, vocabulary files.
#include <cstdio>
#include <unordered_map>

#include "core/io/corpus_readers.hpp"
#include "core/util/errors.hpp"
#include "core/util/line_reader.hpp"
#include "core/util/parse_number.hpp"
#include "core/util/utf8.hpp"

namespace latent::core::corpus_io {
namespace {

namespace fs = std::filesystem;

// A quoted piece of input longer than this is cut: the message is for reading, not for copying.
constexpr std::size_t kQuoteBytes = 40;

// A vocabulary line is one word; anything longer is the wrong file.
constexpr std::size_t kMaxVocabularyLine = std::size_t{1} << 20;

std::string hexByte(char c) {
  char hex[8];
  std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned>(static_cast<unsigned char>(c)));
  return hex;
}

}  // namespace

bool isBlank(std::string_view line) noexcept { return line.find_first_not_of(" \t\r") == std::string_view::npos; }

void splitWhitespace(std::string_view line, std::vector<std::string_view>& fields) {
  fields.clear();
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
    if (i > start) fields.push_back(line.substr(start, i - start));
  }
}

std::string clip(std::string_view text, std::size_t maxBytes) {
  bool cut = false;
  if (text.size() > maxBytes) {
    std::size_t end = maxBytes;
    // Do not split a UTF-8 sequence: back up to the start of a character.
    while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
    text = text.substr(0, end);
    cut = true;
  }
  std::string out;
  for (;;) {
    const auto bad = utf8::firstInvalid(text);
    if (bad == utf8::npos) break;
    out.append(text.substr(0, bad));
    out.push_back('?');
    text.remove_prefix(bad + 1);
  }
  out.append(text);
  if (cut) out += "\u2026";
  return out;
}

std::string quoteInput(std::string_view text) {
  // Built by appending: GCC 12's -Wrestrict misfires on "'" + std::string&& at -O3.
  std::string out = "'";
  out += clip(text, kQuoteBytes);
  out += '\'';
  return out;
}

void DocumentIdSet::add(std::string_view id, const std::string& file, std::int64_t line) {
  const auto [it, added] = m_lines.emplace(std::string(id), line);
  if (!added)
    throw InputError(file, line,
                     "document id " + quoteInput(id) + " is already used on line " + std::to_string(it->second) +
                         "; every document needs its own id");
}

std::string withCommas(std::int64_t n) {
  const std::string digits = std::to_string(n < 0 ? -n : n);
  std::string out;
  if (n < 0) out.push_back('-');
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
  return out;
}

Utf8Problem describeInvalidUtf8(std::string_view text, std::size_t offset, std::int64_t firstLine,
                                std::string_view what) {
  const std::string_view before = text.substr(0, offset);
  std::int64_t newlines = 0;
  for (const char c : before)
    if (c == '\n') ++newlines;
  const auto lineStart = before.rfind('\n');
  const std::size_t start = lineStart == std::string_view::npos ? 0 : lineStart + 1;
  Utf8Problem problem;
  problem.line = firstLine + newlines;
  if (what.empty()) {
    auto lineEnd = text.find('\n', offset);
    if (lineEnd == std::string_view::npos) lineEnd = text.size();
    problem.reason = utf8::invalidMessage(text.substr(start, lineEnd - start), offset - start);
  } else {
    // Inside a field the column would count from the field, not the line, so none is given.
    problem.reason = "invalid UTF-8 in " + std::string(what) + " (byte " + hexByte(text[offset]) +
                     "); save the file as UTF-8, for example with iconv -f latin1 -t utf-8";
  }
  return problem;
}

std::vector<std::string> readVocabularyFile(const fs::path& file, const ImportControl& control) {
  LineReader reader(file, LineReader::Options{kMaxVocabularyLine, true});
  std::vector<std::string> words;
  std::unordered_map<std::string, std::int64_t> lineOf;
  std::int64_t blankLine = 0;  // first blank line since the last word
  std::string_view line;
  while (reader.next(line)) {
    if ((reader.lineNumber() & 0xFFFF) == 0) control.checkStop();
    if (const auto bad = utf8::firstInvalid(line); bad != utf8::npos) reader.fail(utf8::invalidMessage(line, bad));
    const std::string_view word = trimSpaces(line);
    if (word.empty()) {
      if (blankLine == 0) blankLine = reader.lineNumber();
      continue;
    }
    if (blankLine != 0)
      throw InputError(reader.displayName(), blankLine,
                       "line is empty, but more words follow (line " + std::to_string(reader.lineNumber()) +
                           "); every line of a vocabulary file must hold one word, because line k is word k");
    const auto [it, added] = lineOf.emplace(std::string(word), reader.lineNumber());
    if (!added)
      reader.fail("the word " + quoteInput(word) + " is already on line " + std::to_string(it->second) +
                  "; every word of a vocabulary must be different");
    words.emplace_back(word);
  }
  if (words.empty()) throw InputError(reader.displayName(), 0, "holds no words, so it cannot be a vocabulary");
  return words;
}

fs::path findVocabulary(const fs::path& source, const fs::path& given, const std::vector<fs::path>& candidates) {
  std::error_code ec;
  if (!given.empty()) {
    if (!fs::exists(given, ec))
      throw InputError(given.string(), 0, "does not exist (it was given as the vocabulary of " + source.string() + ")");
    return given;
  }
  std::string looked;
  for (const auto& candidate : candidates) {
    if (fs::is_regular_file(candidate, ec)) return candidate;
    looked += (looked.empty() ? "" : " or ") + candidate.filename().string();
  }
  throw InputError(source.string(), 0,
                   "needs a vocabulary file (one word per line), but none was given and there is no " + looked +
                       " next to it; name it with --vocab FILE");
}

}  // namespace latent::core::corpus_io
