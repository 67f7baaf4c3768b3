// SPDX-License-Identifier: GPL-3.0-or-later
// Held-out links of a linked corpus (DESIGN §6 `--heldout F` on a corpus with links): links hidden
// among the training documents, and the links of the held-out documents, which a model must
// predict from their text alone.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/data/graph.hpp"

namespace latent::core {

// An unordered pair of documents and whether they are linked (in either direction) in the full
// corpus. Within the training documents a < b; for a new document, a indexes the held-out
// documents (HeldoutDocuments order) and b the training documents.
struct DocumentPair {
  std::int32_t a = 0;
  std::int32_t b = 0;
  bool linked = false;
};

struct LinkSplit {
  std::int32_t trainDocuments = 0;  // documents of FitData::corpus
  // The links a model trains on, between training documents (their FitData::corpus indices), in
  // the imported direction, sorted by (source, target): every link among them except the hidden.
  std::vector<Edge> train;
  // Hidden pairs of training documents: round(fraction * L) of the L links among them, then as
  // many pairs that are not linked, drawn at random. A model treats them as unobserved.
  std::vector<DocumentPair> hidden;
  // New documents: every link between a held-out document and a training document, then as many
  // such pairs that are not linked, drawn at random (links among held-out documents are not used).
  std::vector<DocumentPair> newDocuments;
  // Each training document's linked neighbours in `train`, either direction, sorted: what a
  // model's link prediction leaves out of a document's ranking.
  std::vector<std::vector<std::int32_t>> neighbours;

  bool empty() const noexcept { return train.empty() && hidden.empty() && newDocuments.empty(); }
  std::int64_t hiddenLinks() const noexcept;
  std::int64_t newDocumentLinks() const noexcept;
  // Whether the training documents a and b are a hidden pair (either order). O(log H).
  bool isHidden(std::int32_t a, std::int32_t b) const noexcept;
  // Whether a and b are linked in `train` (either direction). O(log degree).
  bool linkedInTraining(std::int32_t a, std::int32_t b) const noexcept;

  std::vector<std::uint64_t> hiddenKeys;  // min * n + max of each hidden pair, sorted
};

// Splits `links` (over the full corpus's documents, sorted, no self-links) for a corpus whose
// documents were split into `trainDocuments` and `heldoutDocuments` (full-corpus indices, as in
// CorpusSplit). Seeded: the same seed hides the same pairs. fraction = 0 hides no training link
// (held-out documents' links still form `newDocuments`).
LinkSplit splitLinks(std::span<const Edge> links, std::span<const std::int64_t> trainDocuments,
                     std::span<const std::int64_t> heldoutDocuments, std::int64_t fullDocumentCount, double fraction,
                     std::uint64_t seed);

}  // namespace latent::core
