// SPDX-License-Identifier: GPL-3.0-or-later
// Generator of the Gibbs toy corpus; resources/samples/gibbs-toy/gibbs_toy.txt is its output.
#include "core/data/gibbs_toy.hpp"

#include <array>

#include "core/util/random.hpp"

namespace latent::core {

std::vector<std::string> generateGibbsToyCorpus(std::uint64_t seed) {
  constexpr std::array<const char*, 3> finance{"money", "loan", "bank"};
  constexpr std::array<const char*, 3> rivers{"river", "stream", "bank"};
  constexpr int kDocuments = 16;
  constexpr int kWords = 16;
  Rng rng(seed);
  std::vector<std::string> documents;
  for (int d = 0; d < kDocuments; ++d) {
    const double financeShare = 1.0 - static_cast<double>(d) / (kDocuments - 1);
    std::string text;
    for (int i = 0; i < kWords; ++i) {
      const auto& topic = rng.uniform() < financeShare ? finance : rivers;
      if (!text.empty()) text += ' ';
      text += topic[rng.below(topic.size())];
    }
    documents.push_back(std::move(text));
  }
  return documents;
}

}  // namespace latent::core
