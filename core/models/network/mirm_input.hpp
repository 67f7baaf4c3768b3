// SPDX-License-Identifier: GPL-3.0-or-later
// What the multi-relational IRM fits, taken from a graph: the relations it was asked for (the
// graph's first relation always, since the held-out pairs are of it) and the node attributes it
// was asked to use as features, as binary indicators.
#pragma once

#include <string>
#include <vector>

#include "core/data/graph.hpp"
#include "core/eval/dyad_split.hpp"
#include "core/models/network/mirm_sampler.hpp"

namespace latent::core::network {

struct MirmInput {
  MirmData data;
  std::vector<std::string> relationNames;  // of data.relations; the first is the graph's first
  std::vector<std::string> featureNames;   // of data's feature columns: "attribute" or "attribute=value"
};

// `relations`: "all" or a comma list of the graph's relation names; the graph's first relation is
// fitted either way (first). `features`: a comma list of node attributes, "" for none. An attribute
// whose values are all 0 or 1 is one feature; any other becomes one indicator per value
// ("fate=expelled"). A node without a value has its indicators missing. Throws UsageError for an
// unknown relation or attribute, and for the attribute NMI and ARI are scored against
// (defaultLabelAttribute): fitting it would make those scores meaningless.
MirmInput buildMirmInput(const Graph& graph, const DyadSplit& split, const std::string& relations,
                         const std::string& features);

}  // namespace latent::core::network
