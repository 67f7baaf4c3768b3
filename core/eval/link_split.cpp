// SPDX-License-Identifier: GPL-3.0-or-later
// Seeded held-out links: hidden pairs among the training documents, and the new documents' pairs.
#include "core/eval/link_split.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <tuple>
#include <unordered_set>

#include "core/util/errors.hpp"
#include "core/util/random.hpp"

namespace latent::core {
namespace {

constexpr std::uint64_t kHiddenLinkStream = 0x4C494E4B'48494445ULL;   // "LINKHIDE"
constexpr std::uint64_t kNonLinkStream = 0x4C494E4B'4E4F4E45ULL;      // "LINKNONE"
constexpr std::uint64_t kNewDocumentStream = 0x4C494E4B'4E455744ULL;  // "LINKNEWD"

std::uint64_t unorderedKey(std::uint64_t n, std::int32_t a, std::int32_t b) noexcept {
  if (a > b) std::swap(a, b);
  return static_cast<std::uint64_t>(a) * n + static_cast<std::uint64_t>(b);
}

// Draws `count` distinct pairs (a, b) with a from [0, rows) and b from [0, columns), a != b when
// `sameSide`, none of them in `taken` (unordered keys over `keySpace` when sameSide, a * columns
// + b otherwise). Stops early when too few pairs are left to find them by rejection.
std::vector<DocumentPair> drawUnlinkedPairs(std::int64_t count, std::int32_t rows, std::int32_t columns, bool sameSide,
                                            std::unordered_set<std::uint64_t>& taken, Rng& rng) {
  std::vector<DocumentPair> pairs;
  if (rows <= 0 || columns <= 0) return pairs;
  const double available = sameSide ? double(rows) * double(rows - 1) / 2.0 : double(rows) * double(columns);
  count = std::min<std::int64_t>(count, static_cast<std::int64_t>(available) - static_cast<std::int64_t>(taken.size()));
  pairs.reserve(static_cast<std::size_t>(std::max<std::int64_t>(count, 0)));
  const auto n = static_cast<std::uint64_t>(sameSide ? rows : columns);
  std::int64_t attempts = 0;
  const std::int64_t maxAttempts = 100 * count + 1000;
  while (static_cast<std::int64_t>(pairs.size()) < count && attempts++ < maxAttempts) {
    const auto a = static_cast<std::int32_t>(rng.below(static_cast<std::uint64_t>(rows)));
    const auto b = static_cast<std::int32_t>(rng.below(static_cast<std::uint64_t>(columns)));
    if (sameSide && a == b) continue;
    const std::uint64_t key = sameSide ? unorderedKey(n, a, b) : static_cast<std::uint64_t>(a) * n + std::uint64_t(b);
    if (!taken.insert(key).second) continue;
    pairs.push_back(sameSide ? DocumentPair{std::min(a, b), std::max(a, b), false} : DocumentPair{a, b, false});
  }
  return pairs;
}

}  // namespace

std::int64_t LinkSplit::hiddenLinks() const noexcept {
  return std::count_if(hidden.begin(), hidden.end(), [](const DocumentPair& p) { return p.linked; });
}

std::int64_t LinkSplit::newDocumentLinks() const noexcept {
  return std::count_if(newDocuments.begin(), newDocuments.end(), [](const DocumentPair& p) { return p.linked; });
}

bool LinkSplit::isHidden(std::int32_t a, std::int32_t b) const noexcept {
  if (hiddenKeys.empty()) return false;
  return std::binary_search(hiddenKeys.begin(), hiddenKeys.end(),
                            unorderedKey(static_cast<std::uint64_t>(trainDocuments), a, b));
}

bool LinkSplit::linkedInTraining(std::int32_t a, std::int32_t b) const noexcept {
  if (a < 0 || static_cast<std::size_t>(a) >= neighbours.size()) return false;
  const auto& list = neighbours[static_cast<std::size_t>(a)];
  return std::binary_search(list.begin(), list.end(), b);
}

LinkSplit splitLinks(std::span<const Edge> links, std::span<const std::int64_t> trainDocuments,
                     std::span<const std::int64_t> heldoutDocuments, std::int64_t fullDocumentCount, double fraction,
                     std::uint64_t seed) {
  if (!(fraction >= 0.0 && fraction < 1.0))
    throw UsageError("the held-out fraction must be at least 0 and below 1 (got " + std::to_string(fraction) + ")");
  // Where each document of the full corpus went: >= 0 a training index, <= -1 a held-out one.
  constexpr std::int64_t kUnused = std::numeric_limits<std::int64_t>::min();
  std::vector<std::int64_t> place(static_cast<std::size_t>(fullDocumentCount), kUnused);
  if (trainDocuments.empty() && heldoutDocuments.empty()) {
    for (std::int64_t d = 0; d < fullDocumentCount; ++d) place[static_cast<std::size_t>(d)] = d;
  } else {
    for (std::size_t t = 0; t < trainDocuments.size(); ++t)
      place[static_cast<std::size_t>(trainDocuments[t])] = static_cast<std::int64_t>(t);
    for (std::size_t h = 0; h < heldoutDocuments.size(); ++h)
      place[static_cast<std::size_t>(heldoutDocuments[h])] = -1 - static_cast<std::int64_t>(h);
  }
  LinkSplit split;
  split.trainDocuments = static_cast<std::int32_t>(trainDocuments.empty() && heldoutDocuments.empty()
                                                       ? fullDocumentCount
                                                       : static_cast<std::int64_t>(trainDocuments.size()));
  const auto n = static_cast<std::uint64_t>(split.trainDocuments);

  std::vector<Edge> within;
  std::vector<DocumentPair> toNew;
  std::unordered_set<std::uint64_t> withinKeys, newKeys;
  for (const Edge& link : links) {
    if (link.source < 0 || link.target < 0 || link.source >= fullDocumentCount || link.target >= fullDocumentCount)
      throw UsageError("a link names document " + std::to_string(std::max(link.source, link.target)) +
                       ", beyond the corpus's " + std::to_string(fullDocumentCount) + " documents");
    const auto s = place[static_cast<std::size_t>(link.source)], t = place[static_cast<std::size_t>(link.target)];
    if (s == kUnused || t == kUnused) continue;
    if (s >= 0 && t >= 0) {
      // A link and its reverse are one pair: the second is kept for training, never hidden twice.
      within.push_back({static_cast<std::int32_t>(s), static_cast<std::int32_t>(t), link.weight});
    } else if ((s >= 0) != (t >= 0)) {
      const auto h = static_cast<std::int32_t>(-1 - std::min(s, t)), b = static_cast<std::int32_t>(std::max(s, t));
      if (newKeys.insert(static_cast<std::uint64_t>(h) * n + std::uint64_t(b)).second) toNew.push_back({h, b, true});
    }
  }
  std::sort(within.begin(), within.end(),
            [](const Edge& x, const Edge& y) { return std::tie(x.source, x.target) < std::tie(y.source, y.target); });

  // Hidden links: a seeded shuffle of the distinct unordered pairs among training documents.
  std::vector<std::uint64_t> pairKeys;
  for (const Edge& e : within)
    if (withinKeys.insert(unorderedKey(n, e.source, e.target)).second)
      pairKeys.push_back(unorderedKey(n, e.source, e.target));
  Rng hideRng(seed, kHiddenLinkStream);
  hideRng.shuffle(std::span<std::uint64_t>(pairKeys));
  const auto hiddenCount = static_cast<std::size_t>(std::llround(fraction * double(pairKeys.size())));
  std::unordered_set<std::uint64_t> hiddenSet(pairKeys.begin(),
                                              pairKeys.begin() + static_cast<std::ptrdiff_t>(hiddenCount));
  for (std::size_t i = 0; i < hiddenCount; ++i)
    split.hidden.push_back(
        {static_cast<std::int32_t>(pairKeys[i] / n), static_cast<std::int32_t>(pairKeys[i] % n), true});
  std::sort(split.hidden.begin(), split.hidden.end(),
            [](const DocumentPair& x, const DocumentPair& y) { return std::tie(x.a, x.b) < std::tie(y.a, y.b); });
  Rng nonLinkRng(seed, kNonLinkStream);
  auto takenWithin = withinKeys;
  auto nonLinks = drawUnlinkedPairs(static_cast<std::int64_t>(hiddenCount), split.trainDocuments, split.trainDocuments,
                                    true, takenWithin, nonLinkRng);
  split.hidden.insert(split.hidden.end(), nonLinks.begin(), nonLinks.end());
  for (const auto& p : split.hidden) split.hiddenKeys.push_back(unorderedKey(n, p.a, p.b));
  std::sort(split.hiddenKeys.begin(), split.hiddenKeys.end());

  split.neighbours.resize(static_cast<std::size_t>(split.trainDocuments));
  for (const Edge& e : within) {
    if (hiddenSet.count(unorderedKey(n, e.source, e.target))) continue;
    split.train.push_back(e);
    split.neighbours[static_cast<std::size_t>(e.source)].push_back(e.target);
    split.neighbours[static_cast<std::size_t>(e.target)].push_back(e.source);
  }
  for (auto& list : split.neighbours) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }

  // New documents: their links to training documents, then as many unlinked pairs.
  std::sort(toNew.begin(), toNew.end(),
            [](const DocumentPair& x, const DocumentPair& y) { return std::tie(x.a, x.b) < std::tie(y.a, y.b); });
  split.newDocuments = toNew;
  Rng newRng(seed, kNewDocumentStream);
  auto newNonLinks =
      drawUnlinkedPairs(static_cast<std::int64_t>(toNew.size()), static_cast<std::int32_t>(heldoutDocuments.size()),
                        split.trainDocuments, false, newKeys, newRng);
  split.newDocuments.insert(split.newDocuments.end(), newNonLinks.begin(), newNonLinks.end());
  return split;
}

}  // namespace latent::core
