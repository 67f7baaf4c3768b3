// SPDX-License-Identifier: GPL-3.0-or-later
// Internal: one reader per corpus format, and the small pieces they share (not part of the API).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/data/corpus_builder.hpp"
#include "core/io/corpus_import.hpp"
#include "core/io/import_control.hpp"

namespace latent::core::corpus_io {

// Each reader streams `source` into `builder`, honouring control.maxRecords (>= 0) and checking
// control.stop between documents. They may add no document at all; readCorpus reports that.
void readFolder(const std::filesystem::path& source, const CorpusReadOptions& options, CorpusBuilder& builder,
                const ImportControl& control);
void readLines(const std::filesystem::path& source, const CorpusReadOptions& options, CorpusBuilder& builder,
               const ImportControl& control);
void readCsv(const std::filesystem::path& source, const CorpusReadOptions& options, CorpusBuilder& builder,
             const ImportControl& control);
void readJsonLines(const std::filesystem::path& source, const CorpusReadOptions& options, CorpusBuilder& builder,
                   const ImportControl& control);
void readUci(const std::filesystem::path& source, const CorpusReadOptions& options, CorpusBuilder& builder,
             const ImportControl& control);
void readLdac(const std::filesystem::path& source, const CorpusReadOptions& options, CorpusBuilder& builder,
              const ImportControl& control);
void readResponses(const std::filesystem::path& source, const CorpusReadOptions& options, CorpusBuilder& builder,
                   const ImportControl& control);

// A folder corpus's documents: the .txt files directly inside it (hidden files skipped), in
// file-name order. Throws InputError when the folder cannot be listed or a .txt entry is not a
// regular file.
struct TextFile {
  std::filesystem::path path;
  std::string name;
  std::uintmax_t size = 0;
};
std::vector<TextFile> listTextFiles(const std::filesystem::path& folder);

// True once `documents` reached the preview limit (control.maxRecords >= 0).
inline bool reachedLimit(const ImportControl& control, std::int64_t documents) noexcept {
  return control.maxRecords >= 0 && documents >= control.maxRecords;
}

// True when a line holds nothing but spaces and tabs.
bool isBlank(std::string_view line) noexcept;

// Splits at runs of spaces and tabs, dropping empty pieces (fields point into `line`).
void splitWhitespace(std::string_view line, std::vector<std::string_view>& fields);

// At most `maxBytes` of `text` (cut at a character boundary, "…" appended when cut), with
// bytes that are not valid UTF-8 turned into '?': error messages must stay readable text.
std::string clip(std::string_view text, std::size_t maxBytes);

// A piece of input for an error message: quoted, cut to a readable length, and made valid
// UTF-8 (bytes that are not become '?'), so a 10 MB line or binary garbage cannot flood it.
std::string quoteInput(std::string_view text);

// "2,961" - counts in messages read better with thousands separators.
std::string withCommas(std::int64_t n);

// The 1-based line and the message for invalid UTF-8 at byte `offset` of a multi-line `text`
// that starts on line `firstLine`; `what` names the part ("the 'text' field"), or is empty.
struct Utf8Problem {
  std::int64_t line = 0;
  std::string reason;
};
Utf8Problem describeInvalidUtf8(std::string_view text, std::size_t offset, std::int64_t firstLine,
                                std::string_view what);

// Document ids taken from an id column must be unique; this remembers where each was used.
class DocumentIdSet {
 public:
  // Throws InputError(file, line) naming the line where `id` was used before.
  void add(std::string_view id, const std::string& file, std::int64_t line);

 private:
  std::unordered_map<std::string, std::int64_t> m_lines;
};

// Bag-of-words vocabularies (UCI and LDA-C): one word per line, line k is word k (in the format's
// own numbering). Surrounding spaces and tabs are trimmed. A blank line before the last word
// is an error, because it would shift every later id; blank lines after the last word are
// ignored. Words must be valid UTF-8 and unique.
std::vector<std::string> readVocabularyFile(const std::filesystem::path& file, const ImportControl& control);

// The vocabulary to use: `given` when set (it must exist), else the first of `candidates`
// that exists; throws InputError on `source` naming what was looked for.
std::filesystem::path findVocabulary(const std::filesystem::path& source, const std::filesystem::path& given,
                                     const std::vector<std::filesystem::path>& candidates);

// Largest count accepted for one word in one document by the bag-of-words readers: anything
// above is far more likely a corrupted or misaligned file than a real document.
inline constexpr std::int64_t kMaxWordCount = 1'000'000;

}  // namespace latent::core::corpus_io
