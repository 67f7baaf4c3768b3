// SPDX-License-Identifier: GPL-3.0-or-later
// The multi-relational infinite relational model (Kemp, Tenenbaum, Griffiths, Yamada & Ueda 2006;
// 000 §27.6.1, §27.6.1.2, Fig. 27.26): one CRP partition of the nodes shared by several relations
// over them (Sampson's like, esteem, praise, ...), each relation with its own block-pair densities,
// and node features co-clustered with their own CRP partition. The held-out pairs are those of the
// graph's first relation (the one `edges` holds, which every model of one relation fits), treated
// as missing; the other relations are seen whole.
#pragma once

#include <cstdint>
#include <string>

#include "core/models/model.hpp"
#include "core/models/option_table.hpp"

namespace latent::core {

struct IrmMultiOptions {
  std::int64_t iterations = 200;  // Gibbs sweeps of the kept chain; the second half gives the posterior
  double concentration = 1.0;     // CRP concentration of the node partition
  double featureConcentration = 1.0;
  double a = 1.0;  // Beta(a, b) prior of each block pair's density (every relation and the features)
  double b = 1.0;
  std::string relations = "all";  // "all" or a comma list; the graph's first relation always
  std::string features;           // comma list of node attributes; empty: none
  std::int64_t restarts = 4;
  std::int64_t splitMerge = 2;
  std::int64_t snapshotEvery = 10;

  static const OptionTable<IrmMultiOptions>& table();
};

ModelDefinition irmMultiModel();

}  // namespace latent::core
