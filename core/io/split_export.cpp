// SPDX-License-Identifier: GPL-3.0-or-later
// LDA-C writing of the three parts of a document-completion split; CSV writing of a ratings or a
// numeric table's split.
#include "core/io/split_export.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <stdexcept>

#include "core/eval/row_split.hpp"
#include "core/io/csv_writer.hpp"

namespace latent::core {
namespace {

void writeLdac(const Corpus& corpus, const std::filesystem::path& file) {
  std::ofstream out(file);
  if (!out) throw std::runtime_error("cannot write " + file.string());
  std::map<std::int32_t, std::int64_t> counts;
  for (std::size_t d = 0; d < corpus.documentCount(); ++d) {
    counts.clear();
    for (const auto w : corpus.document(d)) ++counts[w];
    out << counts.size();
    for (const auto& [w, c] : counts) out << ' ' << w << ':' << c;
    out << '\n';
  }
  if (!out) throw std::runtime_error("writing " + file.string() + " failed");
}

void writeRatingRows(const Ratings& ratings, const std::vector<Rating>& rows, const std::filesystem::path& file) {
  std::ofstream out(file);
  if (!out) throw std::runtime_error("cannot write " + file.string());
  CsvWriter csv(out);
  csv.field("user").field("item").field("rating").endRow();
  for (const auto& r : rows)
    csv.field(ratings.userIds[static_cast<std::size_t>(r.user)])
        .field(ratings.itemIds[static_cast<std::size_t>(r.item)])
        .field(r.value)
        .endRow();
  if (!out) throw std::runtime_error("writing " + file.string() + " failed");
}

void writeTableRowsCsv(const NumericTable& table, const std::vector<std::int64_t>& rows, const std::string& rowColumn,
                       const std::filesystem::path& file) {
  std::ofstream out(file);
  if (!out) throw std::runtime_error("cannot write " + file.string());
  CsvWriter csv(out);
  csv.field(rowColumn);
  for (const auto& name : table.featureNames) csv.field(name);
  if (table.hasLabels()) csv.field(table.labelName.empty() ? std::string("label") : table.labelName);
  csv.endRow();
  for (const auto r : rows) {
    const auto row = static_cast<std::size_t>(r);
    csv.field(table.rowNames[row]);
    for (Eigen::Index f = 0; f < table.values.cols(); ++f) csv.field(table.values(static_cast<Eigen::Index>(r), f));
    if (table.hasLabels()) csv.field(table.rowLabels[row]);
    csv.endRow();
  }
  if (!out) throw std::runtime_error("writing " + file.string() + " failed");
}

}  // namespace

void writeTableSplit(const NumericTable& table, const std::vector<std::int64_t>& heldoutRows,
                     const std::string& rowColumn, const std::filesystem::path& folder) {
  std::filesystem::create_directories(folder);
  writeTableRowsCsv(table, trainingRows(table.rowCount(), heldoutRows), rowColumn, folder / "train.csv");
  writeTableRowsCsv(table, heldoutRows, rowColumn, folder / "heldout.csv");
}

void writeRatingSplit(const Ratings& ratings, const RatingSplit& split, const std::filesystem::path& folder) {
  std::filesystem::create_directories(folder);
  writeRatingRows(ratings, split.train, folder / "train.csv");
  writeRatingRows(ratings, split.test, folder / "heldout.csv");
}

void writeHeldoutSplit(const CorpusSplit& split, const std::filesystem::path& folder) {
  std::filesystem::create_directories(folder);
  writeLdac(split.train, folder / "train.ldac");
  writeLdac(split.heldout.observed, folder / "observed.ldac");
  writeLdac(split.heldout.scored, folder / "scored.ldac");
  {
    std::ofstream vocab(folder / "vocab.txt");
    for (const auto& w : split.train.words) vocab << w << '\n';
  }
  std::ofstream documents(folder / "documents.csv");
  CsvWriter csv(documents);
  csv.field("part").field("row").field("document").field("corpus_index").endRow();
  for (std::size_t d = 0; d < split.train.documentCount(); ++d)
    csv.field("train").field(d).field(split.train.documentIds[d]).field(split.trainDocuments[d]).endRow();
  for (std::size_t d = 0; d < split.heldout.size(); ++d)
    csv.field("heldout")
        .field(d)
        .field(split.heldout.observed.documentIds[d])
        .field(split.heldout.documents[d])
        .endRow();
}

}  // namespace latent::core
