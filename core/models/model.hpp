// SPDX-License-Identifier: GPL-3.0-or-later
// The model interface at the job boundary: a catalogue entry with documented options, and fit().
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/data/corpus.hpp"
#include "core/data/corpus_share.hpp"
#include "core/data/data_kind.hpp"
#include "core/data/filled_sparse_matrix.hpp"
#include "core/data/graph.hpp"
#include "core/data/matrix_precision.hpp"
#include "core/data/numeric_table.hpp"
#include "core/data/ratings.hpp"
#include "core/eval/dyad_split.hpp"
#include "core/eval/heldout.hpp"
#include "core/eval/link_split.hpp"
#include "core/eval/rating_split.hpp"
#include "core/models/option_specs.hpp"
#include "core/models/training.hpp"
#include "core/results/result_family.hpp"

namespace latent::core {

struct FitData;

// What a fit will need, in bytes: the dominant terms, for runFit to refuse a request the machine
// or the project file cannot hold before any work starts (jobs/resource_check.hpp).
struct ResourceNeeds {
  std::uint64_t memoryBytes = 0;         // working memory at its peak
  std::uint64_t largestMatrixBytes = 0;  // the largest result matrix, stored as one blob
};
using ResourceEstimator = ResourceNeeds (*)(const FitData& data, const nlohmann::json& options);
// What in a model's options keeps it from running across `processes` processes (latent-cli fit
// --distributed); "" when nothing does.
using DistributedCheck = std::string (*)(const nlohmann::json& options, int processes);
// How a model that runs distributed on a corpus samples it across `processes` processes of
// `threads` threads each, decided on process 0 from the whole training corpus (data/corpus_share.hpp);
// options as resolveOptions gives them. Throws a UsageError for a request the corpus cannot take.
using CorpusPlanner = CorpusPlan (*)(const Corpus& training, const nlohmann::json& options, int processes, int threads);
class Communicator;

struct ModelInfo {
  std::string name;  // command-line name: "unigram", "lda-gibbs", ...
  DataKind kind = DataKind::Corpus;
  // Further kinds it fits (a binary RBM: a corpus's word occurrences, or any 0/1 table); `kind` is
  // the one it is listed under.
  std::vector<DataKind> alsoFits;
  std::string title;                           // "Unigram (MAP multinoulli)"
  std::string description;                     // two sentences for the run panel
  std::string objectiveName;                   // what IterationReport::trainObjective measures
  ResultFamily family = ResultFamily::Topics;  // what it stores (results/result_family.hpp)
  // The held-out metric (what IterationReport::heldout measures, protocol included) and its key
  // in --json lines: one its family declares. A model sets the key when it reports another than
  // the family's first; withFamily fills in the rest.
  std::string heldoutName;
  std::string heldoutKey;
  std::vector<OptionSpec> options;
  // Set by models whose needs grow with what the user picks (K topics, K factors) far beyond the
  // data's own size.
  ResourceEstimator needs = nullptr;
  // Set by the models that can sample one fit across several processes; null: they cannot.
  DistributedCheck distributed = nullptr;
  // Set by those of them that fit a corpus: every process other than 0 then holds only the
  // documents this plan gives it (FitData::share).
  CorpusPlanner planCorpus = nullptr;

