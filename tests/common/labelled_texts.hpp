// SPDX-License-Identifier: GPL-3.0-or-later
// A small labelled corpus for the retrieval tests (CLI and GUI): three labels, sport, cooking and
// space, each with eight words of its own, and four words every label shares; every tenth document
// has no label.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/util/random.hpp"

namespace latent::test {

struct LabelledText {
  std::string id;     // "doc0", "doc1", ...
  std::string text;   // words separated by spaces
  std::string label;  // empty for every tenth document
};

// `documents` documents of `length` words, document d of label d mod 3, each word drawn from the
// shared words with probability `sharedShare`, else from its label's; the same texts for the same
// arguments.
inline std::vector<LabelledText> labelledTexts(int documents, int length, double sharedShare) {
  const std::vector<std::string> labels = {"sport", "cooking", "space"};
  const std::vector<std::vector<std::string>> words = {
      {"goal", "match", "team", "score", "league", "coach", "player", "season"},
      {"recipe", "oven", "flour", "butter", "sauce", "bake", "spice", "dinner"},
      {"orbit", "rocket", "planet", "launch", "moon", "star", "galaxy", "comet"}};
  const std::vector<std::string> shared = {"today", "people", "great", "new"};
  core::Rng rng(21);
  std::vector<LabelledText> out;
  for (int d = 0; d < documents; ++d) {
    const auto label = static_cast<std::size_t>(d % 3);
    std::string text;
    for (int i = 0; i < length; ++i) {
      const auto& pool = rng.uniform() < sharedShare ? shared : words[label];
      text += pool[static_cast<std::size_t>(rng.uniform() * static_cast<double>(pool.size()))] + " ";
    }
    out.push_back({"doc" + std::to_string(d), text, d % 10 == 9 ? std::string() : labels[label]});
  }
  return out;
}

}  // namespace latent::test
