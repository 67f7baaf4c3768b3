// SPDX-License-Identifier: GPL-3.0-or-later
// What the harmoniums share.
#include "core/models/harmonium/harmonium_support.hpp"

#include <cmath>
#include <cstdio>
#include <numeric>
#include <span>

#include "core/eval/row_split.hpp"
#include "core/util/errors.hpp"
#include "core/util/random.hpp"

namespace latent::core::harmonium {
namespace {

// Epoch orders draw from streams after every other stream of a seed's run.
constexpr std::uint64_t kOrderStreams = std::uint64_t{3} << 61;

// The rows of a 0/1 table as sparse binary cases.
BinaryData tableRows(const NumericTable& table, const std::vector<std::int64_t>& rows) {
  BinaryData out(static_cast<Eigen::Index>(rows.size()), table.values.cols());
  for (std::size_t r = 0; r < rows.size(); ++r) {
    out.startVec(static_cast<Eigen::Index>(r));
    for (Eigen::Index c = 0; c < table.values.cols(); ++c)
      if (table.values(rows[r], c) != 0.0) out.insertBack(static_cast<Eigen::Index>(r), c) = 1.0;
  }
  out.finalize();
  return out;
}

void requireBinaryTable(const NumericTable& table, const std::string& model) {
  for (Eigen::Index c = 0; c < table.values.cols(); ++c)
    for (Eigen::Index r = 0; r < table.values.rows(); ++r)
      if (const double v = table.values(r, c); v != 0.0 && v != 1.0)
        throw UsageError(model + " models 0/1 data, but column '" + table.featureNames[static_cast<std::size_t>(c)] +
                         "' has " + shortNumber(v) + " in row '" + table.rowNames[static_cast<std::size_t>(r)] + "'");
}

}  // namespace

std::string shortNumber(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

double learningRateAt(double rate, double decay, std::int64_t epoch) {
  return rate * std::pow(decay, static_cast<double>(epoch - 1));
}

void shuffledOrder(std::vector<Eigen::Index>& order, Eigen::Index cases, std::uint64_t seed, std::int64_t epoch) {
  order.resize(static_cast<std::size_t>(cases));
  std::iota(order.begin(), order.end(), Eigen::Index{0});
  Rng rng(seed, kOrderStreams + static_cast<std::uint64_t>(epoch));
  rng.shuffle(std::span<Eigen::Index>(order));
}

WordCounts heldoutWordCounts(const HeldoutDocuments& heldout, Eigen::Index V) {
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(heldout.observed.tokenCount() + heldout.scored.tokenCount());
  for (std::size_t i = 0; i < heldout.size(); ++i) {
    for (const auto w : heldout.observed.document(i)) entries.emplace_back(static_cast<Eigen::Index>(i), w, 1.0);
    for (const auto w : heldout.scored.document(i)) entries.emplace_back(static_cast<Eigen::Index>(i), w, 1.0);
  }
  WordCounts counts(static_cast<Eigen::Index>(heldout.size()), V);
  counts.setFromTriplets(entries.begin(), entries.end());
  return counts;
}

std::vector<NamedMatrix> parameterMatrices(const RbmParameters& p) {
  return {{hidden::kWeights, p.weights}, {hidden::kVisibleBias, p.visibleBias}, {hidden::kHiddenBias, p.hiddenBias}};
}

BinaryCases binaryCases(const FitData& data, const std::string& model) {
  BinaryCases cases;
  if (data.table) {
    const NumericTable& table = *data.table;
    requireBinaryTable(table, model);
    const auto rows = static_cast<std::size_t>(table.values.rows());
    cases.train = tableRows(table, trainingRows(rows, data.heldoutRows));
    cases.heldout = tableRows(table, data.heldoutRows);
    cases.visibleNames = table.featureNames;
    return cases;
  }
  if (!data.corpus) throw UsageError(model + " fits a corpus or a 0/1 table");
  cases.train = occurrences(wordCounts(*data.corpus));
  if (data.heldout && !data.heldout->empty())
    cases.heldout = occurrences(heldoutWordCounts(*data.heldout, cases.train.cols()));
  else
    cases.heldout.resize(0, cases.train.cols());
  return cases;
}

Eigen::MatrixXd activationsInDataOrder(const FitData& data, const Eigen::MatrixXd& train,
                                       const Eigen::MatrixXd& heldout) {
  if (!data.table) return activationsInCorpusOrder(data, train, heldout);
  const auto trainRows = trainingRows(static_cast<std::size_t>(data.table->values.rows()), data.heldoutRows);
  Eigen::MatrixXd out(train.rows() + heldout.rows(), train.cols());
  for (std::size_t r = 0; r < trainRows.size(); ++r) out.row(trainRows[r]) = train.row(static_cast<Eigen::Index>(r));
  for (std::size_t r = 0; r < data.heldoutRows.size(); ++r)
    out.row(data.heldoutRows[r]) = heldout.row(static_cast<Eigen::Index>(r));
  return out;
}

Eigen::MatrixXd activationsInCorpusOrder(const FitData& data, const Eigen::MatrixXd& train,
                                         const Eigen::MatrixXd& heldout) {
  if (data.trainDocuments.empty()) return train;  // the corpus is the full one
  Eigen::MatrixXd full = Eigen::MatrixXd::Zero(data.fullDocumentCount, train.cols());
  for (std::size_t d = 0; d < data.trainDocuments.size(); ++d)
    full.row(data.trainDocuments[d]) = train.row(static_cast<Eigen::Index>(d));
  if (data.heldout)
    for (std::size_t i = 0; i < data.heldout->size() && static_cast<Eigen::Index>(i) < heldout.rows(); ++i)
      full.row(data.heldout->documents[i]) = heldout.row(static_cast<Eigen::Index>(i));
  return full;
}

}  // namespace latent::core::harmonium
