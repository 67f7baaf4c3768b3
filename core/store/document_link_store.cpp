// SPDX-License-Identifier: GPL-3.0-or-later
// Reading and writing the document_links table.
#include "core/store/document_link_store.hpp"

#include <string>

#include "core/store/damaged_project.hpp"

namespace latent::core {

void writeDocumentLinks(Project& project, std::int64_t datasetId, std::span<const Edge> links) {
  auto clear = project.db().prepare("DELETE FROM document_links WHERE dataset_id = ?1");
  clear.bind(1, datasetId).run();
  auto insert = project.db().prepare("INSERT INTO document_links (dataset_id, source, target) VALUES (?1, ?2, ?3)");
  for (const Edge& link : links) {
    insert.bind(1, datasetId).bind(2, std::int64_t{link.source}).bind(3, std::int64_t{link.target});
    insert.run();
  }
}

std::vector<Edge> loadDocumentLinks(Project& project, std::int64_t datasetId, std::size_t documentCount) {
  auto s =
      project.db().prepare("SELECT source, target FROM document_links WHERE dataset_id = ?1 ORDER BY source, target");
  s.bind(1, datasetId);
  std::vector<Edge> links;
  while (s.step()) {
    const auto source = s.integer(0), target = s.integer(1);
    const std::string row =
        "dataset " + std::to_string(datasetId) + ", link " + std::to_string(source) + " -> " + std::to_string(target);
    checkStoredIndex(project, "document_links", row, "source", source, documentCount, "documents");
    checkStoredIndex(project, "document_links", row, "target", target, documentCount, "documents");
    if (source == target) throw damagedProject(project, "document_links", row, "a document links to itself");
    links.push_back({static_cast<std::int32_t>(source), static_cast<std::int32_t>(target), 1.0});
  }
  return links;
}

std::vector<DocumentLinkRef> documentLinksOf(Project& project, std::int64_t datasetId, std::int64_t document) {
  auto s = project.db().prepare(
      "SELECT target, 1 FROM document_links WHERE dataset_id = ?1 AND source = ?2 UNION ALL "
      "SELECT source, 0 FROM document_links WHERE dataset_id = ?1 AND target = ?2 ORDER BY 1");
  s.bind(1, datasetId).bind(2, document);
  std::vector<DocumentLinkRef> out;
  while (s.step()) out.push_back({s.integer(0), s.integer(1) != 0});
  return out;
}

}  // namespace latent::core
