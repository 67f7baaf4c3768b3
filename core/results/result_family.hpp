// SPDX-License-Identifier: GPL-3.0-or-later
// The families of results models produce. Each is declared once here: the matrices that make a
// result (what "final, else the latest snapshot holding them" looks for), the ones that go with
// them, and the held-out metrics its models report. The families to come (time slices) are added
// here with their own names header.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace latent::core {

enum class ResultFamily {
  Topics,       // topic-word and document-topic distributions (results/topic_results.hpp)
  Blocks,       // node memberships and block link probabilities (results/block_results.hpp)
  Factors,      // user and item factors with biases (results/factor_results.hpp)
  HiddenUnits,  // a harmonium's weights, biases and hidden activations (results/hidden_results.hpp)
  Embeddings,   // words and documents as vectors: a truncated SVD (results/embedding_results.hpp)
};

struct HeldoutMetric {
  std::string key;   // final metric and `fit --json` key (DESIGN §6)
  std::string name;  // what it measures, protocol included
};

struct ResultFamilyInfo {
  ResultFamily family;
  std::string name;                   // "topics", "blocks", "factors"
  std::vector<std::string> required;  // the matrices that make a result
  std::vector<std::string> optional;  // stored with them by some models of the family
  // The matrices that make a result of the family's models of ratings, where those differ from
  // `required` (hidden units: the categorical RBM's weights per item and rating level); empty
  // when `required` serves every kind of data.
  std::vector<std::string> ratingsRequired;
  // The held-out metrics its models report, the usual one first. A family whose models fit
  // different kinds of data has one per kind (perplexity for text, RMSE for ratings); a model
  // names the one it reports (ModelInfo::heldoutKey), else it reports the first.
  std::vector<HeldoutMetric> heldout;
};

const ResultFamilyInfo& resultFamily(ResultFamily family);

// The family's held-out metric of that key; nullptr when it declares none.
const HeldoutMetric* findHeldoutMetric(const ResultFamilyInfo& family, std::string_view key);

}  // namespace latent::core
