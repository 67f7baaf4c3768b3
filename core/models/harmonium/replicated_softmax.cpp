// SPDX-License-Identifier: GPL-3.0-or-later
// Replicated softmax: conditionals, sampling, free energy and the exact partition function of a
// small hidden layer (000 eq. 27.129).
#include "core/models/harmonium/replicated_softmax.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <string>

#include "core/util/errors.hpp"
#include "core/util/log_sum_exp.hpp"

namespace latent::core::harmonium {
namespace {

// Rows per task of the hidden probabilities; each row is computed alone, so any split gives the
// same numbers.
constexpr Eigen::Index kRsmRowsPerTask = 32;

}  // namespace

WordCounts wordCounts(const Corpus& corpus) {
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(corpus.tokenCount());
  for (std::size_t d = 0; d < corpus.documentCount(); ++d)
    for (const auto w : corpus.document(d)) entries.emplace_back(static_cast<Eigen::Index>(d), w, 1.0);
  WordCounts counts(static_cast<Eigen::Index>(corpus.documentCount()),
                    static_cast<Eigen::Index>(corpus.vocabularySize()));
  counts.setFromTriplets(entries.begin(), entries.end());  // sums repeated words
  return counts;
}

Eigen::VectorXd documentLengths(const WordCounts& counts) {
  Eigen::VectorXd lengths = Eigen::VectorXd::Zero(counts.rows());
  for (Eigen::Index d = 0; d < counts.outerSize(); ++d)
    for (WordCounts::InnerIterator it(counts, d); it; ++it) lengths[d] += it.value();
  return lengths;
}

BinaryData occurrences(const WordCounts& counts) {
  BinaryData out = counts;
  for (Eigen::Index i = 0; i < out.nonZeros(); ++i) out.valuePtr()[i] = 1.0;
  return out;
}

void rsmHiddenProbabilities(const RbmParameters& p, const WordCounts& counts, const Eigen::VectorXd& lengths,
                            Eigen::MatrixXd& out) {
  out.resize(counts.rows(), p.hidden());
  // A word's weights as one contiguous column: a row of the column-major W is K values V apart,
  // which made this pass (run when a fit ends, also when it is stopped) wait on memory. The sums
  // are the same, term by term.
  const Eigen::MatrixXd byWord = p.weights.transpose();
  tbb::parallel_for(tbb::blocked_range<Eigen::Index>(0, counts.rows(), kRsmRowsPerTask), [&](const auto& range) {
    Eigen::VectorXd activation(p.hidden());
    for (Eigen::Index d = range.begin(); d < range.end(); ++d) {
      for (Eigen::Index k = 0; k < activation.size(); ++k) activation[k] = lengths[d] * p.hiddenBias[k];
      for (WordCounts::InnerIterator it(counts, d); it; ++it) activation += it.value() * byWord.col(it.col());
      for (Eigen::Index k = 0; k < activation.size(); ++k) out(d, k) = sigmoid(activation[k]);
    }
  });
}

void rsmHiddenProbabilities(const RbmParameters& p, const Eigen::MatrixXd& counts, const Eigen::VectorXd& lengths,
                            Eigen::MatrixXd& out) {
  out.resize(counts.rows(), p.hidden());
  tbb::parallel_for(tbb::blocked_range<Eigen::Index>(0, counts.rows(), kRsmRowsPerTask), [&](const auto& range) {
    const auto rows = range.end() - range.begin();
    auto block = out.middleRows(range.begin(), rows);
    block.noalias() = counts.middleRows(range.begin(), rows) * p.weights;
    block += lengths.segment(range.begin(), rows) * p.hiddenBias.transpose();
    block = block.unaryExpr([](double x) { return sigmoid(x); });
  });
}

void wordProbabilities(const RbmParameters& p, const Eigen::Ref<const Eigen::VectorXd>& hidden,
                       Eigen::Ref<Eigen::VectorXd> out) {
  out.noalias() = p.weights * hidden;
  out += p.visibleBias;
  const double top = out.maxCoeff();
  out = (out.array() - top).exp();
  out /= out.sum();
}

void sampleWordCounts(const Eigen::Ref<const Eigen::VectorXd>& probabilities, std::int64_t length, Rng& rng,
                      Eigen::Ref<Eigen::VectorXd> counts, std::vector<double>& cumulative) {
  const auto V = static_cast<std::size_t>(probabilities.size());
  cumulative.resize(V);
  double total = 0.0;
  for (std::size_t w = 0; w < V; ++w) cumulative[w] = total += probabilities[static_cast<Eigen::Index>(w)];
  counts.setZero();
  for (std::int64_t i = 0; i < length; ++i) {
    const double u = rng.uniform() * total;
    // The first word whose cumulative probability exceeds u; the last one when rounding leaves
    // u at the top.
    const auto at = std::upper_bound(cumulative.begin(), cumulative.end(), u);
    const auto w = std::min<std::size_t>(static_cast<std::size_t>(at - cumulative.begin()), V - 1);
    counts[static_cast<Eigen::Index>(w)] += 1.0;
  }
}

double rsmFreeEnergy(const RbmParameters& p, const Eigen::Ref<const Eigen::VectorXd>& counts, double length) {
  const Eigen::VectorXd activation = length * p.hiddenBias + p.weights.transpose() * counts;
  double energy = -p.visibleBias.dot(counts);
  for (Eigen::Index k = 0; k < activation.size(); ++k) energy -= softplus(activation[k]);
  return energy;
}

double rsmExactLogPartition(const RbmParameters& p, std::int64_t length) {
  const Eigen::Index K = p.hidden();
  if (K > kMaxEnumeratedUnits)
    throw UsageError("the exact partition function sums over 2^K hidden states: K = " + std::to_string(K) +
                     " is more than " + std::to_string(kMaxEnumeratedUnits));
  const auto L = static_cast<double>(length);
  const std::uint64_t states = std::uint64_t{1} << K;
  // Walks the states in Gray-code order, so that each adds or removes one column of W.
  Eigen::VectorXd logits = p.visibleBias;
  double hiddenTerm = 0.0;
  std::uint64_t state = 0;
  double total = -std::numeric_limits<double>::infinity();
  for (std::uint64_t i = 0; i < states; ++i) {
    if (i > 0) {
      const int k = std::countr_zero(i);
      const double sign = (state >> k & 1U) ? -1.0 : 1.0;
      state ^= std::uint64_t{1} << k;
      logits += sign * p.weights.col(k);
      hiddenTerm += sign * L * p.hiddenBias[k];
    }
    const double value = hiddenTerm + L * logSumExp(logits);
    total = std::max(total, value) + std::log1p(std::exp(-std::abs(total - value)));
  }
  return total;
}

Eigen::VectorXd logWordFrequencies(const WordCounts& counts) {
  Eigen::VectorXd totals = Eigen::VectorXd::Constant(counts.cols(), 0.5);
  for (Eigen::Index d = 0; d < counts.outerSize(); ++d)
    for (WordCounts::InnerIterator it(counts, d); it; ++it) totals[it.col()] += it.value();
  return (totals / totals.sum()).array().log();
}

}  // namespace latent::core::harmonium
