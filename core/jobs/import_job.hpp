// SPDX-License-Identifier: GPL-3.0-or-later
// Importing a file into a project: all of it, or (on any error) nothing. The rows are written in
// short transactions as a staging dataset that readers do not see, published in one last commit
// (store/dataset_staging.hpp), so other processes go on writing to the project meanwhile.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/data/corpus_builder.hpp"
#include "core/io/corpus_import.hpp"
#include "core/io/graph_import.hpp"
#include "core/io/ratings_import.hpp"
#include "core/io/table_import.hpp"
#include "core/store/project.hpp"

namespace latent::core {

struct CorpusImportRequest {
  std::string name;
  std::filesystem::path source;
  CorpusReadOptions read;
  // "en", "none" or a file; unset: "en" for text formats, "none" for bag-of-words formats
  // (their vocabulary was chosen by whoever made them).
  std::optional<std::string> stopWords;
  PruneOptions prune;
  TokenizerOptions tokenizer;
  // Several labels per document in the label column, separated by this (";"); empty: one label.
  std::string labelSeparator;
  // A CSV/TSV of metadata joined to the documents (io/metadata_file.hpp) by `metadataKey` (empty:
  // "id", else "file", else its first column). The time and label columns are taken from it when it
  // has them; its other columns become metadata (only those of read.metadataColumns when given).
  std::filesystem::path metadataFile;
  std::string metadataKey;
};

struct GraphImportRequest {
  std::string name;
  std::filesystem::path source;
  GraphReadOptions read;
};

struct RatingsImportRequest {
  std::string name;
  std::filesystem::path source;
  RatingsReadOptions read;
};

struct TableImportRequest {
  std::string name;
  std::filesystem::path source;
  TableReadOptions read;
};

struct ImportResult {
  DatasetInfo dataset;             // as stored, summary included
  std::vector<std::string> notes;  // choices the importer made, for the user
};

// Each throws InputError (bad file), UsageError (bad request, such as a taken name) or Cancelled,
// and then the project is as it was: what the import had written is deleted again. A stop while
// waiting for another process's write lock is a Cancelled too.
ImportResult importCorpus(Project& project, const CorpusImportRequest& request, const ImportControl& control = {});
ImportResult importGraph(Project& project, const GraphImportRequest& request, const ImportControl& control = {});
ImportResult importRatings(Project& project, const RatingsImportRequest& request, const ImportControl& control = {});
ImportResult importTable(Project& project, const TableImportRequest& request, const ImportControl& control = {});

// Checks that a dataset name is free before any reading starts (throws UsageError).
void checkDatasetNameFree(Project& project, const std::string& name);

}  // namespace latent::core
