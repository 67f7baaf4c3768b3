// SPDX-License-Identifier: GPL-3.0-or-later
// The data a fit sees, with its held-out part split off once, here, for every data kind: documents
// for corpora (document completion), node pairs for graphs, ratings for ratings tables, rows for
// numeric tables. Seeded, so
// that every model of a data kind is scored on the same held-out part for the same seed.
#pragma once

#include <cstdint>

#include "core/data/corpus.hpp"
#include "core/data/graph.hpp"
#include "core/data/numeric_table.hpp"
#include "core/data/ratings.hpp"
#include "core/eval/dyad_split.hpp"
#include "core/eval/heldout.hpp"
#include "core/eval/rating_split.hpp"
#include "core/models/model.hpp"

namespace latent::core {

class PreparedData {
 public:
  // Holds out `fraction` of the documents (their halves as HeldoutDocuments); keeps a copy of the
  // training documents, so `corpus` need not outlive it. A corpus with links also hides `fraction`
  // of the links among the training documents (FitData::links).
  PreparedData(const Corpus& corpus, double fraction, std::uint64_t seed);
  // Holds out `fraction` of the node pairs; `graph` must outlive this.
  PreparedData(const Graph& graph, double fraction, std::uint64_t seed);
  // Holds out `fraction` of the ratings; `ratings` must outlive this.
  PreparedData(const Ratings& ratings, double fraction, std::uint64_t seed);
  // Holds out `fraction` of the rows (FitData::heldoutRows, eval/row_split.hpp); `table` must
  // outlive this.
  PreparedData(const NumericTable& table, double fraction, std::uint64_t seed);

  PreparedData(const PreparedData&) = delete;  // data() points into it
  PreparedData& operator=(const PreparedData&) = delete;

  const FitData& data() const noexcept { return m_data; }

 private:
  CorpusSplit m_corpus;
  LinkSplit m_links;
  DyadSplit m_dyads;
  RatingSplit m_ratings;
  FitData m_data;
};

}  // namespace latent::core
