// SPDX-License-Identifier: GPL-3.0-or-later
// LDA-C corpora (Blei's lda-c): one document per line, "N id:count ...", 0-based ids into a vocabulary.
#include "core/io/corpus_readers.hpp"
#include "core/util/errors.hpp"
#include "core/util/line_reader.hpp"
#include "core/util/parse_number.hpp"
#include "core/util/utf8.hpp"

namespace latent::core::corpus_io {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> ldacVocabularyCandidates(const fs::path& source) {
  const fs::path folder = source.parent_path();
  // ap.dat comes with ap.vocab in some distributions and with vocab.txt in Blei's own.
  return {folder / (source.stem().string() + ".vocab"), folder / "vocab.txt"};
}

}  // namespace

void readLdac(const fs::path& source, const CorpusReadOptions& options, CorpusBuilder& builder,
              const ImportControl& control) {
  // Opened first, so that a missing data file is reported before a missing vocabulary.
  LineReader reader(source);
  const fs::path vocabularyFile = findVocabulary(source, options.vocabulary, ldacVocabularyCandidates(source));
  auto words = readVocabularyFile(vocabularyFile, control);
  const auto vocabularySize = static_cast<std::int64_t>(words.size());
  builder.setSourceVocabulary(std::move(words));

  // Line on which each word was last listed: a word seen on the current line is a repeat.
  std::vector<std::int64_t> seenOnLine(static_cast<std::size_t>(vocabularySize), 0);
  std::vector<std::pair<std::int32_t, std::int32_t>> bag;
  std::vector<std::string_view> fields;
  ProgressThrottle throttle(control);
  std::int64_t documents = 0;
  std::string id, title;
  std::string_view line;
  while (!reachedLimit(control, documents) && reader.next(line)) {
    control.checkStop();
    throttle.update(reader.bytesConsumed(), reader.fileSize());
    if (const auto bad = utf8::firstInvalid(line); bad != utf8::npos) reader.fail(utf8::invalidMessage(line, bad));
    if (isBlank(line)) continue;
    splitWhitespace(line, fields);
    const auto declared = parseInteger(fields[0]);
    if (!declared || *declared < 0)
      reader.fail("a line must start with the number of distinct words in the document, found " +
                  quoteInput(fields[0]));

    bag.clear();
    std::int64_t tokens = 0;
    const std::int64_t lineNumber = reader.lineNumber();
    for (std::size_t i = 1; i < fields.size(); ++i) {
      const std::string_view pair = fields[i];
      const auto where = [i] { return " in pair " + std::to_string(i); };
      const auto colon = pair.find(':');
      if (colon == std::string_view::npos || colon == 0 || colon + 1 == pair.size())
        reader.fail("pair " + std::to_string(i) + " " + quoteInput(pair) + " is not of the form word_id:count");
      const auto word = parseInteger(pair.substr(0, colon));
      const auto count = parseInteger(pair.substr(colon + 1));
      if (!word) reader.fail("word id " + quoteInput(pair.substr(0, colon)) + where() + " is not a whole number");
      if (!count) reader.fail("count " + quoteInput(pair.substr(colon + 1)) + where() + " is not a whole number");
      if (*word < 0 || *word >= vocabularySize)
        reader.fail("word id " + std::to_string(*word) + where() + " is outside the vocabulary (0-" +
                    std::to_string(vocabularySize - 1) + ")");
      if (*count < 1)
        reader.fail("count " + std::to_string(*count) + where() + " is not positive; a count is at least 1");
      if (*count > kMaxWordCount)
        reader.fail("count " + std::to_string(*count) + where() + " is implausibly large (more than " +
                    withCommas(kMaxWordCount) + " of one word in one document)");
      auto& seen = seenOnLine[static_cast<std::size_t>(*word)];
      if (seen == lineNumber)
        reader.fail("word id " + std::to_string(*word) + " is listed twice in this document (again in pair " +
                    std::to_string(i) + "); each word must appear once per line");
      seen = lineNumber;
      tokens += *count;
      if (tokens > kMaxDocumentTokens)
        reader.fail("the document has more than " + withCommas(kMaxDocumentTokens) + " words");
      bag.emplace_back(static_cast<std::int32_t>(*word), static_cast<std::int32_t>(*count));
    }
    const auto pairs = static_cast<std::int64_t>(bag.size());
    if (*declared != pairs)
      reader.fail("the line starts with " + std::to_string(*declared) + " (the number of distinct words) but holds " +
                  std::to_string(pairs) + (pairs == 1 ? " word_id:count pair" : " word_id:count pairs"));

    id = std::to_string(lineNumber);
    title = "doc " + id;
    DocumentRecord record;
    record.id = id;
    record.title = title;
    builder.addBag(record, bag);
    ++documents;
  }
}

}  // namespace latent::core::corpus_io
