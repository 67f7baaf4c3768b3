// SPDX-License-Identifier: GPL-3.0-or-later
// Corpus formats: their command-line names, guessing a file's format, and dispatch to a reader.
#include "core/io/corpus_import.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "core/io/corpus_readers.hpp"
#include "core/util/ascii.hpp"
#include "core/util/errors.hpp"
#include "core/util/input_file.hpp"
#include "core/util/parse_number.hpp"

namespace latent::core {
namespace {

namespace fs = std::filesystem;

// Detection looks at this much of a file: enough for a few lines of any format, and enough to
// meet the NUL bytes that every binary format has near its start.
constexpr std::size_t kSniffBytes = std::size_t{64} << 10;

struct FormatName {
  CorpusFormat format;
  std::string_view name;
};

constexpr std::array<FormatName, 8> kNames{{{CorpusFormat::Auto, "auto"},
                                            {CorpusFormat::Folder, "dir"},
                                            {CorpusFormat::Lines, "lines"},
                                            {CorpusFormat::Csv, "csv"},
                                            {CorpusFormat::JsonLines, "jsonl"},
                                            {CorpusFormat::Uci, "uci"},
                                            {CorpusFormat::Ldac, "ldac"},
                                            {CorpusFormat::Responses, "responses"}}};

bool isDigits(std::string_view s) noexcept {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// "N id:count id:count ..." with N equal to the number of pairs.
bool isLdacLine(std::string_view line, bool& hasPairs) {
  std::vector<std::string_view> fields;
  corpus_io::splitWhitespace(line, fields);
  if (fields.empty() || !isDigits(fields[0])) return false;
  for (std::size_t i = 1; i < fields.size(); ++i) {
    const auto colon = fields[i].find(':');
    if (colon == std::string_view::npos || !isDigits(fields[i].substr(0, colon)) ||
        !isDigits(fields[i].substr(colon + 1)))
      return false;
  }
  const auto n = parseInteger(fields[0]);
  if (!n || *n != static_cast<std::int64_t>(fields.size() - 1)) return false;
  hasPairs = hasPairs || fields.size() > 1;
  return true;
}

// The complete, non-blank lines among the first bytes of a file (a BOM and '\r' removed).
std::vector<std::string> firstLines(std::string_view head, bool wholeFile, std::size_t wanted) {
  if (head.substr(0, 3) == "\xEF\xBB\xBF") head.remove_prefix(3);
  std::vector<std::string> lines;
  while (lines.size() < wanted) {
    const auto nl = head.find('\n');
    if (nl == std::string_view::npos && !wholeFile) break;  // cut off by the sniff window
    std::string_view line = head.substr(0, nl);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!corpus_io::isBlank(line)) lines.emplace_back(line);
    if (nl == std::string_view::npos) break;
    head.remove_prefix(nl + 1);
  }
  return lines;
}

}  // namespace

std::string_view toString(CorpusFormat format) noexcept {
  for (const auto& n : kNames)
    if (n.format == format) return n.name;
  return "auto";
}

std::optional<CorpusFormat> corpusFormatFromString(std::string_view name) noexcept {
  if (name == "tsv") return CorpusFormat::Csv;
  for (const auto& n : kNames)
    if (n.name == name) return n.format;
  return std::nullopt;
}

bool isBagOfWords(CorpusFormat format) noexcept {
  return format == CorpusFormat::Uci || format == CorpusFormat::Ldac || format == CorpusFormat::Responses;
}

CorpusFormat detectCorpusFormat(const fs::path& source) {
  const std::string name = source.string();
  std::error_code ec;
  const auto status = fs::status(source, ec);
  if (!fs::exists(status)) throw InputError(name, 0, "does not exist");
  if (fs::is_directory(status)) return CorpusFormat::Folder;

  const std::string extension = lowerAscii(source.extension().string());
  if (extension == ".jsonl" || extension == ".ndjson") return CorpusFormat::JsonLines;
  if (extension == ".csv" || extension == ".tsv") return CorpusFormat::Csv;

  const auto file = openInputFile(source);
  std::string head(kSniffBytes, '\0');
  head.resize(std::fread(head.data(), 1, head.size(), file.get()));
  const bool wholeFile = head.size() < kSniffBytes;
  if (head.find('\0') != std::string::npos)
    throw InputError(name, 0, "is not a text file (it contains NUL bytes); a corpus must be plain text");

  if (source.filename().string().starts_with("docword.")) return CorpusFormat::Uci;
  const auto lines = firstLines(head, wholeFile, 5);
  if (lines.size() >= 3 && std::all_of(lines.begin(), lines.begin() + 3, [](const std::string& l) {
        std::vector<std::string_view> fields;
        corpus_io::splitWhitespace(l, fields);
        return fields.size() == 1 && parseInteger(fields[0]).has_value();
      }))
    return CorpusFormat::Uci;
  bool hasPairs = false;
  if (!lines.empty() &&
      std::all_of(lines.begin(), lines.end(), [&](const std::string& l) { return isLdacLine(l, hasPairs); }) &&
      hasPairs)
    return CorpusFormat::Ldac;
  return CorpusFormat::Lines;
}

CorpusFormat readCorpus(const fs::path& source, const CorpusReadOptions& options, CorpusBuilder& builder,
                        const ImportControl& control) {
  control.checkStop();
  const std::string name = source.string();
  std::error_code ec;
  if (!fs::exists(source, ec)) throw InputError(name, 0, "does not exist");
  const CorpusFormat format = options.format == CorpusFormat::Auto ? detectCorpusFormat(source) : options.format;
  if (format == CorpusFormat::Folder && !fs::is_directory(source, ec))
    throw InputError(name, 0, "is a file, but the format 'dir' reads a folder of .txt files");

  const std::int64_t before = builder.documentCount();
  switch (format) {
    case CorpusFormat::Folder:
      corpus_io::readFolder(source, options, builder, control);
      break;
    case CorpusFormat::Lines:
      corpus_io::readLines(source, options, builder, control);
      break;
    case CorpusFormat::Csv:
      corpus_io::readCsv(source, options, builder, control);
      break;
    case CorpusFormat::JsonLines:
      corpus_io::readJsonLines(source, options, builder, control);
      break;
    case CorpusFormat::Uci:
      corpus_io::readUci(source, options, builder, control);
      break;
    case CorpusFormat::Ldac:
      corpus_io::readLdac(source, options, builder, control);
      break;
    case CorpusFormat::Responses:
      corpus_io::readResponses(source, options, builder, control);
      break;
    case CorpusFormat::Auto:
      break;  // resolved above
  }
  // An import that would create an empty corpus is refused: it is always the wrong file.
  if (builder.documentCount() == before && control.maxRecords != 0)
    throw InputError(name, 0, "holds no documents, so there is nothing to import");
  return format;
}

}  // namespace latent::core
