// SPDX-License-Identifier: GPL-3.0-or-later
// What the harmoniums share.
#include "core/models/harmonium/harmonium_support.hpp"

#include <cmath>
#include <numeric>
#include <span>

#include "core/util/random.hpp"

namespace latent::core::harmonium {
namespace {

// Epoch orders draw from streams after every other stream of a seed's run.
constexpr std::uint64_t kOrderStreams = std::uint64_t{3} << 61;

}  // namespace

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
