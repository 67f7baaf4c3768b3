// SPDX-License-Identifier: GPL-3.0-or-later
// Builds a corpus from a stream of documents in bounded memory: tokenise, drop stop words, count
// document frequencies, then prune the vocabulary and write the kept tokens.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "core/data/corpus_sink.hpp"
#include "core/data/id_map.hpp"
#include "core/data/stop_words.hpp"
#include "core/data/tokenizer.hpp"

namespace latent::core {

// The most tokens a document may have (the readers check it too, to name the line).
inline constexpr std::int64_t kMaxDocumentTokens = std::int64_t{1} << 30;

struct PruneOptions {
  std::int64_t minDocumentFrequency = 1;  // drop words in fewer documents than this
  double maxDocumentFraction = 1.0;       // drop words in more than this fraction of documents
  std::int64_t maxVocabulary = 0;         // keep only the most frequent words; 0 = no cap
};

struct CorpusBuildOptions {
  TokenizerOptions tokenizer;
  StopWords stopWords;
  PruneOptions prune;
};

struct CorpusSummary {
  std::int64_t documents = 0;
  std::int64_t emptyDocuments = 0;  // documents with no kept token
  std::int64_t tokensSeen = 0;      // words the tokenizer found (or counts summed)
  std::int64_t stopWordTokens = 0;  // dropped as stop words
  std::int64_t prunedTokens = 0;    // dropped by document-frequency pruning or the cap
  std::int64_t tokens = 0;          // kept
  std::int64_t distinctWords = 0;   // before pruning
  std::int64_t vocabulary = 0;      // after pruning
};

// Documents go to the sink as they arrive; token ids are provisional until finish(), so tokens
// wait in an anonymous temporary file (12 bytes per token), not in memory.
//
// Tokenising, counting and spilling run on a worker thread of their own while the caller goes on
// reading the source and writing texts to the sink: on a two-core machine this overlaps the two
// halves of an import. At most 16 MB of text waits between them. The sink is only ever called
// from the caller's thread.
class CorpusBuilder {
 public:
  CorpusBuilder(CorpusBuildOptions options, CorpusSink& sink);
  ~CorpusBuilder();
  CorpusBuilder(const CorpusBuilder&) = delete;
  CorpusBuilder& operator=(const CorpusBuilder&) = delete;

  // A document with text (valid UTF-8): tokenised here.
  void addText(const DocumentRecord& document);

  // Bag-of-words formats: declare the file's vocabulary once (its ids are kept in that order),
  // then add documents as (source word id, count) pairs.
  void setSourceVocabulary(std::vector<std::string> words);
  void addBag(const DocumentRecord& document, std::span<const std::pair<std::int32_t, std::int32_t>> wordCounts);

  std::int64_t documentCount() const noexcept { return m_summary.documents; }

  // Decides the vocabulary and writes it and every document's tokens to the sink.
  CorpusSummary finish();

 private:
  // One document for the worker: its text, or its (source word id, count) pairs.
  struct Job {
    std::string text;
    std::vector<std::pair<std::int32_t, std::int32_t>> bag;
    bool isBag = false;
  };

  void enqueue(Job job);
  void workerLoop();
  void process(const Job& job);  // on the worker
  void stopWorker();             // joins the worker and rethrows what it threw
  void spill(std::span<const std::int32_t> ids, std::span<const std::uint32_t> begins,
             std::span<const std::uint32_t> ends);
  void countDocumentFrequencies(std::span<const std::int32_t> ids);

  CorpusBuildOptions m_options;
  CorpusSink& m_sink;
  CorpusSummary m_summary;  // documents: the caller's count; the rest: the worker's
  std::size_t m_sourceVocabulary = 0;
  bool m_finished = false;

  // Shared between the caller and the worker.
  std::mutex m_mutex;
  std::condition_variable m_changed;
  std::deque<Job> m_queue;
  std::size_t m_queuedBytes = 0;
  bool m_closing = false;
  bool m_workerWaiting = false;
  bool m_producerWaiting = false;
  std::exception_ptr m_workerError;
  std::thread m_worker;

  // The worker's own state.
  Tokenizer m_tokenizer;
  IdMap m_words;
  std::vector<std::int64_t> m_df, m_count;
  std::vector<std::int64_t> m_lastDocument;  // last document that counted toward m_df, per word
  std::int64_t m_processed = 0;              // documents the worker has handled
  std::FILE* m_spill = nullptr;
  std::vector<Token> m_tokens;
  std::vector<std::int32_t> m_ids;
  std::vector<std::uint32_t> m_begins, m_ends;
};

}  // namespace latent::core
