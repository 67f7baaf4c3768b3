// SPDX-License-Identifier: GPL-3.0-or-later
// CorpusBuilder: two passes, the second over the spill file instead of the source.
#include "core/data/corpus_builder.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <numeric>
#include <stdexcept>

#include "core/data/vocabulary_prune.hpp"

namespace latent::core {
namespace {

// Text read ahead of the tokenising worker; bounds import memory whatever the corpus size.
constexpr std::size_t kMaxQueuedBytes = std::size_t{16} << 20;

void writeAll(std::FILE* f, const void* data, std::size_t bytes) {
  if (bytes && std::fwrite(data, 1, bytes, f) != bytes)
    throw std::runtime_error(std::string("cannot write the import's temporary file: ") + std::strerror(errno));
}

void readAll(std::FILE* f, void* data, std::size_t bytes) {
  if (bytes && std::fread(data, 1, bytes, f) != bytes)
    throw std::runtime_error("cannot read back the import's temporary file");
}

}  // namespace

CorpusBuilder::CorpusBuilder(CorpusBuildOptions options, CorpusSink& sink)
    : m_options(std::move(options)), m_sink(sink), m_tokenizer(m_options.tokenizer) {
  m_spill = std::tmpfile();
  if (!m_spill) throw std::runtime_error(std::string("cannot create a temporary file: ") + std::strerror(errno));
}

CorpusBuilder::~CorpusBuilder() {
  {
    std::lock_guard lock(m_mutex);
    m_closing = true;
    m_queue.clear();
  }
  m_changed.notify_all();
  if (m_worker.joinable()) m_worker.join();
  if (m_spill) std::fclose(m_spill);
}

void CorpusBuilder::enqueue(Job job) {
  const std::size_t bytes = job.text.size() + job.bag.size() * sizeof(job.bag[0]) + 64;
  std::unique_lock lock(m_mutex);
  if (!m_worker.joinable()) m_worker = std::thread([this] { workerLoop(); });
  if (!m_workerError && m_queuedBytes >= kMaxQueuedBytes) {
    m_producerWaiting = true;
    m_changed.wait(lock, [&] { return m_workerError || m_queuedBytes < kMaxQueuedBytes / 2; });
    m_producerWaiting = false;
  }
  if (m_workerError) std::rethrow_exception(m_workerError);
  m_queuedBytes += bytes;
  m_queue.push_back(std::move(job));
  // Waking a thread is a system call: only wake the worker when it is asleep.
  const bool wake = m_workerWaiting;
  lock.unlock();
  if (wake) m_changed.notify_all();
}

void CorpusBuilder::workerLoop() {
  for (;;) {
    Job job;
    {
      std::unique_lock lock(m_mutex);
      if (!m_closing && m_queue.empty()) {
        m_workerWaiting = true;
        m_changed.wait(lock, [&] { return m_closing || !m_queue.empty(); });
        m_workerWaiting = false;
      }
      if (m_queue.empty()) return;  // closing and drained
      job = std::move(m_queue.front());
      m_queue.pop_front();
    }
    try {
      process(job);
    } catch (...) {
      std::lock_guard lock(m_mutex);
      m_workerError = std::current_exception();
      m_queue.clear();
      m_changed.notify_all();
      return;
    }
    bool wake = false;
    {
      std::lock_guard lock(m_mutex);
      m_queuedBytes -= job.text.size() + job.bag.size() * sizeof(job.bag[0]) + 64;
      // The reader waits until half the queue has drained, so it is woken once per 8 MB.
      wake = m_producerWaiting && m_queuedBytes < kMaxQueuedBytes / 2;
    }
    if (wake) m_changed.notify_all();
  }
}

void CorpusBuilder::stopWorker() {
  {
    std::lock_guard lock(m_mutex);
    m_closing = true;
  }
  m_changed.notify_all();
  if (m_worker.joinable()) m_worker.join();
  if (m_workerError) std::rethrow_exception(m_workerError);
}

void CorpusBuilder::countDocumentFrequencies(std::span<const std::int32_t> ids) {
  for (const auto id : ids) {
    const auto w = static_cast<std::size_t>(id);
    ++m_count[w];
    if (m_lastDocument[w] != m_processed) {
      m_lastDocument[w] = m_processed;
      ++m_df[w];
    }
  }
}

void CorpusBuilder::spill(std::span<const std::int32_t> ids, std::span<const std::uint32_t> begins,
                          std::span<const std::uint32_t> ends) {
  const auto n = static_cast<std::uint32_t>(ids.size());
  const std::uint8_t hasSpans = begins.empty() ? 0 : 1;
  writeAll(m_spill, &n, sizeof n);
  writeAll(m_spill, &hasSpans, sizeof hasSpans);
  writeAll(m_spill, ids.data(), ids.size_bytes());
  if (hasSpans) {
    writeAll(m_spill, begins.data(), begins.size_bytes());
    writeAll(m_spill, ends.data(), ends.size_bytes());
  }
}

void CorpusBuilder::process(const Job& job) {
  m_ids.clear();
  m_begins.clear();
  m_ends.clear();
  if (job.isBag) {
    for (const auto& [id, count] : job.bag) {
      m_summary.tokensSeen += count;
      if (m_options.stopWords.size() && m_options.stopWords.contains(m_words.ids()[static_cast<std::size_t>(id)])) {
        m_summary.stopWordTokens += count;
        continue;
      }
      m_ids.insert(m_ids.end(), static_cast<std::size_t>(count), id);
    }
  } else {
    m_tokenizer.tokenize(job.text, m_tokens);
    for (const auto& token : m_tokens) {
      ++m_summary.tokensSeen;
      if (m_options.stopWords.contains(token.word)) {
        ++m_summary.stopWordTokens;
        continue;
      }
      bool added = false;
      const auto id = m_words.intern(token.word, &added);
      if (added) {
        m_df.push_back(0);
        m_count.push_back(0);
        m_lastDocument.push_back(-1);
      }
      m_ids.push_back(id);
      m_begins.push_back(token.begin);
      m_ends.push_back(token.end);
    }
  }
  countDocumentFrequencies(m_ids);
  spill(m_ids, m_begins, m_ends);
  ++m_processed;
}

void CorpusBuilder::addText(const DocumentRecord& document) {
  if (m_finished) throw std::logic_error("CorpusBuilder::addText after finish");
  DocumentRecord record = document;
  record.index = m_summary.documents;
  record.hasText = true;
  m_sink.writeDocument(record);
  Job job;
  job.text.assign(document.text);
  enqueue(std::move(job));
  ++m_summary.documents;
}

void CorpusBuilder::setSourceVocabulary(std::vector<std::string> words) {
  if (m_words.size() != 0 || m_summary.documents != 0)
    throw std::logic_error("CorpusBuilder::setSourceVocabulary must come first");
  for (const auto& w : words) m_words.intern(w);
  m_df.assign(words.size(), 0);
  m_count.assign(words.size(), 0);
  m_lastDocument.assign(words.size(), -1);
  m_sourceVocabulary = words.size();
}

void CorpusBuilder::addBag(const DocumentRecord& document,
                           std::span<const std::pair<std::int32_t, std::int32_t>> wordCounts) {
  if (m_finished) throw std::logic_error("CorpusBuilder::addBag after finish");
  std::int64_t total = 0;
  for (const auto& [id, count] : wordCounts) {
    if (id < 0 || static_cast<std::size_t>(id) >= m_sourceVocabulary)
      throw std::out_of_range("word id outside the vocabulary");
    if (count < 0) throw std::out_of_range("negative word count");
    total += count;
    if (total > kMaxDocumentTokens) throw std::length_error("a document has more than 2^30 tokens");
  }
  DocumentRecord record = document;
  record.index = m_summary.documents;
  record.hasText = false;
  record.text = {};
  m_sink.writeDocument(record);
  Job job;
  job.isBag = true;
  job.bag.assign(wordCounts.begin(), wordCounts.end());
  enqueue(std::move(job));
  ++m_summary.documents;
}

CorpusSummary CorpusBuilder::finish() {
  if (m_finished) throw std::logic_error("CorpusBuilder::finish called twice");
  m_finished = true;
  stopWorker();
  const std::size_t seen = m_words.size();
  m_summary.distinctWords =
      static_cast<std::int64_t>(std::count_if(m_df.begin(), m_df.end(), [](auto df) { return df > 0; }));

  // Which words survive (vocabulary_prune.hpp): the rule the import dialog's preview applies too.
  const auto reasons = pruneVocabulary(m_df, m_count, m_summary.documents, m_options.prune);
  std::vector<std::int32_t> candidates;
  for (std::size_t w = 0; w < seen; ++w)
    if (reasons[w] == PruneReason::Kept) candidates.push_back(static_cast<std::int32_t>(w));

  // Final ids keep the order of first appearance (or the source vocabulary's order).
  std::vector<std::int32_t> remap(seen, -1);
  std::vector<VocabularyEntry> vocabulary;
  vocabulary.reserve(candidates.size());
  for (const auto w : candidates) {
    remap[static_cast<std::size_t>(w)] = static_cast<std::int32_t>(vocabulary.size());
    vocabulary.push_back({m_words.ids()[static_cast<std::size_t>(w)], m_df[static_cast<std::size_t>(w)],
                          m_count[static_cast<std::size_t>(w)]});
  }
  m_summary.vocabulary = static_cast<std::int64_t>(vocabulary.size());
  m_sink.writeVocabulary(vocabulary);
  vocabulary = {};
  m_df = {};
  m_lastDocument = {};

  if (std::fflush(m_spill) != 0 || std::fseek(m_spill, 0, SEEK_SET) != 0)
    throw std::runtime_error("cannot rewind the import's temporary file");
  std::vector<std::int32_t> ids, kept;
  std::vector<std::uint32_t> begins, ends, keptBegins, keptEnds;
  for (std::int64_t d = 0; d < m_summary.documents; ++d) {
    std::uint32_t n = 0;
    std::uint8_t hasSpans = 0;
    readAll(m_spill, &n, sizeof n);
    readAll(m_spill, &hasSpans, sizeof hasSpans);
    ids.resize(n);
    readAll(m_spill, ids.data(), n * sizeof(std::int32_t));
    if (hasSpans) {
      begins.resize(n);
      ends.resize(n);
      readAll(m_spill, begins.data(), n * sizeof(std::uint32_t));
      readAll(m_spill, ends.data(), n * sizeof(std::uint32_t));
    }
    kept.clear();
    keptBegins.clear();
    keptEnds.clear();
    for (std::uint32_t i = 0; i < n; ++i) {
      const auto id = remap[static_cast<std::size_t>(ids[i])];
      if (id < 0) continue;
      kept.push_back(id);
      if (hasSpans) {
        keptBegins.push_back(begins[i]);
        keptEnds.push_back(ends[i]);
      }
    }
    m_summary.prunedTokens += n - static_cast<std::int64_t>(kept.size());
    m_summary.tokens += static_cast<std::int64_t>(kept.size());
    if (kept.empty()) ++m_summary.emptyDocuments;
    m_sink.writeTokens(d, kept, keptBegins, keptEnds);
  }
  return m_summary;
}

}  // namespace latent::core
