// SPDX-License-Identifier: GPL-3.0-or-later
// previewLines: a bounded, never-failing look at the start of any file (or the names in a folder).
#include "core/io/text_preview.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <system_error>

#include "core/io/corpus_readers.hpp"
#include "core/util/errors.hpp"
#include "core/util/input_file.hpp"
#include "core/util/utf8.hpp"

namespace latent::core {
namespace {

// A preview is for the eye: a megabyte is more lines than a dialog shows, and reading no more
// keeps a preview of a huge or endless file instant.
constexpr std::size_t kMaxPreviewBytes = std::size_t{1} << 20;
constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD
constexpr std::string_view kEllipsis = "\xE2\x80\xA6";     // U+2026

// Valid UTF-8 runs are kept; each other byte is read as Latin-1, and NUL shows as U+FFFD.
std::string displayText(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  while (!bytes.empty()) {
    const std::size_t bad = utf8::firstInvalid(bytes);
    const std::string_view good = bytes.substr(0, bad);
    for (const char c : good) {
      if (c == '\0')
        out += kReplacement;
      else
        out.push_back(c);
    }
    if (bad == utf8::npos) break;
    out += utf8::fromLatin1(bytes.substr(bad, 1));
    bytes.remove_prefix(bad + 1);
  }
  return out;
}

// Cuts at most `maxColumns` bytes, never inside a UTF-8 sequence, and marks the cut.
void cutLine(std::string& line, std::size_t maxColumns, bool alreadyCut) {
  if (line.size() > maxColumns) {
    std::size_t cut = maxColumns;
    while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80) --cut;
    line.resize(cut);
    alreadyCut = true;
  }
  if (alreadyCut) line += kEllipsis;
}

std::vector<std::string> folderPreview(const std::filesystem::path& folder, std::size_t maxLines) {
  std::vector<std::string> names;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = displayText(it->path().filename().string());
    std::error_code typeError;
    if (it->is_directory(typeError)) name += '/';
    names.push_back(std::move(name));
  }
  if (ec) throw InputError(folder.string(), 0, "cannot list the folder: " + ec.message());
  std::sort(names.begin(), names.end());
  if (names.size() > maxLines) names.resize(maxLines);
  return names;
}

// The first `maxLines` lines of `rest` (blank ones skipped when `skipBlank`), each cut at
// `maxColumns`; `cutByRead` when `rest` stops before the end of the file.
std::vector<std::string> textLines(std::string_view rest, std::size_t maxLines, std::size_t maxColumns, bool cutByRead,
                                   bool skipBlank) {
  if (rest.substr(0, 3) == "\xEF\xBB\xBF") rest.remove_prefix(3);
  std::vector<std::string> lines;
  while (!rest.empty() && lines.size() < maxLines) {
    const auto nl = rest.find('\n');
    std::string_view raw = rest.substr(0, nl);
    rest.remove_prefix(nl == std::string_view::npos ? rest.size() : nl + 1);
    // The last line of a cut read continues in the part of the file not read.
    const bool lineCutByRead = nl == std::string_view::npos && cutByRead;
    if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
    if (skipBlank && raw.find_first_not_of(" \t") == std::string_view::npos) continue;
    // Only the shown part is converted; four spare bytes complete a sequence that starts before
    // the cut, and each byte shown takes at least one byte, so a longer line is still cut.
    std::string line = displayText(raw.size() <= maxColumns ? raw : raw.substr(0, maxColumns + 4));
    cutLine(line, maxColumns, lineCutByRead);
    lines.push_back(std::move(line));
  }
  return lines;
}

// At most `maxBytes` of a file, and whether there was more.
std::string readHead(const std::filesystem::path& path, std::size_t maxBytes, bool& truncated) {
  const auto file = openInputFile(path);
  std::string bytes(maxBytes, '\0');
  bytes.resize(std::fread(bytes.data(), 1, bytes.size(), file.get()));
  truncated = bytes.size() == maxBytes && std::fgetc(file.get()) != EOF;
  return bytes;
}

}  // namespace

std::vector<std::string> previewLines(const std::filesystem::path& path, std::size_t maxLines, std::size_t maxColumns) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) throw InputError(path.string(), 0, "does not exist");
  if (std::filesystem::is_directory(status)) return folderPreview(path, maxLines);

  bool truncated = false;
  const std::string bytes = readHead(path, kMaxPreviewBytes, truncated);
  return textLines(bytes, maxLines, maxColumns, truncated, false);
}

std::vector<std::string> previewFolderTexts(const std::filesystem::path& folder, std::size_t maxDocuments,
                                            std::size_t linesPerDocument, std::size_t maxColumns) {
  std::vector<corpus_io::TextFile> files;
  try {
    files = corpus_io::listTextFiles(folder);
  } catch (const InputError&) {
    files.clear();
  }
  if (files.empty()) return previewLines(folder, maxDocuments * (linesPerDocument + 1), maxColumns);
  std::vector<std::string> lines;
  for (std::size_t d = 0; d < files.size() && d < maxDocuments; ++d) {
    lines.push_back("\xE2\x94\x80\xE2\x94\x80 " + displayText(files[d].name) +
                    " \xE2\x94\x80\xE2\x94\x80");  // ── name ──
    try {
      bool truncated = false;
      // The first lines of a document are in its first few kilobytes, or it has no short lines.
      const std::string head = readHead(files[d].path, std::size_t{64} << 10, truncated);
      for (auto& line : textLines(head, linesPerDocument, maxColumns, truncated, true))
        lines.push_back(std::move(line));
    } catch (const std::exception& e) {
      lines.push_back(std::string("(cannot read it: ") + e.what() + ")");
    }
  }
  if (files.size() > maxDocuments) {
    const auto more = static_cast<std::int64_t>(files.size() - maxDocuments);
    lines.push_back("\xE2\x80\xA6 and " + corpus_io::withCommas(more) +
                    (more == 1 ? " more document" : " more documents"));
  }
  return lines;
}

}  // namespace latent::core
