// SPDX-License-Identifier: GPL-3.0-or-later
// pruneVocabulary: document frequency in [minDf, maxFraction * D], then the cap by count.
#include "core/data/vocabulary_prune.hpp"

#include <algorithm>
#include <stdexcept>

namespace latent::core {

std::vector<PruneReason> pruneVocabulary(std::span<const std::int64_t> documentFrequency,
                                         std::span<const std::int64_t> count, std::int64_t documents,
                                         const PruneOptions& prune) {
  if (documentFrequency.size() != count.size())
    throw std::invalid_argument("pruneVocabulary: one document frequency and one count per word");
  const double maxDf = prune.maxDocumentFraction * static_cast<double>(documents);
  std::vector<PruneReason> reasons(documentFrequency.size(), PruneReason::Kept);
  std::vector<std::int32_t> candidates;
  for (std::size_t w = 0; w < documentFrequency.size(); ++w) {
    const auto df = documentFrequency[w];
    if (df == 0)
      reasons[w] = PruneReason::Absent;
    else if (df < prune.minDocumentFrequency)
      reasons[w] = PruneReason::MinDocumentFrequency;
    else if (prune.maxDocumentFraction < 1.0 && static_cast<double>(df) > maxDf)
      reasons[w] = PruneReason::MaxDocumentFraction;
    else
      candidates.push_back(static_cast<std::int32_t>(w));
  }
  if (prune.maxVocabulary > 0 && static_cast<std::int64_t>(candidates.size()) > prune.maxVocabulary) {
    // The most frequent words; ties go to the word seen first, so the result is deterministic.
    std::stable_sort(candidates.begin(), candidates.end(), [&](std::int32_t a, std::int32_t b) {
      return count[static_cast<std::size_t>(a)] > count[static_cast<std::size_t>(b)];
    });
    for (auto it = candidates.begin() + prune.maxVocabulary; it != candidates.end(); ++it)
      reasons[static_cast<std::size_t>(*it)] = PruneReason::VocabularyCap;
  }
  return reasons;
}

}  // namespace latent::core
