// SPDX-License-Identifier: GPL-3.0-or-later
// What the hidden-unit pages compute from a harmonium's matrices, without Qt so that it is tested
// and run off the GUI thread like any numerics: each unit's strongest words, the mean activations,
// the documents' principal components, and the rows and columns of the weight heat map.
#pragma once

#include <Eigen/Core>

#include <array>
#include <vector>

namespace latent::ui {

// The words (indices into the vocabulary) a hidden unit raises most and lowers most: the largest
// positive weights of its column first, then the most negative ones first. Only words whose weight
// has that sign are listed, so a unit that lowers nothing has no negative words.
struct UnitWords {
  std::vector<int> positive, negative;
};

// For each column k of `weights` (V x K), its `count` strongest positive and negative words; ties
// go to the lower word index.
std::vector<UnitWords> unitTopWords(const Eigen::MatrixXd& weights, int count);

// The mean of each column of `activations` (D x K): how often a unit is on across the documents.
std::vector<double> meanActivations(const Eigen::MatrixXd& activations);

// Each document on the first two principal components of the hidden activations (PCA of the
// centred D x K matrix through the K x K covariance, whose eigen-decomposition is cheap for the
// few hundred units a harmonium has).
struct ActivationProjection {
  Eigen::MatrixXd points;             // D x 2 scores (zero columns when there is no such component)
  std::array<double, 2> explained{};  // each component's share of the total variance, 0..1
  int components = 0;                 // components with positive variance (0, 1 or 2)
};

// Signs are fixed (each component's largest loading is positive) so that a refit of the same data
// and every test see the same picture, not its mirror image.
ActivationProjection principalComponents(const Eigen::MatrixXd& activations);

// The weight heat map's rows and columns: the words that matter most to some unit (the largest
// max_k |w_vk|), grouped under the unit that raises each most (its arg-max over units), the groups
// in the order of the units, within a group the most raised word first; the units ordered so
// that neighbours weigh the shown words alike (a greedy chain on the cosine similarity of their
// columns, from the unit that raises the most shown words), units raising none of them last.
struct WeightLayout {
  std::vector<int> words;        // the rows: word indices, top to bottom
  std::vector<int> units;        // the columns: unit indices, left to right
  std::vector<int> rowUnit;      // per row, the unit that raises its word most (a unit index)
  std::vector<int> groupStarts;  // the rows where a new unit's group begins (0 first)
  double maxAbsWeight = 0.0;     // the largest |w| among the shown cells, the colour scale's end
};

WeightLayout weightLayout(const Eigen::MatrixXd& weights, int maxWords);

}  // namespace latent::ui
