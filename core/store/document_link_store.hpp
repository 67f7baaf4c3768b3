// SPDX-License-Identifier: GPL-3.0-or-later
// Links between a corpus's documents in the project file (schema 11, document_links).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/data/graph.hpp"
#include "core/store/project.hpp"

namespace latent::core {

// Replaces the corpus's links with `links` (document indices, sorted, unique, no self-links),
// within the caller's transaction.
void writeDocumentLinks(Project& project, std::int64_t datasetId, std::span<const Edge> links);

// The corpus's links, sorted by (source, target); each index checked against `documentCount`
// (damagedProject names the row otherwise).
std::vector<Edge> loadDocumentLinks(Project& project, std::int64_t datasetId, std::size_t documentCount);

// One document's links, both ways, for the reader: the other document and whether this one links
// to it (cites it) or is linked from it.
struct DocumentLinkRef {
  std::int64_t other = 0;
  bool outgoing = true;
};
std::vector<DocumentLinkRef> documentLinksOf(Project& project, std::int64_t datasetId, std::int64_t document);

}  // namespace latent::core
