// SPDX-License-Identifier: GPL-3.0-or-later
// The held-out splits of the four data kinds, made in one place.
#include "core/models/fit_data.hpp"

#include "core/eval/row_split.hpp"

namespace latent::core {

PreparedData::PreparedData(const Corpus& corpus, double fraction, std::uint64_t seed)
    : m_corpus(splitForDocumentCompletion(corpus, fraction, seed)) {
  m_data.fullDocumentCount = static_cast<std::int64_t>(corpus.documentCount());
  m_data.corpus = &m_corpus.train;
  m_data.heldout = &m_corpus.heldout;
  m_data.trainDocuments = m_corpus.trainDocuments;
  if (!corpus.links.empty()) {
    m_links = splitLinks(corpus.links, m_corpus.trainDocuments, m_corpus.heldout.documents, m_data.fullDocumentCount,
                         fraction, seed);
    m_data.links = &m_links;
  }
}

PreparedData::PreparedData(const Graph& graph, double fraction, std::uint64_t seed)
    : m_dyads(splitDyads(graph, fraction, seed)) {
  m_data.graph = &graph;
  m_data.dyads = &m_dyads;
}

PreparedData::PreparedData(const Ratings& ratings, double fraction, std::uint64_t seed)
    : m_ratings(splitRatings(ratings, fraction, seed)) {
  m_data.ratings = &ratings;
  m_data.ratingSplit = &m_ratings;
}

PreparedData::PreparedData(const NumericTable& table, double fraction, std::uint64_t seed) {
  m_data.table = &table;
  m_data.heldoutRows = splitRows(table.rowCount(), fraction, seed);
}

}  // namespace latent::core