  bool fits(DataKind k) const { return k == kind || std::find(alsoFits.begin(), alsoFits.end(), k) != alsoFits.end(); }
};

// The data a fit sees, its held-out part already split off (models/fit_data.hpp, PreparedData):
// a topic model trains on `corpus` and scores `heldout`; a block model trains on the pairs of
// `dyads` it does not hold out; a factor model on `ratingSplit->train`; a model of a numeric table
// on the rows of `table` not in `heldoutRows`.
struct FitData {
  const Corpus* corpus = nullptr;
  const HeldoutDocuments* heldout = nullptr;  // null or empty: no held-out evaluation
  // Index in the full corpus of each document of `corpus` (training documents); empty when the
  // corpus is the full one. Lets a model lay out per-document results in corpus order.
  std::span<const std::int64_t> trainDocuments;
  std::int64_t fullDocumentCount = 0;  // documents in the full corpus (training + held out)
  // A distributed corpus fit (ModelInfo::planCorpus): the plan and the whole training corpus's
  // figures, on every process. `corpus` then holds every training document on process 0, and on
  // the others only those of their partitions, every other document empty (no tokens, no ids).
  // `heldout` there holds every held-out document's index but only the halves of those the
  // process scores (share->heldoutEnds), the others empty. Null in a fit of one process.
  const CorpusShare* share = nullptr;
  // A linked corpus's links, split like its documents (eval/link_split.hpp): what a model of linked
  // documents trains on and is scored on. Null when the corpus has no links.
  const LinkSplit* links = nullptr;
  const Graph* graph = nullptr;
  const DyadSplit* dyads = nullptr;  // of `graph`
  const Ratings* ratings = nullptr;
  const RatingSplit* ratingSplit = nullptr;  // of `ratings`
  // A numeric table (rows x features), whole; the model trains on the rows not in `heldoutRows`
  // and scores those (eval/row_split.hpp: seeded, sorted row indices, empty when none is held out).
  const NumericTable* table = nullptr;
  std::vector<std::int64_t> heldoutRows;
};

struct FitSettings {
  nlohmann::json options;  // complete and validated (resolveOptions)
  std::uint64_t seed = 1;
  int threads = 1;
  int evalEvery = 10;  // evaluate held-out metrics every this many iterations (and at the end)
  // The processes the fit is spread over (latent-cli fit --distributed; ModelInfo::distributed
  // said yes), every one running the same fit; null: this process alone.
  Communicator* communicator = nullptr;
  // Result matrices that matrix_precision.hpp makes float32 above this many bytes as doubles are
  // formed as floats (NamedMatrix::floats). The default everywhere; tests lower it to reach the
  // float path with small data.
  std::int64_t float32MatrixBytes = kFloat32MatrixBytes;
};

// A named per-token result beside the topics (results/topic_results.hpp: lda-hmm's token_class and
// token_content_probability): one vector per training document, one value per token in order.
struct TokenValues {
  std::string name;
  std::vector<std::vector<float>> documents;
};

struct FitResult {
  FitStatus status = FitStatus::Failed;
  std::string message;
  std::int64_t iterations = 0;
  double seconds = 0.0;
  nlohmann::json finalMetrics = nlohmann::json::object();  // "heldout_perplexity", ...
  std::vector<NamedMatrix> matrices;                       // final parameters
  // Final parameters a model hands over in sparse form (lda-gibbs's topics where they are large),
  // stored so; readers of the project see them as the dense matrices they stand for.
  std::vector<NamedSparseMatrix> sparseMatrices;
  // Per-token assignments, one vector per training document (topic models), else empty.
  std::vector<std::vector<std::int32_t>> tokenTopics;
  // Further per-token layers, laid out as tokenTopics; stored per document under their names.
  std::vector<TokenValues> tokenValues;
  // Names of the topics (rows of topic_word) that the model itself knows, stored as the run's
  // topic labels (store/topic_label_store.hpp): labeled-lda's labels. Empty: unnamed.
  std::vector<std::string> topicNames;
};

class Model {
 public:
  virtual ~Model() = default;
  virtual const ModelInfo& info() const = 0;
  // Honours `stop` (and observer.onReport returning false) within 200 ms; returns Cancelled then,
  // with the parameters reached so far.
  virtual FitResult fit(const FitData& data, const FitSettings& settings, TrainingObserver& observer,
                        std::stop_token stop) = 0;
};

// The entry with what its result family declares (the held-out metric's key and name).
ModelInfo withFamily(ModelInfo info);

// A model class derives from DescribedModel<&describe>, where `ModelInfo describe()` builds its
// catalogue entry; the entry is built once, on first use.
template <ModelInfo (*Describe)()>
class DescribedModel : public Model {
 public:
  static const ModelInfo& definition() {
    static const ModelInfo info = withFamily(Describe());
    return info;
  }
  const ModelInfo& info() const final { return definition(); }
};

// A row of the model registry (models/registry.cpp): the catalogue entry and the factory.
struct ModelDefinition {
  const ModelInfo& (*info)() = nullptr;
  std::unique_ptr<Model> (*make)() = nullptr;
};

template <typename M>
ModelDefinition defineModel() {
  return {&M::definition, []() -> std::unique_ptr<Model> { return std::make_unique<M>(); }};
}

// The catalogue, in the order of DESIGN §3.
std::vector<const ModelInfo*> modelCatalogue();
// Throws UsageError naming the models there are.
std::unique_ptr<Model> createModel(std::string_view name);

// Fills in defaults and checks types and ranges of `given` against the model's options.
// Throws UsageError naming the option and what it expects.
nlohmann::json resolveOptions(const ModelInfo& model, const nlohmann::json& given);

// Parses a command-line value for an option of the given spec ("0.1", "true", "sparse").
nlohmann::json parseOptionValue(const OptionSpec& spec, std::string_view text);

}  // namespace latent::core
