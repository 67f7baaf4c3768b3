// SPDX-License-Identifier: GPL-3.0-or-later
// UCI bag-of-words corpora: a docword file (D, W, NNZ, then "docID wordID count") and a vocabulary.
#include <array>

#include "core/io/corpus_readers.hpp"
#include "core/util/errors.hpp"
#include "core/util/line_reader.hpp"
#include "core/util/parse_number.hpp"
#include "core/util/utf8.hpp"

namespace latent::core::corpus_io {
namespace {

namespace fs = std::filesystem;

// Entry lines are three short numbers; a longer line means the wrong file, refused before it is
// buffered whole.
constexpr std::size_t kMaxEntryLine = std::size_t{1} << 20;

// Documents without entries are still documents, so D alone decides how many are written: a
// corrupted header must not send the import into writing billions of empty documents.
constexpr std::int64_t kMaxDocuments = 100'000'000;
// Nor millions: empty documents are believed only as far as the entries support them, a few
// thousand and ten per document with words (the UCI collections have none or a handful).
constexpr std::int64_t kEmptyDocumentsFree = 1000, kEmptyDocumentsPerDocument = 10;

struct Header {
  std::int64_t documents = 0, words = 0, entries = 0;
  std::array<std::int64_t, 3> lines{};  // where each value was read
};

Header readHeader(LineReader& reader) {
  static constexpr std::array<const char*, 3> kWhat{"D (the number of documents)", "W (the number of words)",
                                                    "NNZ (the number of document-word entries)"};
  std::array<std::int64_t, 3> values{};
  Header header;
  std::vector<std::string_view> fields;
  std::string_view line;
  for (std::size_t k = 0; k < 3; ++k) {
    do {
      if (!reader.next(line)) {
        if (k == 0) return header;  // no content at all: readCorpus says the file holds no documents
        throw InputError(reader.displayName(), 0,
                         "ends inside its header: a UCI docword file starts with three lines D, W and NNZ, "
                         "each one number");
      }
      if (const auto bad = utf8::firstInvalid(line); bad != utf8::npos) reader.fail(utf8::invalidMessage(line, bad));
    } while (isBlank(line));
    splitWhitespace(line, fields);
    const auto value = fields.size() == 1 ? parseInteger(fields[0]) : std::nullopt;
    if (!value || *value <= 0)
      reader.fail("header line " + std::to_string(k + 1) + " must be " + kWhat[k] +
                  " as one positive whole number, found " + quoteInput(line));
    values[k] = *value;
    header.lines[k] = reader.lineNumber();
  }
  header.documents = values[0];
  header.words = values[1];
  header.entries = values[2];
  if (header.documents > kMaxDocuments)
    throw InputError(reader.displayName(), header.lines[0],
                     "D = " + withCommas(header.documents) + " documents is more than this importer accepts (" +
                         withCommas(kMaxDocuments) + "); is this the right file?");
  return header;
}

std::vector<fs::path> uciVocabularyCandidates(const fs::path& source) {
  const std::string file = source.filename().string();
  const fs::path folder = source.parent_path();
  std::vector<fs::path> candidates;
  // docword.NAME.txt comes with vocab.NAME.txt (the UCI repository's naming).
  if (file.starts_with("docword.") && file.size() > 8) candidates.push_back(folder / ("vocab." + file.substr(8)));
  candidates.push_back(folder / "vocab.txt");
  return candidates;
}

}  // namespace

void readUci(const fs::path& source, const CorpusReadOptions& options, CorpusBuilder& builder,
             const ImportControl& control) {
  LineReader reader(source, LineReader::Options{kMaxEntryLine, true});
  const std::string& name = reader.displayName();
  const Header header = readHeader(reader);
  if (header.documents == 0) return;

  const fs::path vocabularyFile = findVocabulary(source, options.vocabulary, uciVocabularyCandidates(source));
  auto words = readVocabularyFile(vocabularyFile, control);
  if (static_cast<std::int64_t>(words.size()) != header.words)
    throw InputError(vocabularyFile.string(), 0,
                     "has " + withCommas(static_cast<std::int64_t>(words.size())) + " words, but " +
                         source.filename().string() + " declares W = " + withCommas(header.words) + " (line " +
                         std::to_string(header.lines[1]) + "); the vocabulary must list every word id once");
  builder.setSourceVocabulary(std::move(words));

  // The current document's entries, and for each word the line where the current document (or
  // an earlier one: lines only grow) last listed it, to find repeated pairs without clearing.
  std::vector<std::pair<std::int32_t, std::int32_t>> bag;
  std::vector<std::int64_t> seenOnLine(static_cast<std::size_t>(header.words), 0);
  std::int64_t current = 0, currentLine = 0, currentTokens = 0;
  std::int64_t written = 0, entries = 0, withEntries = 0, empty = 0;
  std::string id, title;
  // Writes documents written+1 .. last: `current` with its entries, the others empty.
  const auto writeUpTo = [&](std::int64_t last) {
    for (std::int64_t d = written + 1; d <= last && !reachedLimit(control, written); ++d) {
      if ((d & 0xFFF) == 0) control.checkStop();
      if (d == current) {
        ++withEntries;
      } else if (++empty > kEmptyDocumentsFree + kEmptyDocumentsPerDocument * withEntries) {
        throw InputError(name, header.lines[0],
                         "D = " + withCommas(header.documents) + " documents, but only " + withCommas(withEntries) +
                             " of the first " + withCommas(d) +
                             " have entries; so many empty documents are taken for a damaged header (at most " +
                             withCommas(kEmptyDocumentsFree) + " and " + std::to_string(kEmptyDocumentsPerDocument) +
                             " per document with words)");
      }
      id = std::to_string(d);
      title = "doc " + id;
      DocumentRecord record;
      record.id = id;
      record.title = title;
      builder.addBag(record, d == current ? std::span<const std::pair<std::int32_t, std::int32_t>>(bag)
                                          : std::span<const std::pair<std::int32_t, std::int32_t>>());
      ++written;
    }
  };

  ProgressThrottle throttle(control);
  std::vector<std::string_view> fields;
  std::string_view line;
  while (!reachedLimit(control, written) && reader.next(line)) {
    control.checkStop();
    throttle.update(reader.bytesConsumed(), reader.fileSize());
    if (const auto bad = utf8::firstInvalid(line); bad != utf8::npos) reader.fail(utf8::invalidMessage(line, bad));
    if (isBlank(line)) continue;
    splitWhitespace(line, fields);
    if (fields.size() != 3)
      reader.fail("expected 3 numbers (document id, word id, count), found " + std::to_string(fields.size()));
    const auto doc = parseInteger(fields[0]);
    const auto word = parseInteger(fields[1]);
    const auto count = parseInteger(fields[2]);
    if (!doc) reader.fail("document id " + quoteInput(fields[0]) + " is not a whole number");
    if (!word) reader.fail("word id " + quoteInput(fields[1]) + " is not a whole number");
    if (!count) reader.fail("count " + quoteInput(fields[2]) + " is not a whole number");
    if (*doc < 1 || *doc > header.documents)
      reader.fail("document id " + std::to_string(*doc) + " is outside 1-" + std::to_string(header.documents) +
                  " (D, line " + std::to_string(header.lines[0]) + ")");
    if (*word < 1 || *word > header.words)
      reader.fail("word id " + std::to_string(*word) + " is outside the vocabulary (1-" + std::to_string(header.words) +
                  ")");
    if (*count < 1) reader.fail("count " + std::to_string(*count) + " is not positive; a count is at least 1");
    if (*count > kMaxWordCount)
      reader.fail("count " + std::to_string(*count) + " is implausibly large (more than " + withCommas(kMaxWordCount) +
                  " of one word in one document)");
    if (++entries > header.entries)
      reader.fail("there are more entries than the " + withCommas(header.entries) + " that line " +
                  std::to_string(header.lines[2]) + " declares (NNZ)");

    if (*doc < current)
      reader.fail("document " + std::to_string(*doc) + " comes after document " + std::to_string(current) + " (line " +
                  std::to_string(currentLine) + "); the entries must be sorted by document id");
    if (*doc > current) {
      writeUpTo(*doc - 1);
      if (reachedLimit(control, written)) break;
      current = *doc;
      currentLine = reader.lineNumber();
      currentTokens = 0;
      bag.clear();
    }
    auto& seen = seenOnLine[static_cast<std::size_t>(*word - 1)];
    if (seen >= currentLine)
      reader.fail("word " + std::to_string(*word) + " is listed again for document " + std::to_string(*doc) +
                  " (first on line " + std::to_string(seen) + "); each document-word pair must appear once");
    seen = reader.lineNumber();
    currentTokens += *count;
    if (currentTokens > kMaxDocumentTokens)
      reader.fail("document " + std::to_string(*doc) + " has more than " + withCommas(kMaxDocumentTokens) + " words");
    bag.emplace_back(static_cast<std::int32_t>(*word - 1), static_cast<std::int32_t>(*count));
  }
  if (reachedLimit(control, written)) return;
  if (entries < header.entries)
    throw InputError(name, header.lines[2],
                     "NNZ says " + withCommas(header.entries) + " entries, but the file ends after " +
                         withCommas(entries) + "; is it cut short?");
  writeUpTo(header.documents);
}

}  // namespace latent::core::corpus_io
