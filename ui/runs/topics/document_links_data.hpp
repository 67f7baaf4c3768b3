// SPDX-License-Identifier: GPL-3.0-or-later
// What the views of a linked corpus read (issue 18): the corpus's links, each document's links both
// ways, a run's predicted new links (a model of linked documents stores them: "predicted_links"),
// and where each document sits in the node-link drawing. Loaded off the GUI thread with the run.
#pragma once

#include <QString>

#include <Eigen/Core>

#include <cstdint>
#include <vector>

#include "core/data/graph.hpp"
#include "core/store/project.hpp"

namespace latent::ui {

struct DocumentLinkEnd {
  std::int64_t other = 0;
  bool outgoing = true;  // this document links to `other` (cites it); else `other` links here
};

struct PredictedDocumentLink {
  std::int64_t a = 0;
  std::int64_t b = 0;
  double probability = 0.0;
};

struct DocumentLinksData {
  std::vector<core::Edge> links;                         // corpus order, as imported
  std::vector<std::vector<DocumentLinkEnd>> neighbours;  // per document, by the other's index
  std::vector<PredictedDocumentLink> predicted;          // the run's, most likely first
  std::vector<std::vector<std::int64_t>> predictedOf;    // per document: indices into `predicted`
  Eigen::MatrixX2d layout;                               // D x 2 within [-1, 1]; empty on error
  QString layoutError;

  bool hasPredictions() const noexcept { return !predicted.empty(); }
};

// The corpus's links and the run's predictions; null when the corpus has no links. A predicted
// link naming a document beyond `documentCount` is skipped. The layout is the same for every run
// of the corpus (a fixed seed), so two runs are compared on one drawing.
std::shared_ptr<const DocumentLinksData> loadDocumentLinksData(core::Project& project, std::int64_t datasetId,
                                                               std::int64_t runId, std::size_t documentCount);

}  // namespace latent::ui
