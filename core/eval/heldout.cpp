// SPDX-License-Identifier: GPL-3.0-or-later
// Seeded document selection and within-document halving.
#include "core/eval/heldout.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/util/errors.hpp"
#include "core/util/random.hpp"

namespace latent::core {
namespace {

// Fixed stream numbers keep the split independent of the model's own random streams.
constexpr std::uint64_t kDocumentStream = 0x484F4C44'444F4353ULL;  // "HOLDDOCS"
constexpr std::uint64_t kTokenStream = 0x484F4C44'544F4B53ULL;     // "HOLDTOKS"

}  // namespace

CorpusSplit splitForDocumentCompletion(const Corpus& corpus, double fraction, std::uint64_t seed) {
  if (!(fraction >= 0.0 && fraction < 1.0))
    throw UsageError("the held-out fraction must be at least 0 and below 1 (got " + std::to_string(fraction) + ")");
  const std::size_t D = corpus.documentCount();
  std::vector<std::int64_t> eligible;
  for (std::size_t d = 0; d < D; ++d)
    if (corpus.documentLength(d) >= 2) eligible.push_back(static_cast<std::int64_t>(d));

  const auto wanted = static_cast<std::size_t>(std::llround(fraction * static_cast<double>(D)));
  const std::size_t count = std::min(wanted, eligible.size());
  Rng rng(seed, kDocumentStream);
  rng.shuffle(std::span<std::int64_t>(eligible));
  std::vector<char> heldout(D, 0);
  for (std::size_t i = 0; i < count; ++i) heldout[static_cast<std::size_t>(eligible[i])] = 1;

  CorpusSplit split;
  split.train.words = corpus.words;
  split.heldout.observed.words = corpus.words;
  split.heldout.scored.words = corpus.words;
  split.train.takeFieldLayoutOf(corpus);
  split.heldout.observed.takeFieldLayoutOf(corpus);
  split.heldout.scored.takeFieldLayoutOf(corpus);
  std::vector<std::int32_t> positions, first, second;
  for (std::size_t d = 0; d < D; ++d) {
    const auto doc = corpus.document(d);
    if (!heldout[d]) {
      split.train.addDocument(corpus.documentIds[d], corpus.titles[d], doc);
      split.train.appendFieldsOf(corpus, d);
      split.trainDocuments.push_back(static_cast<std::int64_t>(d));
      continue;
    }
    // Each document's halves come from its own stream, so they do not depend on the others. The
    // positions are shuffled, not the tokens: the same draws, so the same halves as shuffling the
    // tokens gave, and each token's place in the document is kept.
    positions.resize(doc.size());
    std::iota(positions.begin(), positions.end(), 0);
    Rng tokenRng(seed ^ kTokenStream, static_cast<std::uint64_t>(d));
    tokenRng.shuffle(std::span<std::int32_t>(positions));
    const std::size_t half = positions.size() / 2;
    first.clear();
    second.clear();
    for (std::size_t i = 0; i < positions.size(); ++i)
      (i < half ? first : second).push_back(doc[static_cast<std::size_t>(positions[i])]);
    split.heldout.observedPositions.insert(split.heldout.observedPositions.end(), positions.begin(),
                                           positions.begin() + static_cast<std::ptrdiff_t>(half));
    split.heldout.scoredPositions.insert(split.heldout.scoredPositions.end(),
                                         positions.begin() + static_cast<std::ptrdiff_t>(half), positions.end());
    split.heldout.documents.push_back(static_cast<std::int64_t>(d));
    split.heldout.observed.addDocument(corpus.documentIds[d], corpus.titles[d], first);
    split.heldout.scored.addDocument(corpus.documentIds[d], corpus.titles[d], second);
    split.heldout.observed.appendFieldsOf(corpus, d);
    split.heldout.scored.appendFieldsOf(corpus, d);
  }
  return split;
}

std::vector<std::int64_t> heldoutEndsOfProcesses(const HeldoutDocuments& heldout, int processes) {
  // Folding in costs about the same per token of either half (the observed half is swept, the
  // scored half read once per topic), so both count.
  const std::size_t H = heldout.size();
  std::vector<std::int64_t> cumulative(H + 1, 0);
  for (std::size_t d = 0; d < H; ++d)
    cumulative[d + 1] = cumulative[d] + static_cast<std::int64_t>(heldout.observed.documentLength(d) +
                                                                  heldout.scored.documentLength(d));
  const auto Q = static_cast<std::int64_t>(std::max(processes, 1));
  std::vector<std::int64_t> ends(static_cast<std::size_t>(Q), static_cast<std::int64_t>(H));
  for (std::int64_t q = 1; q < Q; ++q) {
    const std::int64_t target = cumulative.back() * q / Q;
    ends[static_cast<std::size_t>(q - 1)] =
        std::lower_bound(cumulative.begin(), cumulative.end(), target) - cumulative.begin();
  }
  return ends;
}

Corpus wholeHeldoutDocuments(const HeldoutDocuments& heldout) {
  Corpus whole;
  whole.words = heldout.observed.words;
  whole.takeFieldLayoutOf(heldout.observed);
  std::vector<std::int32_t> tokens;
  for (std::size_t i = 0; i < heldout.size(); ++i) {
    const auto first = heldout.observed.document(i);
    const auto second = heldout.scored.document(i);
    tokens.assign(first.begin(), first.end());
    tokens.insert(tokens.end(), second.begin(), second.end());
    whole.addDocument(heldout.observed.documentIds[i], heldout.observed.titles[i], tokens);
    whole.appendFieldsOf(heldout.observed, i);
  }
  return whole;
}

}  // namespace latent::core
