// SPDX-License-Identifier: GPL-3.0-or-later
// The corpus's tokens grouped by word (a counting sort), which the Metropolis-Hastings samplers
// keep beside the corpus order: word w's tokens take the word-major places [start[w], start[w + 1]),
// in corpus order within each word.
#pragma once

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/data/corpus.hpp"

namespace latent::core::topic {

struct WordMajorOrder {
  std::vector<std::int64_t> start;      // V + 1 entries
  std::vector<std::uint32_t> position;  // corpus token i's word-major place, then `padding` zeros

  // `frequency[w]`: the number of tokens of word w. Places are 32-bit, so `sampler` (named in
  // the error) handles at most 2^32 tokens.
  static WordMajorOrder build(const Corpus& corpus, const std::vector<std::int64_t>& frequency, const char* sampler,
                              std::size_t padding = 0) {
    const auto& tokens = corpus.tokens;
    if (tokens.size() > std::numeric_limits<std::uint32_t>::max())
      throw std::length_error(std::string("the ") + sampler + " sampler handles at most 2^32 tokens");
    WordMajorOrder order;
    const std::size_t V = frequency.size();
    order.start.assign(V + 1, 0);
    for (std::size_t w = 0; w < V; ++w) order.start[w + 1] = order.start[w] + frequency[w];
    order.position.assign(tokens.size() + padding, 0);
    std::vector<std::int64_t> next(order.start.begin(), order.start.end() - 1);
    for (std::size_t i = 0; i < tokens.size(); ++i)
      order.position[i] = static_cast<std::uint32_t>(next[static_cast<std::size_t>(tokens[i])]++);
    return order;
  }
};

}  // namespace latent::core::topic
