// SPDX-License-Identifier: GPL-3.0-or-later
// countCorpusWords through CorpusBuilder into a sink that keeps only the counts; previewVocabulary
// through pruneVocabulary with the stop words' words given a document frequency of 0.
#include "core/io/vocabulary_preview.hpp"

#include <algorithm>
#include <numeric>

#include "core/data/corpus_sink.hpp"
#include "core/data/vocabulary_prune.hpp"
#include "core/io/metadata_file.hpp"

namespace latent::core {
namespace {

// Keeps the vocabulary and the document ids; the tokens are not needed.
class WordCountSink final : public CorpusSink {
 public:
  explicit WordCountSink(CorpusWordCounts& out) : m_out(out) {}
  void writeDocument(const DocumentRecord& document) override { m_out.documentIds.emplace_back(document.id); }
  void writeVocabulary(std::span<const VocabularyEntry> vocabulary) override {
    m_out.words.assign(vocabulary.begin(), vocabulary.end());
  }
  void writeTokens(std::int64_t, std::span<const std::int32_t>, std::span<const std::uint32_t>,
                   std::span<const std::uint32_t>) override {}

 private:
  CorpusWordCounts& m_out;
};

// The indices of `words` by count, the most frequent first (ties: first seen first), at most `n`.
std::vector<std::size_t> mostFrequent(const std::vector<VocabularyEntry>& words, std::vector<std::size_t> indices,
                                      std::size_t n) {
  const auto byCount = [&](std::size_t a, std::size_t b) {
    return words[a].count != words[b].count ? words[a].count > words[b].count : a < b;
  };
  if (indices.size() > n) {
    std::partial_sort(indices.begin(), indices.begin() + static_cast<std::ptrdiff_t>(n), indices.end(), byCount);
    indices.resize(n);
  } else {
    std::sort(indices.begin(), indices.end(), byCount);
  }
  return indices;
}

}  // namespace

CorpusWordCounts countCorpusWords(const std::filesystem::path& source, const CorpusReadOptions& read,
                                  const TokenizerOptions& tokenizer, const ImportControl& control) {
  CorpusWordCounts counts;
  WordCountSink sink(counts);
  CorpusBuildOptions build;
  build.tokenizer = tokenizer;
  CorpusBuilder builder(std::move(build), sink);
  counts.format = readCorpus(source, read, builder, control);
  control.checkStop();
  const CorpusSummary summary = builder.finish();
  counts.documents = summary.documents;
  counts.tokens = summary.tokensSeen;
  counts.wholeSource = control.maxRecords < 0 || summary.documents < control.maxRecords;
  return counts;
}

VocabularyPreview previewVocabulary(const CorpusWordCounts& counts, const StopWords& stopWords,
                                    const PruneOptions& prune, std::size_t examples) {
  VocabularyPreview out;
  out.documents = counts.documents;
  out.wholeSource = counts.wholeSource;
  out.tokensSeen = counts.tokens;
  const std::size_t n = counts.words.size();
  // A stop word never reaches the import's counts: it is as if it had no document.
  std::vector<std::int64_t> df(n), count(n);
  std::vector<bool> stop(n, false);
  for (std::size_t w = 0; w < n; ++w) {
    stop[w] = stopWords.size() != 0 && stopWords.contains(counts.words[w].word);
    df[w] = stop[w] ? 0 : counts.words[w].documentFrequency;
    count[w] = stop[w] ? 0 : counts.words[w].count;
  }
  const auto reasons = pruneVocabulary(df, count, counts.documents, prune);

  std::vector<std::size_t> kept, stopped, belowMin, aboveMax, capped;
  for (std::size_t w = 0; w < n; ++w) {
    if (stop[w]) {
      stopped.push_back(w);
      continue;
    }
    switch (reasons[w]) {
      case PruneReason::Kept:
        kept.push_back(w);
        break;
      case PruneReason::MinDocumentFrequency:
        belowMin.push_back(w);
        break;
      case PruneReason::MaxDocumentFraction:
        aboveMax.push_back(w);
        break;
      case PruneReason::VocabularyCap:
        capped.push_back(w);
        break;
      case PruneReason::Absent:
        break;  // counted words all occur; nothing to report
    }
  }
  const auto tokensOf = [&](const std::vector<std::size_t>& indices) {
    return std::accumulate(indices.begin(), indices.end(), std::int64_t{0},
                           [&](std::int64_t sum, std::size_t w) { return sum + counts.words[w].count; });
  };
  const auto removed = [&](const std::vector<std::size_t>& indices) {
    RemovedWords r;
    r.words = static_cast<std::int64_t>(indices.size());
    r.tokens = tokensOf(indices);
    for (const auto w : mostFrequent(counts.words, indices, examples)) r.examples.push_back(counts.words[w].word);
    return r;
  };
  out.keptWords = static_cast<std::int64_t>(kept.size());
  out.keptTokens = tokensOf(kept);
  for (const auto w : mostFrequent(counts.words, kept, examples)) out.mostFrequent.push_back(counts.words[w]);
  out.stopWords = removed(stopped);
  out.minDocumentFrequency = removed(belowMin);
  out.maxDocumentFraction = removed(aboveMax);
  out.vocabularyCap = removed(capped);
  return out;
}

MetadataMatch matchMetadata(const std::vector<std::string>& documentIds, const MetadataFile& file,
                            std::size_t examples) {
  MetadataMatch match;
  match.rows = file.rowCount();
  for (const auto& id : documentIds) {
    if (file.row(id)) {
      ++match.matchedDocuments;
    } else {
      ++match.unmatchedDocuments;
      if (match.unmatchedExamples.size() < examples) match.unmatchedExamples.push_back(id);
    }
  }
  return match;
}

}  // namespace latent::core
