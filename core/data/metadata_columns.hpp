// SPDX-License-Identifier: GPL-3.0-or-later
// A corpus's metadata columns gathered from its documents' metadata objects, as they are stored
// (one JSON object per document, e.g. {"party": "Whig", "rating": "4"}): a column per name in the
// order names first appear, "" where a document has no value.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/data/corpus.hpp"

namespace latent::core {

class MetadataColumnsCollector {
 public:
  // The next document's metadata: an object whose values are strings or numbers (null: none).
  // Returns false, adding nothing but an empty row, when `object` is not such an object.
  bool add(const nlohmann::ordered_json& object);
  // The same from JSON text; empty text is a document without metadata.
  bool addText(std::string_view text);
  std::size_t documents() const noexcept { return m_documents; }
  std::vector<Corpus::MetadataColumn> finish();

 private:
  std::vector<Corpus::MetadataColumn> m_columns;
  std::map<std::string, std::size_t, std::less<>> m_index;
  std::size_t m_documents = 0;
};

}  // namespace latent::core
