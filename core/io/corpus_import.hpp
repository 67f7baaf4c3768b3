// SPDX-License-Identifier: GPL-3.0-or-later
// Reading corpora from the formats of DESIGN §2 into a CorpusBuilder.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "core/data/corpus_builder.hpp"
#include "core/io/import_control.hpp"

namespace latent::core {

enum class CorpusFormat {
  Auto,
  Folder,     // a folder of .txt files, one document per file, in file-name order
  Lines,      // one document per line
  Csv,        // CSV or TSV with a header and a text column
  JsonLines,  // one JSON object per line with a text field
  Uci,        // UCI bag-of-words: docword (D, W, NNZ, then "doc word count") + vocab
  Ldac,       // Blei's LDA-C: "N id:count ..." per line (0-based ids) + vocab
  Responses,  // survey answers: CSV/TSV, a row per respondent, a column per question ("question=answer" words)
};

std::string_view toString(CorpusFormat format) noexcept;
// Accepts the command line's names: auto dir lines csv jsonl uci ldac (and tsv = csv).
std::optional<CorpusFormat> corpusFormatFromString(std::string_view name) noexcept;
bool isBagOfWords(CorpusFormat format) noexcept;

struct CorpusReadOptions {
  CorpusFormat format = CorpusFormat::Auto;
  // UCI and LDA-C: the vocabulary file; when empty it is looked for next to the data
  // (vocab.NAME.txt for docword.NAME.txt, or NAME.vocab / vocab.txt).
  std::filesystem::path vocabulary;
  // CSV/TSV and JSON Lines: which columns (fields) hold what. Empty text column: "text".
  // Empty id column: "id" when present, else the record number. Empty title column: "title"
  // when present, else the id.
  std::string textColumn, titleColumn, timeColumn, labelColumn, idColumn;
  // CSV/TSV and JSON Lines: further columns kept with each document as named metadata (a party, a
  // rating). "all" alone keeps every column not read as the text, id, title, time or label.
  std::vector<std::string> metadataColumns;
};

// True when `columns` asks for every column ("all").
inline bool keepsAllMetadata(const std::vector<std::string>& columns) {
  return columns.size() == 1 && columns.front() == "all";
}

// The format a path most likely is, from what it is (folder), its name and its first lines.
// Throws InputError when it cannot tell.
CorpusFormat detectCorpusFormat(const std::filesystem::path& source);

// Streams the documents of `source` into `builder` and returns the format used (Auto resolved).
// Errors name the file, line and reason (InputError); the builder is then to be discarded.
CorpusFormat readCorpus(const std::filesystem::path& source, const CorpusReadOptions& options, CorpusBuilder& builder,
                        const ImportControl& control);

}  // namespace latent::core
