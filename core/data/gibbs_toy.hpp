// SPDX-License-Identifier: GPL-3.0-or-later
// The textbook's Gibbs sampling toy corpus (000 §27.3.5, after Steyvers & Griffiths 2007, Fig. 7).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace latent::core {

// 16 documents of 16 words over V = 5 words and two topics with the stated probabilities
// p(money|1) = p(loan|1) = p(bank|1) = 1/3 and p(river|2) = p(stream|2) = p(bank|2) = 1/3.
// The text does not state the documents' topic proportions; here document d (0-based) draws each
// word from topic 1 with probability 1 - d/15, so the corpus runs from pure finance to pure
// rivers as in the figure. Each string is one document, words separated by spaces.
inline constexpr std::uint64_t kGibbsToySeed = 2007;
std::vector<std::string> generateGibbsToyCorpus(std::uint64_t seed = kGibbsToySeed);

}  // namespace latent::core
