// SPDX-License-Identifier: GPL-3.0-or-later
// Document retrieval with finished corpus runs (DESIGN §6 `latent-cli retrieval`): each run's stored
// document representation, the dataset's labels and the runs' common held-out split, scored by
// eval/retrieval (000 §27.7.3.1; Salakhutdinov & Hinton 2009 §5).
#pragma once

#include <cstdint>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "core/eval/retrieval.hpp"
#include "core/store/project.hpp"
#include "core/store/run_store.hpp"

namespace latent::core {

struct RunRetrieval {
  RunRecord run;
  std::string representation;  // the matrix used: "hidden_activations" or "doc_topic"
  RetrievalResult result;
};

// Scores each run in `runIds`: the held-out documents of the runs' split (the one fit made for
// their --heldout and --seed, rebuilt with splitForDocumentCompletion) are the queries, the
// training documents are ranked, and a document's label (documents.label, set on import with
// --label-column; empty is no label) says what is relevant. The representation is the final
// "hidden_activations" of a harmonium (rbm, rsm), else the final "doc_topic" of a topic model
// (its held-out rows folded in from all of the document's words with the topics fixed). Throws
// UsageError when the list is empty, when the runs fit different datasets or hold out different
// documents (another --heldout or --seed), when they held nothing out, when the dataset is not a
// corpus or has no labels, and when a run stores no representation or a zero one for every
// held-out document.
std::vector<RunRetrieval> retrievalForRuns(Project& project, std::span<const std::int64_t> runIds,
                                           std::span<const double> recallLevels);

// The curves as CSV (DESIGN §6, `retrieval --out`): the header `run,model,recall,precision`, then one
// row per run and recall level, in the order of `scored`. The CLI and the GUI's export share it.
void writeRetrievalCsv(std::ostream& out, std::span<const RunRetrieval> scored);

}  // namespace latent::core
