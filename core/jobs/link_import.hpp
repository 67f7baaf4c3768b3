// SPDX-License-Identifier: GPL-3.0-or-later
// Attaching links to a corpus already in the project (`latent-cli import links`, DESIGN §6): an edge
// list whose two columns name documents by id or by title. The corpus's links are replaced as a
// whole, in one transaction, or (on any error) left as they were.
#pragma once

#include <filesystem>
#include <string>

#include "core/io/import_control.hpp"
#include "core/jobs/import_job.hpp"
#include "core/store/project.hpp"

namespace latent::core {

struct LinksImportRequest {
  std::string corpus;  // the corpus's name or id
  std::filesystem::path source;
  // Columns of the linking and the linked document; empty: "source"/"target" when the header has
  // them, else the first two columns.
  std::string sourceColumn, targetColumn;
  // How a value names a document: "id" (the document's id in the imported file), "title", or
  // "auto": the id, else a title that only one document has.
  std::string key = "auto";
};

// Throws InputError (bad file; a file that names no document of the corpus), UsageError (no such
// corpus, not a corpus, an unknown key) or Cancelled. The result's notes say what was dropped: rows
// naming unknown documents (with the first few), self-links, repeated links.
ImportResult importDocumentLinks(Project& project, const LinksImportRequest& request,
                                 const ImportControl& control = {});

}  // namespace latent::core
