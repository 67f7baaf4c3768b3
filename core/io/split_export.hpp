// SPDX-License-Identifier: GPL-3.0-or-later
// Writes a corpus's, a ratings table's or a numeric table's held-out split to files, so that other
// programs (the peer benchmarks) and scripts train and score on exactly the documents,
// half-documents, ratings or rows we do.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/data/numeric_table.hpp"
#include "core/data/ratings.hpp"
#include "core/eval/heldout.hpp"
#include "core/eval/rating_split.hpp"

namespace latent::core {

// In `folder` (created when missing): train.ldac, observed.ldac and scored.ldac in LDA-C format
// ("N id:count ...", 0-based word ids, one document per line, held-out documents in the same order
// in observed and scored), vocab.txt (line k+1 = word id k), and documents.csv
// ("part,row,document,corpus_index": which document of the corpus each line is).
void writeHeldoutSplit(const CorpusSplit& split, const std::filesystem::path& folder);

// In `folder` (created when missing): train.csv and heldout.csv, each `user,item,rating` with the
// ids of the imported file, the ratings in dataset order.
void writeRatingSplit(const Ratings& ratings, const RatingSplit& split, const std::filesystem::path& folder);

// In `folder` (created when missing): train.csv and heldout.csv, each with the header row (the
// row-name column, named after the import's id column or `row`, then the features, then the label
// column when the table has one) and the rows of its part in table order. `heldoutRows`: sorted
// row indices (eval/row_split.hpp). Values are written in their shortest exact form.
void writeTableSplit(const NumericTable& table, const std::vector<std::int64_t>& heldoutRows,
                     const std::string& rowColumn, const std::filesystem::path& folder);

}  // namespace latent::core
