// SPDX-License-Identifier: GPL-3.0-or-later
// The infinite relational model (Kemp, Tenenbaum, Griffiths, Yamada & Ueda 2006; 000 §27.6.1,
// eq. 27.82-27.83): a stochastic block model whose number of blocks is inferred under a Chinese
// restaurant process, for one type (a graph) or two (a bipartite graph, both sides co-clustered).
// On a directed two-type graph the links from the first type to the second and those back are two
// relations over the same two partitions (eq. 27.83). Held-out pairs are missing data; pairs within
// one type of a two-type graph are not part of the relation and are predicted to have no link.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/models/model.hpp"
#include "core/models/option_table.hpp"

namespace latent::core {

struct IrmOptions {
  std::int64_t iterations = 200;  // Gibbs sweeps of the kept chain; the second half gives the posterior
  double concentration = 1.0;     // CRP concentration alpha (both types)
  double a = 1.0;                 // Beta(a, b) prior of each block pair's link density
  double b = 1.0;
  std::string types = "auto";   // "auto", "one", "two"
  std::int64_t restarts = 4;    // independent starts, each run briefly; the best log joint is kept
  std::int64_t splitMerge = 2;  // split-merge proposals per sweep (Jain & Neal 2004); 0 = Gibbs only
  std::int64_t snapshotEvery = 10;

  static const OptionTable<IrmOptions>& table();
};

ModelDefinition irmModel();

}  // namespace latent::core
