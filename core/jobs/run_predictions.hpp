// SPDX-License-Identifier: GPL-3.0-or-later
// Predictions from a run: link probabilities for node pairs, ratings for user-item pairs,
// top-N recommendations, and recommendations for a new user folded in from a few ratings
// (DESIGN §6 `latent-cli predict`, issue 4).
#pragma once

#include <cstdint>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "core/store/project.hpp"

namespace latent::core {

struct PredictionReport {
  std::int64_t iteration = -1;  // the snapshot predicted with, or -1 for the final result
  std::int64_t unseen = 0;      // pairs that named an id the run's dataset does not have
};

// Reads `pairs`, a CSV with header `user,item` (a ratings run) or `source,target` (a graph run),
// ids as in the imported files, and writes the same columns plus `prediction` (the predicted
// rating or the probability of a link). When some pair names an id the dataset does not have, a
// last column `unseen` says which of each pair's ids those are ("item", "user+item", "source";
// empty for the others; the file is read twice to know), and their prediction is the model's
// fallback: the global mean plus the known side's bias for ratings (a categorical RBM: a new
// user's prediction for a known item, the user's mean for an unknown one), the average
// membership of the fitted nodes for a new node. Throws InputError naming the line of a malformed
// row or a missing column, UsageError when the run has no model to predict with. A categorical
// RBM (rbm-ratings) predicts from each user's training ratings, those of the run's own split.
// Predicts with the final result, else the latest snapshot.
PredictionReport predictPairs(Project& project, std::int64_t runId, const std::filesystem::path& pairs,
                              std::ostream& out);

struct Recommendation {
  std::string itemId;
  std::string itemName;
  double prediction = 0.0;
};

// The n unrated items with the highest predicted rating for `userId`, best first.
std::vector<Recommendation> recommendForUser(Project& project, std::int64_t runId, const std::string& userId,
                                             std::size_t n);

// For a user the model has not seen: `ratings` is a CSV `item,rating` of the user's few ratings;
// the user's factors are fitted with the items held fixed (no retraining), or for a categorical RBM
// (rbm-ratings) the hidden mean-field of those ratings is computed, and the n best items
// the user has not rated are returned.
std::vector<Recommendation> recommendForNewUser(Project& project, std::int64_t runId,
                                                const std::filesystem::path& ratings, std::size_t n);

}  // namespace latent::core
