// SPDX-License-Identifier: GPL-3.0-or-later
// Exports of lda-hmm's syntactic classes (000 §27.4.3): each class's words, the transitions between
// classes, and every token's class and probability of being a content word.
#include <string>

#include "core/io/csv_writer.hpp"
#include "core/io/run_export_detail.hpp"
#include "core/results/topic_results.hpp"
#include "core/store/corpus_store.hpp"
#include "core/store/run_results.hpp"
#include "core/util/errors.hpp"

namespace latent::core::detail {

std::int64_t exportClassWord(Project& project, const RunRecord& run, std::ostream& out,
                             std::optional<std::int64_t> iteration) {
  const auto matrix = chooseMatrix(project, run, topic::kClassWord, iteration);
  const auto vocabulary = loadVocabulary(project, run.datasetId);
  if (!matrix || static_cast<std::size_t>(matrix->values.cols()) != vocabulary.size())
    throw UsageError("run " + std::to_string(run.id) + " has no class-word matrix");
  const auto& values = matrix->values;
  CsvWriter csv(out);
  csv.field("class").field("word").field("probability").endRow();
  for (Eigen::Index c = 0; c < values.rows(); ++c)
    for (Eigen::Index v = 0; v < values.cols(); ++v)
      csv.field(static_cast<std::int64_t>(c))
          .field(vocabulary[static_cast<std::size_t>(v)].word)
          .field(values(c, v))
          .endRow();
  return matrix->iteration;
}

std::int64_t exportClassTransitions(Project& project, const RunRecord& run, std::ostream& out,
                                    std::optional<std::int64_t> iteration) {
  const auto matrix = chooseMatrix(project, run, topic::kClassTransitions, iteration);
  if (!matrix) throw UsageError("run " + std::to_string(run.id) + " has no class transitions");
  const auto& values = matrix->values;
  CsvWriter csv(out);
  csv.field("from_class").field("to_class").field("probability").endRow();
  for (Eigen::Index a = 0; a < values.rows(); ++a)
    for (Eigen::Index c = 0; c < values.cols(); ++c)
      csv.field(static_cast<std::int64_t>(a)).field(static_cast<std::int64_t>(c)).field(values(a, c)).endRow();
  return matrix->iteration;
}

std::int64_t exportTokenClasses(Project& project, const RunRecord& run, std::ostream& out,
                                std::optional<std::int64_t>) {
  const auto vocabulary = loadVocabulary(project, run.datasetId);
  const auto documents = listDocuments(project, run.datasetId);
  CsvWriter csv(out);
  csv.field("document").field("position").field("word").field("topic").field("class").field("content_probability");
  csv.field("begin").field("end").endRow();
  for (const auto& header : documents) {
    const auto classes = loadTokenValues(project, run.id, topic::kTokenClass, header.index);
    if (classes.empty()) continue;  // a held-out document
    const auto topics = loadTokenTopics(project, run.id, header.index);
    const auto content = loadTokenValues(project, run.id, topic::kTokenContentProbability, header.index);
    const auto doc = loadDocument(project, run.datasetId, header.index);
    for (std::size_t i = 0; i < classes.size() && i < doc.wordIds.size(); ++i) {
      csv.field(header.id)
          .field(static_cast<std::int64_t>(i))
          .field(vocabulary[static_cast<std::size_t>(doc.wordIds[i])].word);
      if (i < topics.size())
        csv.field(static_cast<std::int64_t>(topics[i]));
      else
        csv.field("");
      csv.field(static_cast<std::int64_t>(classes[i]));
      if (i < content.size())
        csv.field(static_cast<double>(content[i]));
      else
        csv.field("");
      if (i < doc.begins.size())
        csv.field(static_cast<std::int64_t>(doc.begins[i])).field(static_cast<std::int64_t>(doc.ends[i]));
      else
        csv.field("").field("");
      csv.endRow();
    }
  }
  return -1;
}

}  // namespace latent::core::detail
