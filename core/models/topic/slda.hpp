// SPDX-License-Identifier: GPL-3.0-or-later
// Supervised LDA (000 §27.4.4.1, Fig. 27.15a; Blei & McAuliffe 2007; Wang, Blei & Fei-Fei 2009 for
// a categorical response): topics that also predict a document field (a year, a rating, a party).
// Variational EM (slda_kernels.hpp); held-out perplexity by document completion as lda-vb; each
// held-out document's response predicted from its text alone. Results: the topics, the response's
// coefficients per topic, and every document's predicted response (results/topic_results.hpp).
#pragma once

#include <cstdint>
#include <string>

#include "core/models/model.hpp"
#include "core/models/option_table.hpp"

namespace latent::core {

struct SldaOptions {
  std::int64_t topics = 10;
  std::string response;               // the document field: "time", "label" or a metadata column
  std::string responseType = "auto";  // auto | gaussian | categorical
  std::int64_t iterations = 100;      // EM iterations
  double alpha = 0.0;                 // symmetric document-topic prior; 0 = 1/K
  double beta = 0.01;                 // the topics' symmetric Dirichlet prior (the start when optimised)
  std::int64_t optimizeEvery = 10;    // re-estimate beta every N iterations; 0 = never
  std::int64_t estepIterations = 50;
  double estepTolerance = 1e-4;
  bool twoStage = false;    // topics without the response, then the response regressed on them
  double penalty = 1.0;     // categorical: L2 penalty on the coefficients
  double tolerance = 1e-6;  // stop when the bound per token changes by less than this
  std::int64_t snapshotEvery = 10;
  bool baselines = true;  // the regression on the words beside the held-out prediction

  static const OptionTable<SldaOptions>& table();
};

ModelDefinition sldaModel();

}  // namespace latent::core
