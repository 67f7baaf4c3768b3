// SPDX-License-Identifier: GPL-3.0-or-later
// The families of results models produce. Each is declared once here: the matrices that make a
// result (what "final, else the latest snapshot holding them" looks for), the ones that go with
// them, and the held-out metric every model of the family reports. The families to come
// (hidden units, embeddings, time slices) are added here with their own names header.
#pragma once

#include <string>
#include <vector>

namespace latent::core {

enum class ResultFamily {
  Topics,   // topic-word and document-topic distributions (results/topic_results.hpp)
  Blocks,   // node memberships and block link probabilities (results/block_results.hpp)
  Factors,  // user and item factors with biases (results/factor_results.hpp)
};

struct ResultFamilyInfo {
  ResultFamily family;
  std::string name;                   // "topics", "blocks", "factors"
  std::vector<std::string> required;  // the matrices that make a result
  std::vector<std::string> optional;  // stored with them by some models of the family
  std::string heldoutKey;             // final metric and `fit --json` key (DESIGN §6)
  std::string heldoutName;            // what it measures, protocol included
};

const ResultFamilyInfo& resultFamily(ResultFamily family);

}  // namespace latent::core
