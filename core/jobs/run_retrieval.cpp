// SPDX-License-Identifier: GPL-3.0-or-later
// Retrieval with finished corpus runs: representations, labels and the split from the project.
#include "core/jobs/run_retrieval.hpp"

#include <algorithm>
#include <sstream>
#include <unordered_map>

#include "core/eval/heldout.hpp"
#include "core/io/csv_writer.hpp"
#include "core/results/hidden_results.hpp"
#include "core/results/topic_results.hpp"
#include "core/store/corpus_store.hpp"
#include "core/util/errors.hpp"

namespace latent::core {
namespace {

std::string runSplitText(const RunRecord& run) {
  std::ostringstream text;
  text << "--heldout " << run.heldout << " --seed " << run.seed;
  return text.str();
}

std::string runName(const RunRecord& run) { return "run " + std::to_string(run.id) + " (" + run.model + ")"; }

// The documents' labels as small integers in order of first appearance; -1 for no label.
std::vector<int> labelIndices(const std::vector<DocumentHeader>& documents) {
  std::unordered_map<std::string, int> index;
  std::vector<int> labels;
  labels.reserve(documents.size());
  for (const auto& document : documents) {
    if (document.label.empty()) {
      labels.push_back(-1);
      continue;
    }
    labels.push_back(index.try_emplace(document.label, static_cast<int>(index.size())).first->second);
  }
  return labels;
}

}  // namespace

std::vector<RunRetrieval> retrievalForRuns(Project& project, std::span<const std::int64_t> runIds,
                                           std::span<const double> recallLevels) {
  if (runIds.empty()) throw UsageError("retrieval needs at least one run");
  std::vector<RunRecord> runs;
  for (const auto id : runIds) runs.push_back(loadRun(project, id));
  const auto& first = runs.front();
  for (const auto& run : runs) {
    if (run.datasetId != first.datasetId)
      throw UsageError(runName(first) + " and " + runName(run) + " fit different datasets ('" + first.datasetName +
                       "' and '" + run.datasetName + "'); retrieval compares runs of one dataset");
    if (run.heldout != first.heldout || run.seed != first.seed)
      throw UsageError(runName(first) + " and " + runName(run) + " hold out different documents (" +
                       runSplitText(first) + " against " + runSplitText(run) +
                       "); fit them with the same --heldout and --seed");
  }
  if (!(first.heldout > 0.0))
    throw UsageError(runName(first) +
                     " held out no documents (--heldout 0): retrieval uses the held-out documents as queries");
  const auto dataset = project.dataset(first.datasetId);
  if (dataset.kind != DataKind::Corpus)
    throw UsageError("dataset '" + dataset.name + "' is a " + std::string(toString(dataset.kind)) +
                     ", not a corpus: retrieval ranks documents");

  const auto documents = listDocuments(project, dataset.id);
  const auto labels = labelIndices(documents);
  if (std::all_of(labels.begin(), labels.end(), [](int label) { return label < 0; }))
    throw UsageError("dataset '" + dataset.name +
                     "' has no document labels; import it with --label-column to say which documents are relevant");

  // The split fit made for this --heldout and --seed (fit_job.cpp, PreparedData).
  const auto split = splitForDocumentCompletion(loadCorpus(project, dataset.id), first.heldout, first.seed);
  const auto D = static_cast<Eigen::Index>(documents.size());

  std::vector<RunRetrieval> out;
  for (const auto& run : runs) {
    RunRetrieval scored;
    scored.run = run;
    auto matrix = loadMatrix(project, run.id, hidden::kHiddenActivations);
    scored.representation = hidden::kHiddenActivations;
    if (!matrix) {
      matrix = loadMatrix(project, run.id, topic::kDocTopic);
      scored.representation = topic::kDocTopic;
    }
    if (!matrix)
      throw UsageError(runName(run) + " stores no document representation (a final " +
                       std::string(hidden::kHiddenActivations) + " or " + topic::kDocTopic +
                       " matrix); retrieval needs a finished rbm, rsm or topic-model run that has one");
    if (matrix->rows() != D)
      throw UsageError(runName(run) + ": its " + scored.representation + " has " + std::to_string(matrix->rows()) +
                       " rows for the dataset's " + std::to_string(D) + " documents");
    bool anyHeldout = false;
    for (const auto d : split.heldout.documents) anyHeldout |= !matrix->row(d).isZero(0.0);
    if (!anyHeldout && !split.heldout.empty())
      throw UsageError(runName(run) + ": its " + scored.representation +
                       " is zero for every held-out document, so they cannot be queries");
    scored.result = evaluateRetrieval(*matrix, split.heldout.documents, split.trainDocuments, labels, recallLevels);
    out.push_back(std::move(scored));
  }
  return out;
}

void writeRetrievalCsv(std::ostream& out, std::span<const RunRetrieval> scored) {
  CsvWriter csv(out);
  csv.field("run").field("model").field("recall").field("precision").endRow();
  for (const auto& s : scored)
    for (const auto& point : s.result.curve)
      csv.field(s.run.id).field(s.run.model).field(point.recall).field(point.precision).endRow();
}

}  // namespace latent::core
