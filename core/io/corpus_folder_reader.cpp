// SPDX-License-Identifier: GPL-3.0-or-later
// Folder corpora: every .txt file directly inside a folder is one document, in file-name order.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "core/io/corpus_readers.hpp"
#include "core/util/errors.hpp"
#include "core/util/input_file.hpp"
#include "core/util/utf8.hpp"

namespace latent::core::corpus_io {
namespace {

namespace fs = std::filesystem;

// A whole file is held in memory while it is tokenised; beyond this it is not one document but
// a corpus in the wrong format (or the wrong file).
constexpr std::uintmax_t kMaxDocumentBytes = std::uintmax_t{256} << 20;

bool hasTxtExtension(const std::string& name) {
  if (name.size() < 4) return false;
  std::string ext = name.substr(name.size() - 4);
  for (auto& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext == ".txt";
}

std::int64_t lineAt(std::string_view text, std::size_t offset) {
  return 1 +
         static_cast<std::int64_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

// The whole file into `text` (reusing its capacity), refusing files too large to be one document.
void readWholeFile(const TextFile& file, std::string& text) {
  const std::string name = file.path.string();
  if (file.size > kMaxDocumentBytes)
    throw InputError(name, 0,
                     "is larger than 256 MB, too large for one document; split it into several files or "
                     "use the 'lines' format (one document per line)");
  const auto f = openInputFile(file.path);
  text.clear();
  char chunk[1 << 16];
  for (;;) {
    const std::size_t got = std::fread(chunk, 1, sizeof chunk, f.get());
    if (got == 0) break;
    text.append(chunk, got);
    // The file may have grown since it was listed.
    if (text.size() > kMaxDocumentBytes)
      throw InputError(name, 0, "is larger than 256 MB, too large for one document; split it into several files");
  }
  if (std::ferror(f.get())) throw InputError(name, 0, std::string("read error: ") + std::strerror(errno));
}

}  // namespace

std::vector<TextFile> listTextFiles(const fs::path& folder) {
  std::vector<TextFile> files;
  std::error_code ec;
  fs::directory_iterator it(folder, ec);
  if (ec) throw InputError(folder.string(), 0, "cannot list the folder: " + ec.message());
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    if (ec) throw InputError(folder.string(), 0, "cannot list the folder: " + ec.message());
    const std::string name = it->path().filename().string();
    // Hidden files are skipped: "._x.txt" files that macOS leaves on shared drives are binary.
    if (name.empty() || name.front() == '.' || !hasTxtExtension(name)) continue;
    // A named pipe or a dangling link among the texts is refused by name, not skipped unseen.
    if (const auto reason = notARegularFile(it->path()); !reason.empty())
      throw InputError(it->path().string(), 0, reason + "; a corpus folder's .txt entries must be text files");
    std::error_code fileError;
    const auto size = it->file_size(fileError);
    files.push_back({it->path(), name, fileError ? 0 : size});
  }
  std::sort(files.begin(), files.end(), [](const TextFile& a, const TextFile& b) { return a.name < b.name; });
  return files;
}

void readFolder(const fs::path& source, const CorpusReadOptions&, CorpusBuilder& builder,
                const ImportControl& control) {
  const auto files = listTextFiles(source);
  if (files.empty())
    throw InputError(source.string(), 0, "holds no .txt files (a folder corpus is one .txt file per document)");
  std::uint64_t total = 0;
  for (const auto& f : files) total += f.size;

  ProgressThrottle throttle(control);
  std::uint64_t done = 0;
  std::int64_t documents = 0;
  std::string text;
  for (const auto& file : files) {
    if (reachedLimit(control, documents)) break;
    control.checkStop();
    readWholeFile(file, text);
    std::string_view body = text;
    if (body.starts_with("\xEF\xBB\xBF")) body.remove_prefix(3);  // a BOM is not part of the text
    const std::string name = file.path.string();
    if (const auto nul = body.find('\0'); nul != std::string_view::npos)
      throw InputError(name, lineAt(body, nul), "contains a NUL byte: this looks like a binary file, not text");
    if (const auto bad = utf8::firstInvalid(body); bad != utf8::npos) {
      const auto problem = describeInvalidUtf8(body, bad, 1, {});
      throw InputError(name, problem.line, problem.reason);
    }
    DocumentRecord record;
    record.id = file.name;
    record.title = std::string_view(file.name).substr(0, file.name.size() - 4);
    record.text = body;
    record.hasText = true;
    builder.addText(record);
    ++documents;
    done += file.size;
    throttle.update(done, total);
  }
}

}  // namespace latent::core::corpus_io
