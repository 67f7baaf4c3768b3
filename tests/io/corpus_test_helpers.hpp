// SPDX-License-Identifier: GPL-3.0-or-later
// Helpers shared by the corpus importer suites: reading into memory and checking token spans.
#pragma once

#include <QtTest>

#include <cctype>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "core/data/corpus_builder.hpp"
#include "core/data/corpus_sink.hpp"
#include "core/io/corpus_import.hpp"

namespace latent::test {

struct ImportedCorpus {
  core::MemoryCorpusSink sink;
  core::CorpusSummary summary;
  core::CorpusFormat format = core::CorpusFormat::Auto;

  const core::MemoryCorpusSink::Document& doc(std::size_t d) const { return sink.documents.at(d); }
  std::size_t documentCount() const { return sink.documents.size(); }
  const std::string& word(std::int32_t id) const { return sink.vocabulary.at(static_cast<std::size_t>(id)).word; }
  // The kept tokens of document d as words.
  std::vector<std::string> words(std::size_t d) const {
    std::vector<std::string> out;
    for (const auto id : doc(d).wordIds) out.push_back(word(id));
    return out;
  }
  std::int64_t count(std::size_t d, const std::string& w) const {
    std::int64_t n = 0;
    for (const auto id : doc(d).wordIds) n += word(id) == w ? 1 : 0;
    return n;
  }
};

// readCorpus + finish into memory, with no stop words and no pruning unless `build` says so.
inline std::unique_ptr<ImportedCorpus> readIntoMemory(const std::filesystem::path& source,
                                                      core::CorpusReadOptions options = {},
                                                      const core::ImportControl& control = {},
                                                      core::CorpusBuildOptions build = {}) {
  auto imported = std::make_unique<ImportedCorpus>();
  core::CorpusBuilder builder(std::move(build), imported->sink);
  imported->format = core::readCorpus(source, options, builder, control);
  imported->summary = builder.finish();
  return imported;
}

inline std::string readFileBytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline bool isAscii(std::string_view s) {
  for (const char c : s)
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  return true;
}

// Every kept token's span cuts its document's original text at a piece that, lower-cased, is the
// token's word. Pieces with non-ASCII letters (curly apostrophes) are only checked for being
// non-empty and inside the text: their normal form is the tokenizer's business.
inline bool spansSliceText(const ImportedCorpus& corpus, std::size_t d, std::string* problem) {
  const auto& doc = corpus.doc(d);
  if (doc.begins.size() != doc.wordIds.size() || doc.ends.size() != doc.wordIds.size()) {
    *problem = "span count differs from token count";
    return false;
  }
  for (std::size_t i = 0; i < doc.wordIds.size(); ++i) {
    if (doc.begins[i] >= doc.ends[i] || doc.ends[i] > doc.text.size()) {
      *problem = "span " + std::to_string(i) + " is outside the text";
      return false;
    }
    std::string piece = doc.text.substr(doc.begins[i], doc.ends[i] - doc.begins[i]);
    if (!isAscii(piece)) continue;
    for (auto& c : piece) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (piece != corpus.word(doc.wordIds[i])) {
      *problem = "token " + std::to_string(i) + ": text '" + piece + "' but word '" + corpus.word(doc.wordIds[i]) + "'";
      return false;
    }
  }
  return true;
}

inline std::string tenMegabytesOf(const std::string& unit) {
  std::string s;
  s.reserve((std::size_t{10} << 20) + unit.size());
  while (s.size() < (std::size_t{10} << 20)) s += unit;
  return s;
}

}  // namespace latent::test
