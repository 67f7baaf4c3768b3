// SPDX-License-Identifier: GPL-3.0-or-later
// Labeled LDA (Ramage, Hall, Nallapati & Manning 2009; 000 §27.4.4.2 after eq. 27.72): each
// label of a document field is a topic, and a document's topics are restricted to its labels
// (plus shared background topics), so the topics come out named and in a known order. Fitted by
// collapsed Gibbs sampling; for documents it did not train on it predicts their labels from the
// words alone.
#pragma once

#include <cstdint>
#include <string>

#include "core/models/model.hpp"
#include "core/models/option_table.hpp"
#include "core/models/topic/labeled_lda_sampler.hpp"

namespace latent::core {

struct LabeledLdaOptions {
  std::string labels = "label";  // the document field whose labels are the topics
  std::int64_t background = 1;   // shared topics every document may use besides its labels
  std::int64_t iterations = 300;
  double alpha = 0.1;
  double beta = 0.01;
  llda::UnlabeledDocuments unlabeled = llda::UnlabeledDocuments::AllTopics;
  std::int64_t snapshotEvery = 50;
  bool baselines = true;  // the regression on the words beside the held-out prediction

  static const OptionTable<LabeledLdaOptions>& table();
};

// The name of the background topic b (0-based) as the topics are shown: "background 1", ...
std::string backgroundTopicName(std::int64_t b);

ModelDefinition labeledLdaModel();

}  // namespace latent::core
