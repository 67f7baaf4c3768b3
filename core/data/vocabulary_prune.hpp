// SPDX-License-Identifier: GPL-3.0-or-later
// The pruning rule of an import (min-df, max-df, the vocabulary cap) as one function, so that the
// import dialog's vocabulary preview and the import itself cannot decide differently.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/data/corpus_builder.hpp"

namespace latent::core {

// Why a word leaves the vocabulary, in the order the rules apply: a word below min-df is counted
// there even when it is also over max-df.
enum class PruneReason : std::uint8_t {
  Kept,
  Absent,                // document frequency 0 (a bag-of-words vocabulary word never used, a stop word)
  MinDocumentFrequency,  // in fewer documents than min-df
  MaxDocumentFraction,   // in more than max-df of the documents
  VocabularyCap,         // past the cap on the most frequent words
};

// One reason per word: `documentFrequency[w]` and `count[w]` over `documents` documents, words
// indexed in order of first appearance (the cap's ties go to the word seen first).
std::vector<PruneReason> pruneVocabulary(std::span<const std::int64_t> documentFrequency,
                                         std::span<const std::int64_t> count, std::int64_t documents,
                                         const PruneOptions& prune);

}  // namespace latent::core
