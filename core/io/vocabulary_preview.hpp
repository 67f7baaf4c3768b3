// SPDX-License-Identifier: GPL-3.0-or-later
// What an import's vocabulary settings do, before importing: the words of a source counted once by
// the import's own reader and tokeniser, then stop words and pruning applied by the import's own
// rules (StopWords, pruneVocabulary) as often as the settings change, in a few milliseconds.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/data/corpus_builder.hpp"
#include "core/io/corpus_import.hpp"
#include "core/io/import_control.hpp"

namespace latent::core {

class MetadataFile;

// Every word of a source with its document frequency and count, before stop words and pruning.
struct CorpusWordCounts {
  CorpusFormat format = CorpusFormat::Auto;  // as read (Auto resolved)
  std::int64_t documents = 0;
  std::int64_t tokens = 0;  // words the tokeniser found (or counts summed)
  // False when control.maxRecords stopped the reading: the counts are of the first documents only.
  bool wholeSource = true;
  std::vector<VocabularyEntry> words;    // in order of first appearance
  std::vector<std::string> documentIds;  // as the reader names them (a folder's: the file names)
};

// Reads `source` as readCorpus does, with the tokeniser options of the import and no stop words
// and no pruning; stops after control.maxRecords documents when that is >= 0. Throws as readCorpus.
CorpusWordCounts countCorpusWords(const std::filesystem::path& source, const CorpusReadOptions& read,
                                  const TokenizerOptions& tokenizer, const ImportControl& control);

// One rule's share of what goes: how many words and tokens, and its most frequent words.
struct RemovedWords {
  std::int64_t words = 0;
  std::int64_t tokens = 0;
  std::vector<std::string> examples;  // the most frequent first
};

struct VocabularyPreview {
  std::int64_t documents = 0;
  bool wholeSource = true;
  std::int64_t tokensSeen = 0;
  std::int64_t keptWords = 0;                 // the imported dataset's vocabulary size
  std::int64_t keptTokens = 0;                // and its token count
  std::vector<VocabularyEntry> mostFrequent;  // kept words, the most frequent first
  RemovedWords stopWords, minDocumentFrequency, maxDocumentFraction, vocabularyCap;
};

// The vocabulary an import with these stop words and pruning would keep from `counts`, with
// `examples` words of each list.
VocabularyPreview previewVocabulary(const CorpusWordCounts& counts, const StopWords& stopWords,
                                    const PruneOptions& prune, std::size_t examples = 12);

// How the documents meet a metadata file's rows, as the import would join them.
struct MetadataMatch {
  std::int64_t matchedDocuments = 0;
  std::int64_t unmatchedDocuments = 0;
  std::int64_t rows = 0;
  std::vector<std::string> unmatchedExamples;  // the first few ids with no row
};
MetadataMatch matchMetadata(const std::vector<std::string>& documentIds, const MetadataFile& file,
                            std::size_t examples = 3);

}  // namespace latent::core
