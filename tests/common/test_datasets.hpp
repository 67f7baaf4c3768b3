// SPDX-License-Identifier: GPL-3.0-or-later
// Datasets made in memory and written through the real store, for tests that must not depend
// on the importers.
#pragma once

#include <string>
#include <vector>

#include "core/data/corpus.hpp"
#include "core/data/corpus_builder.hpp"
#include "core/store/corpus_store.hpp"
#include "core/store/project.hpp"

namespace latent::test {

// What a stored corpus's documents carry besides their text (core/data/corpus.hpp): times, labels
// (several per document with a separator) and metadata, one JSON object per document.
struct StoredFields {
  std::vector<std::string> times, labels, metadata;
  std::string labelSeparator;
};

inline std::int64_t addCorpusWithFields(core::Project& project, const std::string& name,
                                        const std::vector<std::string>& texts, core::CorpusBuildOptions options,
                                        const StoredFields& fields) {
  core::Transaction tx(project.db());
  nlohmann::json datasetOptions = nlohmann::json::object();
  if (!fields.labelSeparator.empty()) datasetOptions["label_separator"] = fields.labelSeparator;
  const auto id = project.createDataset(name, core::DataKind::Corpus, "memory", "lines", datasetOptions);
  core::CorpusWriter writer(project, id);
  core::CorpusBuilder builder(std::move(options), writer);
  for (std::size_t i = 0; i < texts.size(); ++i) {
    const std::string docId = std::to_string(i + 1);
    const std::string title = "doc " + docId;
    core::DocumentRecord record;
    record.id = docId;
    record.title = title;
    record.text = texts[i];
    if (i < fields.times.size()) record.time = fields.times[i];
    if (i < fields.labels.size()) record.label = fields.labels[i];
    if (i < fields.metadata.size()) record.metadata = fields.metadata[i];
    builder.addText(record);
  }
  const auto summary = builder.finish();
  project.setDatasetSummary(
      id, {{"documents", summary.documents}, {"tokens", summary.tokens}, {"vocabulary", summary.vocabulary}});
  tx.commit();
  return id;
}

// Each string is one document's text, tokenised by the real tokenizer, no stop words.
// `times`, when given, one per document (a year or a date).
inline std::int64_t addCorpus(core::Project& project, const std::string& name, const std::vector<std::string>& texts,
                              core::CorpusBuildOptions options = {}, const std::vector<std::string>& times = {}) {
  return addCorpusWithFields(project, name, texts, std::move(options), {times, {}, {}, {}});
}

// A corpus made in memory (a generated one) written as text, its word w as "word<w>", through the
// same store: what the end-to-end model tests fit through the job. Its times, labels and metadata
// go with it.
inline std::int64_t addCorpusOf(core::Project& project, const std::string& name, const core::Corpus& corpus) {
  std::vector<std::string> texts;
  for (std::size_t d = 0; d < corpus.documentCount(); ++d) {
    std::string text;
    for (const auto w : corpus.document(d)) text += "word" + std::to_string(w) + " ";
    texts.push_back(std::move(text));
  }
  StoredFields fields{corpus.times, corpus.labels, {}, corpus.labelSeparator};
  if (!corpus.metadata.empty()) {
    for (std::size_t d = 0; d < corpus.documentCount(); ++d) {
      nlohmann::ordered_json object = nlohmann::ordered_json::object();
      for (const auto& column : corpus.metadata)
        if (!column.values[d].empty()) object[column.name] = column.values[d];
      fields.metadata.push_back(object.empty() ? std::string() : object.dump());
    }
  }
  return addCorpusWithFields(project, name, texts, {}, fields);
}

}  // namespace latent::test
