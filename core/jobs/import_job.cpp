// SPDX-License-Identifier: GPL-3.0-or-later
// The four import orchestrations: read, build, write in short staging transactions, publish.
#include "core/jobs/import_job.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "core/io/metadata_file.hpp"
#include "core/store/corpus_store.hpp"
#include "core/store/dataset_staging.hpp"
#include "core/store/graph_store.hpp"
#include "core/store/ratings_store.hpp"
#include "core/store/table_store.hpp"

namespace latent::core {
namespace {

std::string absoluteSource(const std::filesystem::path& source) {
  std::error_code ec;
  const auto absolute = std::filesystem::absolute(source, ec);
  return (ec ? source : absolute).lexically_normal().string();
}

nlohmann::json pruneJson(const PruneOptions& p) {
  return {{"min_df", p.minDocumentFrequency}, {"max_df", p.maxDocumentFraction}, {"max_vocab", p.maxVocabulary}};
}

// Writes `rows` rows, kStagingBatchRows per transaction, the last batch in the publishing commit.
// `batchRows` lowers the rows per transaction for wide rows (a table's), to keep each near
// kStagingBatchBytes.
template <typename WriteRows>
std::int64_t writeStaged(StagedDataset& staging, std::size_t rows, const ImportControl& control, WriteRows&& write,
                         const nlohmann::json& summary, std::size_t batchRows = kStagingBatchRows) {
  std::size_t first = 0;
  for (; rows - first > batchRows; first += batchRows) {
    control.checkStop();
    staging.write([&](std::int64_t id) { write(id, first, batchRows); });
  }
  control.checkStop();
  return staging.publish(summary, [&](std::int64_t id) { write(id, first, rows - first); });
}

}  // namespace

void checkDatasetNameFree(Project& project, const std::string& name) {
  if (name.empty()) throw UsageError("a dataset needs a name (--name)");
  project.checkNameFree(name);
}

ImportResult importCorpus(Project& project, const CorpusImportRequest& request, const ImportControl& control) {
  checkDatasetNameFree(project, request.name);
  if (request.prune.minDocumentFrequency < 1) throw UsageError("--min-df must be at least 1");
  if (!(request.prune.maxDocumentFraction > 0.0 && request.prune.maxDocumentFraction <= 1.0))
    throw UsageError("--max-df must be a fraction in (0, 1]");
  if (request.prune.maxVocabulary < 0) throw UsageError("--max-vocab must be 0 (no cap) or more");

  CorpusReadOptions read = request.read;
  if (read.format == CorpusFormat::Auto) read.format = detectCorpusFormat(request.source);
  const std::string stopSpec = request.stopWords.value_or(isBagOfWords(read.format) ? "none" : "en");

  CorpusBuildOptions build;
  build.tokenizer = request.tokenizer;
  build.stopWords = StopWords::fromSpec(stopSpec);
  build.prune = request.prune;

  // The metadata file: which of its columns give the time, the label and named metadata. Those
  // it gives are no longer looked for in the corpus file.
  std::optional<MetadataFile> metadataFile;
  MetadataJoin join;
  if (!request.metadataFile.empty()) {
    metadataFile.emplace(request.metadataFile, request.metadataKey);
    join = planMetadataJoin(*metadataFile, read);
  }
  if (!read.metadataColumns.empty() && read.format != CorpusFormat::Csv && read.format != CorpusFormat::JsonLines)
    throw UsageError("--metadata-columns names columns of a CSV/TSV or JSON Lines corpus; for a " +
                     std::string(toString(read.format)) + " corpus give them in a metadata file (--metadata FILE)");
  if (request.labelSeparator.empty() == false && request.read.labelColumn.empty())
    throw UsageError("--label-separator splits the label column: name it with --label-column");

  nlohmann::json options = {{"stopwords", stopSpec},
                            {"prune", pruneJson(request.prune)},
                            {"text_column", read.textColumn},
                            {"title_column", read.titleColumn},
                            {"time_column", read.timeColumn},
                            {"label_column", read.labelColumn},
                            {"id_column", read.idColumn},
                            {"vocabulary", read.vocabulary.string()},
                            {"min_length", request.tokenizer.minLength},
                            {"keep_numbers", request.tokenizer.keepNumbers}};
  if (!request.labelSeparator.empty()) options["label_separator"] = request.labelSeparator;
  if (!request.read.metadataColumns.empty()) options["metadata_columns"] = request.read.metadataColumns;
  if (metadataFile) {
    options["metadata_file"] = absoluteSource(request.metadataFile);
    options["metadata_key"] = metadataFile->keyColumn();
  }

  StagedDataset staging(
      project,
      {request.name, DataKind::Corpus, absoluteSource(request.source), std::string(toString(read.format)), options},
      control.stop);
  StagedCorpusWriter writer(project, staging);
  DocumentMetadataSink metadataSink(writer, metadataFile ? &*metadataFile : nullptr, join);
  CorpusBuilder builder(std::move(build), metadataSink);
  readCorpus(request.source, read, builder, control);
  control.checkStop();
  const CorpusSummary s = builder.finish();
  nlohmann::json summary = {{"documents", s.documents},
                            {"tokens", s.tokens},
                            {"vocabulary", s.vocabulary},
                            {"distinct_words", s.distinctWords},
                            {"tokens_seen", s.tokensSeen},
                            {"stopword_tokens", s.stopWordTokens},
                            {"pruned_tokens", s.prunedTokens},
                            {"empty_documents", s.emptyDocuments},
                            {"has_text", !isBagOfWords(read.format)}};
  if (!metadataSink.metadataColumns().empty()) summary["metadata_columns"] = metadataSink.metadataColumns();
  if (metadataFile) {
    summary["metadata_matched"] = metadataSink.matchedDocuments();
    summary["metadata_unmatched"] = metadataSink.unmatchedDocuments();
  }
  control.checkStop();
  const auto id = staging.publish(summary, [&](std::int64_t datasetId) { writer.writePending(datasetId); });

  ImportResult result{project.dataset(id), {}};
  if (s.emptyDocuments > 0)
    result.notes.push_back(std::to_string(s.emptyDocuments) +
                           " documents have no words left after stop words and pruning");
  if (metadataFile && metadataSink.unmatchedDocuments() > 0)
    result.notes.push_back(std::to_string(metadataSink.unmatchedDocuments()) + " documents have no row in " +
                           metadataFile->displayName() + " (matched by its column '" + metadataFile->keyColumn() +
                           "'); their metadata is missing");
  if (metadataFile && metadataSink.matchedDocuments() < metadataFile->rowCount())
    result.notes.push_back(std::to_string(metadataFile->rowCount() - metadataSink.matchedDocuments()) + " rows of " +
                           metadataFile->displayName() + " match no document");
  return result;
}

ImportResult importGraph(Project& project, const GraphImportRequest& request, const ImportControl& control) {
  checkDatasetNameFree(project, request.name);
  GraphReadReport report;
  const Graph graph = readGraph(request.source, request.read, control, &report);
  control.checkStop();

  nlohmann::json options = {{"nodes_file", request.read.nodes.string()}};
  if (request.read.directed) options["directed_requested"] = *request.read.directed;
  nlohmann::json summary = {{"nodes", graph.nodeCount()},
                            {"edges", graph.edgeCount()},
                            {"directed", graph.directed},
                            {"attributes", graph.attributeNames},
                            {"self_loops_dropped", report.selfLoopsDropped},
                            {"duplicates_merged", report.duplicatesMerged}};
  if (!graph.relationNames.empty()) {
    summary["relations"] = graph.relationNames;
    nlohmann::json counts = nlohmann::json::array();
    for (std::size_t r = 0; r < graph.relationCount(); ++r) counts.push_back(graph.relationEdges(r).size());
    summary["relation_edges"] = counts;
  }
  if (!request.read.relationColumn.empty()) options["relation_column"] = request.read.relationColumn;
  if (!request.read.where.empty()) options["where"] = request.read.where;
  StagedDataset staging(
      project,
      {request.name, DataKind::Graph, absoluteSource(request.source), std::string(toString(report.format)), options},
      control.stop);
  const auto write = [&](std::int64_t datasetId, std::size_t first, std::size_t count) {
    writeGraphRows(project, datasetId, graph, first, count);
  };
  const auto id = writeStaged(staging, graphRowCount(graph), control, write, summary);
  return {project.dataset(id), report.notes};
}

ImportResult importRatings(Project& project, const RatingsImportRequest& request, const ImportControl& control) {
  checkDatasetNameFree(project, request.name);
  RatingsReadReport report;
  const Ratings ratings = readRatings(request.source, request.read, control, &report);
  control.checkStop();

  double minimum = 0, maximum = 0, sum = 0;
  std::map<double, std::int64_t> histogram;
  for (std::size_t i = 0; i < ratings.ratings.size(); ++i) {
    const double v = ratings.ratings[i].value;
    minimum = i == 0 ? v : std::min(minimum, v);
    maximum = i == 0 ? v : std::max(maximum, v);
    sum += v;
    if (histogram.size() <= 100) ++histogram[v];
  }
  const auto n = static_cast<double>(ratings.ratings.size());
  nlohmann::json summary = {
      {"users", ratings.userCount()},
      {"items", ratings.itemCount()},
      {"ratings", ratings.ratings.size()},
      {"min", minimum},
      {"max", maximum},
      {"mean", n > 0 ? sum / n : 0.0},
      {"density", ratings.userCount() && ratings.itemCount()
                      ? n / (static_cast<double>(ratings.userCount()) * static_cast<double>(ratings.itemCount()))
                      : 0.0},
      {"has_time", ratings.hasTime},
      {"variant", report.variant}};
  // A histogram of values when they are few and discrete (stars); else the GUI bins them.
  if (histogram.size() <= 100) {
    nlohmann::json bins = nlohmann::json::array();
    for (const auto& [value, count] : histogram) bins.push_back({value, count});
    summary["histogram"] = bins;
  }

  nlohmann::json options = {{"items_file", request.read.items.string()},
                            {"user_column", request.read.userColumn},
                            {"item_column", request.read.itemColumn},
                            {"rating_column", request.read.ratingColumn},
                            {"time_column", request.read.timeColumn}};
  StagedDataset staging(
      project,
      {request.name, DataKind::Ratings, absoluteSource(request.source), std::string(toString(report.format)), options},
      control.stop);
  const auto write = [&](std::int64_t datasetId, std::size_t first, std::size_t count) {
    writeRatingsRows(project, datasetId, ratings, first, count);
  };
  const auto id = writeStaged(staging, ratingsRowCount(ratings), control, write, summary);
  return {project.dataset(id), report.notes};
}

ImportResult importTable(Project& project, const TableImportRequest& request, const ImportControl& control) {
  checkDatasetNameFree(project, request.name);
  TableReadReport report;
  const NumericTable table = readTable(request.source, request.read, control, &report);
  control.checkStop();

  const nlohmann::json summary = tableSummary(table);
  nlohmann::json options = {{"id_column", request.read.idColumn},
                            {"label_column", request.read.labelColumn},
                            {"columns", request.read.columns}};
  StagedDataset staging(
      project,
      {request.name, DataKind::Table, absoluteSource(request.source), std::string(toString(report.format)), options},
      control.stop);
  const auto write = [&](std::int64_t datasetId, std::size_t first, std::size_t count) {
    writeTableRows(project, datasetId, table, first, count);
  };
  const std::size_t rowBytes = 64 + 8 * table.featureCount();
  const std::size_t batchRows = std::clamp<std::size_t>(kStagingBatchBytes / rowBytes, 1, kStagingBatchRows);
  const auto id = writeStaged(staging, tableRowCount(table), control, write, summary, batchRows);
  return {project.dataset(id), report.notes};
}

}  // namespace latent::core
