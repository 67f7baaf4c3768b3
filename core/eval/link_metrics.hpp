// SPDX-License-Identifier: GPL-3.0-or-later
// Scoring held-out links (001 eq. 8) and comparing partitions with known labels (NMI, ARI).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/data/graph.hpp"
#include "core/eval/dyad_split.hpp"

namespace latent::core {

struct LinkScores {
  double perplexity = 0.0;     // exp(-mean log P(E_ij)) over the held-out pairs (001 eq. 8)
  double logLikelihood = 0.0;  // sum of log P(E_ij)
  double auc = 0.5;            // ROC AUC of the link probabilities; 0.5 = chance
  std::int64_t pairs = 0;
};

// probability(i, j) is the model's predictive probability of a link from i to j. Probabilities
// are clamped to [1e-12, 1 - 1e-12] so a confident mistake costs a lot but stays finite.
LinkScores scoreHeldoutLinks(std::span<const HeldoutDyad> heldout,
                             const std::function<double(std::int32_t, std::int32_t)>& probability);

// Area under the ROC curve by the rank-sum (Mann-Whitney) statistic, ties counted as half.
// Returns 0.5 when either class is empty.
double rocAuc(std::span<const double> scores, std::span<const std::uint8_t> positive);

// Normalised mutual information I(a;b) / sqrt(H(a) H(b)) between two partitions of the same
// items (labels are any non-negative integers; items with a negative label in either are
// skipped). 1 when both are the same partition up to renaming; 1 also when both are a single
// block.
double normalizedMutualInformation(std::span<const int> a, std::span<const int> b);

// Adjusted Rand index (Hubert & Arabie 1985); 1 for identical partitions, about 0 by chance.
double adjustedRandIndex(std::span<const int> a, std::span<const int> b);

// The node attribute `name` as dense labels 0..L-1 in order of first appearance; nodes with an
// empty value get -1. nullopt when the graph has no such attribute.
std::optional<std::vector<int>> nodeLabels(const Graph& graph, const std::string& name);

// The first of the usual label attributes the graph has ("group", "faction", "club_after_split",
// "label", "block", "community"), for reporting NMI and ARI without the user asking.
std::optional<std::string> defaultLabelAttribute(const Graph& graph);

}  // namespace latent::core
