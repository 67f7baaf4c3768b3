// SPDX-License-Identifier: GPL-3.0-or-later
// Line corpora: every non-blank line of a text file is one document.
#include "core/io/corpus_readers.hpp"
#include "core/util/line_reader.hpp"
#include "core/util/utf8.hpp"

namespace latent::core::corpus_io {

void readLines(const std::filesystem::path& source, const CorpusReadOptions&, CorpusBuilder& builder,
               const ImportControl& control) {
  LineReader reader(source);
  ProgressThrottle throttle(control);
  std::int64_t documents = 0;
  std::string_view line;
  std::string id, title;
  while (!reachedLimit(control, documents) && reader.next(line)) {
    control.checkStop();
    if (const auto bad = utf8::firstInvalid(line); bad != utf8::npos) reader.fail(utf8::invalidMessage(line, bad));
    // Blank lines separate nothing here; skipping them keeps a trailing empty line from becoming a document.
    if (!isBlank(line)) {
      // The id is the line number, so it still points at the file's line when blank lines were skipped.
      id = std::to_string(reader.lineNumber());
      title = "line " + id;
      DocumentRecord record;
      record.id = id;
      record.title = title;
      record.text = line;
      record.hasText = true;
      builder.addText(record);
      ++documents;
    }
    throttle.update(reader.bytesConsumed(), reader.fileSize());
  }
}

}  // namespace latent::core::corpus_io
