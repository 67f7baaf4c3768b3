// SPDX-License-Identifier: GPL-3.0-or-later
// CorpusWriter and the corpus readers.
#include "core/store/corpus_store.hpp"

#include <algorithm>

#include "core/data/metadata_columns.hpp"
#include "core/store/blob.hpp"
#include "core/store/damaged_project.hpp"
#include "core/store/document_link_store.hpp"
#include "core/util/errors.hpp"

namespace latent::core {

CorpusWriter::CorpusWriter(Project& project, std::int64_t datasetId)
    : m_dataset(datasetId),
      m_insertDocument(
          project.db().prepare("INSERT INTO documents (dataset_id, doc_index, external_id, title, time, label, text, "
                               "metadata) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)")),
      m_insertWord(project.db().prepare(
          "INSERT INTO vocabulary (dataset_id, word_id, word, doc_freq, count) VALUES (?1, ?2, ?3, ?4, ?5)")),
      m_insertTokens(project.db().prepare(
          "INSERT INTO tokens (dataset_id, doc_index, word_ids, span_begins, span_ends) VALUES (?1, ?2, ?3, ?4, ?5)")) {
}

void CorpusWriter::writeDocument(const DocumentRecord& d) {
  auto& s = m_insertDocument;
  s.bind(1, m_dataset).bind(2, d.index).bind(3, d.id).bind(4, d.title);
  if (d.time.empty())
    s.bindNull(5);
  else
    s.bind(5, d.time);
  if (d.label.empty())
    s.bindNull(6);
  else
    s.bind(6, d.label);
  if (d.hasText)
    s.bind(7, d.text);
  else
    s.bindNull(7);
  if (d.metadata.empty())
    s.bindNull(8);
  else
    s.bind(8, d.metadata);
  s.run();
}

void CorpusWriter::writeVocabulary(std::span<const VocabularyEntry> vocabulary) { writeWords(vocabulary, 0); }

void CorpusWriter::writeWords(std::span<const VocabularyEntry> words, std::int64_t firstId) {
  std::int64_t id = firstId;
  for (const auto& v : words) {
    m_insertWord.bind(1, m_dataset).bind(2, id++).bind(3, v.word).bind(4, v.documentFrequency).bind(5, v.count);
    m_insertWord.run();
  }
}

void CorpusWriter::writeTokens(std::int64_t document, std::span<const std::int32_t> wordIds,
                               std::span<const std::uint32_t> begins, std::span<const std::uint32_t> ends) {
  auto& s = m_insertTokens;
  s.bind(1, m_dataset).bind(2, document).bindBlob(3, wordIds);
  if (begins.empty() && !wordIds.empty()) {
    s.bindNull(4).bindNull(5);
  } else {
    s.bindBlob(4, begins).bindBlob(5, ends);
  }
  s.run();
}

void StagedCorpusWriter::writeDocument(const DocumentRecord& d) {
  m_documents.push_back({d.index, std::string(d.id), std::string(d.title), std::string(d.time), std::string(d.label),
                         std::string(d.text), std::string(d.metadata), d.hasText});
  ++m_rows;
  m_bytes += d.id.size() + d.title.size() + d.time.size() + d.label.size() + d.text.size() + d.metadata.size() + 64;
  flushWhenFull();
}

void StagedCorpusWriter::writeVocabulary(std::span<const VocabularyEntry> vocabulary) {
  std::int64_t id = 0;
  for (const auto& v : vocabulary) {
    if (m_words.empty()) m_firstWord = id;
    m_words.push_back(v);
    ++id;
    ++m_rows;
    m_bytes += v.word.size() + 32;
    flushWhenFull();
  }
}

void StagedCorpusWriter::writeTokens(std::int64_t document, std::span<const std::int32_t> wordIds,
                                     std::span<const std::uint32_t> begins, std::span<const std::uint32_t> ends) {
  m_tokens.push_back(
      {document, {wordIds.begin(), wordIds.end()}, {begins.begin(), begins.end()}, {ends.begin(), ends.end()}});
  ++m_rows;
  m_bytes += wordIds.size_bytes() + begins.size_bytes() + ends.size_bytes() + 32;
  flushWhenFull();
}

void StagedCorpusWriter::flushWhenFull() {
  if (m_rows < kStagingBatchRows && m_bytes < kStagingBatchBytes) return;
  m_staging.write([this](std::int64_t datasetId) { writePending(datasetId); });
  m_documents.clear();
  m_words.clear();
  m_tokens.clear();
  m_rows = m_bytes = 0;
}

void StagedCorpusWriter::writePending(std::int64_t datasetId) {
  // Documents before the tokens that refer to them; the lists are cleared only once committed,
  // since a transaction that found the lock busy runs this again.
  CorpusWriter writer(m_project, datasetId);
  for (const auto& d : m_documents) {
    DocumentRecord record;
    record.index = d.index;
    record.id = d.id;
    record.title = d.title;
    record.time = d.time;
    record.label = d.label;
    record.text = d.text;
    record.metadata = d.metadata;
    record.hasText = d.hasText;
    writer.writeDocument(record);
  }
  writer.writeWords(m_words, m_firstWord);
  for (const auto& t : m_tokens) writer.writeTokens(t.document, t.wordIds, t.begins, t.ends);
}

namespace {

std::string documentRow(std::int64_t datasetId, std::int64_t index) {
  return "dataset " + std::to_string(datasetId) + ", document " + std::to_string(index);
}

void checkWordIds(const Project& project, std::int64_t datasetId, std::int64_t document,
                  std::span<const std::int32_t> ids, std::size_t vocabularySize) {
  for (const auto id : ids)
    if (id < 0 || static_cast<std::size_t>(id) >= vocabularySize)
      checkStoredIndex(project, "tokens", documentRow(datasetId, document), "word id", static_cast<std::uint32_t>(id),
                       vocabularySize, "words of the vocabulary");
}

std::vector<std::int32_t> storedArray(const Project& project, std::string_view table, const std::string& row,
                                      std::string_view column, std::span<const std::byte> blob) {
  if (blob.size() % sizeof(std::int32_t) != 0)
    throw damagedProject(
        project, table, row,
        std::string(column) + " holds " + std::to_string(blob.size()) + " bytes, not a whole number of 4-byte values");
  return blobToVector<std::int32_t>(blob);
}

}  // namespace

namespace {

// The corpus with its documents' words (withTokens), or with their fields alone.
Corpus loadCorpusRows(Project& project, std::int64_t datasetId, bool withTokens) {
  const auto dataset = project.dataset(datasetId);
  requireSoundDataset(project, dataset);
  Corpus corpus;
  if (withTokens)
    for (auto& v : loadVocabulary(project, datasetId)) corpus.words.push_back(std::move(v.word));
  auto docs = project.db().prepare(
      withTokens
          ? "SELECT d.external_id, d.title, t.word_ids, d.doc_index, d.time, d.label, d.metadata FROM documents d "
            "LEFT JOIN tokens t "
            "ON t.dataset_id = d.dataset_id AND t.doc_index = d.doc_index WHERE d.dataset_id = ?1 ORDER BY d.doc_index"
          : "SELECT d.external_id, d.title, NULL, d.doc_index, d.time, d.label, d.metadata FROM documents d "
            "WHERE d.dataset_id = ?1 ORDER BY d.doc_index");
  docs.bind(1, datasetId);
  MetadataColumnsCollector metadata;
  while (docs.step()) {
    const auto index = docs.integer(3);
    const auto row = documentRow(datasetId, index);
    checkStoredPosition(project, "documents", row, "doc_index", index, corpus.documentCount());
    std::vector<std::int32_t> ids;
    if (withTokens) {
      ids = storedArray(project, "tokens", row, "word_ids", docs.blob(2));
      checkWordIds(project, datasetId, index, ids, corpus.vocabularySize());
    }
    corpus.addDocument(docs.text(0), docs.text(1), ids);
    corpus.times.push_back(docs.text(4));
    corpus.labels.push_back(docs.text(5));
    if (!metadata.addText(docs.text(6)))
      throw damagedProject(project, "documents", row, "metadata is not a JSON object of texts and numbers");
  }
  // A corpus imported without a time (label) column keeps no times (labels).
  const auto allEmpty = [](const std::vector<std::string>& v) {
    return std::all_of(v.begin(), v.end(), [](const auto& t) { return t.empty(); });
  };
  if (allEmpty(corpus.times)) corpus.times.clear();
  if (allEmpty(corpus.labels)) corpus.labels.clear();
  corpus.metadata = metadata.finish();
  if (const auto it = dataset.options.find("label_separator");
      it != dataset.options.end() && it->is_string() && !corpus.labels.empty())
    corpus.labelSeparator = it->get<std::string>();
  if (withTokens) corpus.links = loadDocumentLinks(project, datasetId, corpus.documentCount());
  return corpus;
}

}  // namespace

Corpus loadCorpus(Project& project, std::int64_t datasetId) { return loadCorpusRows(project, datasetId, true); }

Corpus loadDocumentFields(Project& project, std::int64_t datasetId) {
  return loadCorpusRows(project, datasetId, false);
}

std::vector<DocumentHeader> listDocuments(Project& project, std::int64_t datasetId) {
  auto s = project.db().prepare(
      "SELECT d.doc_index, d.external_id, d.title, d.time, d.label, coalesce(length(t.word_ids), 0) / 4, "
      "d.text IS NOT NULL, d.metadata FROM documents d LEFT JOIN tokens t ON t.dataset_id = d.dataset_id AND "
      "t.doc_index = "
      "d.doc_index "
      "WHERE d.dataset_id = ?1 ORDER BY d.doc_index");
  s.bind(1, datasetId);
  std::vector<DocumentHeader> out;
  while (s.step())
    out.push_back(
        {s.integer(0), s.text(1), s.text(2), s.text(3), s.text(4), s.text(7), s.integer(5), s.integer(6) != 0});
  return out;
}

StoredDocument loadDocument(Project& project, std::int64_t datasetId, std::int64_t index) {
  auto s = project.db().prepare(
      "SELECT d.doc_index, d.external_id, d.title, d.time, d.label, coalesce(length(t.word_ids), 0) / 4, "
      "d.text IS NOT NULL, d.text, "
      "t.word_ids, t.span_begins, t.span_ends, d.metadata FROM documents d LEFT JOIN tokens t "
      "ON t.dataset_id = d.dataset_id AND t.doc_index = d.doc_index WHERE d.dataset_id = ?1 AND d.doc_index = ?2");
  s.bind(1, datasetId).bind(2, index);
  if (!s.step()) throw UsageError("no document " + std::to_string(index) + " in dataset " + std::to_string(datasetId));
  StoredDocument doc;
  doc.header = {s.integer(0), s.text(1), s.text(2), s.text(3), s.text(4), s.text(11), s.integer(5), s.integer(6) != 0};
  doc.text = s.text(7);
  const auto row = documentRow(datasetId, index);
  doc.wordIds = storedArray(project, "tokens", row, "word_ids", s.blob(8));
  const auto begins = storedArray(project, "tokens", row, "span_begins", s.blob(9));
  const auto ends = storedArray(project, "tokens", row, "span_ends", s.blob(10));
  auto vocabularySize = project.db().prepare("SELECT count(*) FROM vocabulary WHERE dataset_id = ?1");
  vocabularySize.bind(1, datasetId);
  checkWordIds(project, datasetId, index, doc.wordIds,
               vocabularySize.step() ? static_cast<std::size_t>(vocabularySize.integer(0)) : 0);
  // The reader cuts the text at these spans: each must lie within it, in order, one per token.
  if (!begins.empty() || !ends.empty()) {
    if (begins.size() != doc.wordIds.size() || ends.size() != doc.wordIds.size())
      throw damagedProject(project, "tokens", row, "the spans do not match the tokens in number");
    for (std::size_t i = 0; i < begins.size(); ++i) {
      const auto b = static_cast<std::uint32_t>(begins[i]), e = static_cast<std::uint32_t>(ends[i]);
      if (b > e || e > doc.text.size())
        throw damagedProject(project, "tokens", row,
                             "token " + std::to_string(i) + "'s span [" + std::to_string(b) + ", " + std::to_string(e) +
                                 ") lies outside the document's " + std::to_string(doc.text.size()) + " bytes of text");
      doc.begins.push_back(b);
      doc.ends.push_back(e);
    }
  }
  return doc;
}

std::vector<VocabularyEntry> loadVocabulary(Project& project, std::int64_t datasetId) {
  auto s = project.db().prepare(
      "SELECT word, doc_freq, count, word_id FROM vocabulary WHERE dataset_id = ?1 ORDER BY word_id");
  s.bind(1, datasetId);
  std::vector<VocabularyEntry> out;
  while (s.step()) {
    checkStoredPosition(project, "vocabulary", "dataset " + std::to_string(datasetId) + ", word " + s.text(0),
                        "word_id", s.integer(3), out.size());
    out.push_back({s.text(0), s.integer(1), s.integer(2)});
  }
  return out;
}

}  // namespace latent::core
