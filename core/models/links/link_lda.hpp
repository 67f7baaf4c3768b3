// SPDX-License-Identifier: GPL-3.0-or-later
// Link-LDA (Erosheva, Fienberg & Lafferty 2004; Nallapati, Ahmed, Xing & Cohen 2008; 001 on
// PHITS+PLSA and Link-LDA): LDA whose documents also hold a bag of links, each link a topic drawn
// from the document's own mixture and then a target document from that topic's distribution over
// documents. Fitted by collapsed Gibbs sampling over word topics and link topics; predicts links
// between training documents and from a new document's text to the training documents.
#pragma once

#include <cstdint>

#include "core/models/links/link_lda_sampler.hpp"
#include "core/models/model.hpp"
#include "core/models/option_table.hpp"
#include "core/results/link_results.hpp"
#include "core/results/topic_results.hpp"

namespace latent::core {

struct LinkLdaOptions {
  std::int64_t topics = 20;
  std::int64_t iterations = 500;
  double alpha = 0.1;
  double beta = 0.01;
  double gamma = 0.1;  // Dirichlet prior on each topic's distribution over target documents
  links::LinkDirection direction = links::LinkDirection::Undirected;
  std::int64_t snapshotEvery = 50;
  bool baselines = true;

  static const OptionTable<LinkLdaOptions>& table();
};

ModelDefinition linkLdaModel();

}  // namespace latent::core
