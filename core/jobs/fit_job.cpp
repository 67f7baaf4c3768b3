// SPDX-License-Identifier: GPL-3.0-or-later
// runFit: the glue between a model, its data and the project file.
#include "core/jobs/fit_job.hpp"

#include <tbb/task_arena.h>
#include <tbb/task_scheduler_observer.h>

#include <memory>
#include <optional>

#include "core/data/adjacency_table.hpp"
#include "core/eval/heldout.hpp"
#include "core/jobs/distributed_dataset.hpp"
#include "core/jobs/resource_check.hpp"
#include "core/jobs/run_recorder.hpp"
#include "core/jobs/stored_precision.hpp"
#include "core/models/fit_data.hpp"
#include "core/store/corpus_store.hpp"
#include "core/store/graph_store.hpp"
#include "core/store/ratings_store.hpp"
#include "core/store/run_store.hpp"
#include "core/store/table_store.hpp"
#include "core/store/topic_label_store.hpp"
#include "core/util/clock.hpp"
#include "core/util/communicator.hpp"
#include "core/util/errors.hpp"
#include "core/util/thread_priority.hpp"
#include "core/util/version.hpp"

namespace latent::core {
namespace {

// "corpus", or "corpus or table" for a model that fits several kinds.
std::string kindsOf(const ModelInfo& info) {
  std::string out(toString(info.kind));
  for (const DataKind k : info.alsoFits) out += " or " + std::string(toString(k));
  return out;
}

// Lowers the priority of every TBB worker that joins the fit's arena, when the fit itself runs
// as background work (a GUI job). Workers stay lowered afterwards: in the GUI they run nothing
// but fits (util/thread_priority.hpp says why it cannot be undone).
class BackgroundWorkers final : public tbb::task_scheduler_observer {
 public:
  BackgroundWorkers(tbb::task_arena& arena, bool active) : tbb::task_scheduler_observer(arena) {
    if (active) observe(true);
  }
  ~BackgroundWorkers() override { observe(false); }
  void on_scheduler_entry(bool) override { lowerCurrentThreadPriority(); }
};

constexpr int kMaxThreads = 1024;

RunStatus toRunStatus(FitStatus status) {
  switch (status) {
    case FitStatus::Converged:
    case FitStatus::MaxIterations:
      return RunStatus::Finished;
    case FitStatus::Cancelled:
      return RunStatus::Stopped;
    case FitStatus::Failed:
      return RunStatus::Failed;
  }
  return RunStatus::Failed;
}

// What a fit reads: the dataset as loaded and its held-out split, which points into the loaded
// graph, ratings or table (the corpus split is a copy, so the corpus can go once it is made). In a
// distributed corpus fit, the plan of its shares and the whole corpus's figures (FitData::share);
// there a process other than 0 holds its share in `corpus` and its held-out documents in
// `heldoutShare`, and splits nothing.
struct FitInput {
  Corpus corpus;
  HeldoutDocuments heldoutShare;
  Graph graph;
  Ratings ratings;
  NumericTable table;
  std::optional<PreparedData> prepared;
  std::optional<CorpusShare> share;
  std::int64_t sharedFullDocumentCount = 0;

  FitData data() const {
    FitData data;
    if (prepared) {
      data = prepared->data();
    } else {  // a share of a corpus, received from process 0
      data.corpus = &corpus;
      if (!heldoutShare.empty()) data.heldout = &heldoutShare;
      data.fullDocumentCount = sharedFullDocumentCount;
    }
    if (share) data.share = &*share;
    return data;
  }
};

void load(Project& project, const DatasetInfo& dataset, FitInput& input) {
  switch (dataset.kind) {
    case DataKind::Corpus:
      input.corpus = loadCorpus(project, dataset.id);
      break;
    case DataKind::Graph:
      input.graph = loadGraph(project, dataset.id);
      break;
    case DataKind::Ratings:
      input.ratings = loadRatings(project, dataset.id);
      break;
    case DataKind::Table:
      input.table = loadTable(project, dataset.id);
      break;
  }
}

// Splits off the held-out part (PreparedData), so that every model of a data kind is scored on
// the same held-out documents, pairs, ratings or rows for the same seed.
void prepare(FitInput& input, DataKind kind, const ModelInfo& info, const RunRequest& request) {
  switch (kind) {
    case DataKind::Corpus:
      input.prepared.emplace(input.corpus, request.heldout, request.seed);
      break;
    case DataKind::Graph:
      if (info.kind == DataKind::Graph) {
        input.prepared.emplace(input.graph, request.heldout, request.seed);
      } else {
        // A model of cases (rbm) fits the graph's adjacency rows as a 0/1 table, holding out nodes'
        // rows rather than dyads.
        input.table = adjacencyTable(input.graph);
        input.prepared.emplace(input.table, request.heldout, request.seed);
      }
      break;
    case DataKind::Ratings:
      input.prepared.emplace(input.ratings, request.heldout, request.seed);
      break;
    case DataKind::Table:
      input.prepared.emplace(input.table, request.heldout, request.seed);
      break;
  }
}

// Collective: process 0's data into the other processes' `input`: a corpus's training documents
// in the shares of its plan, or the loaded ratings (runFit refused the other kinds before this).
void sendDataset(Communicator& group, DataKind kind, FitInput& input) {
  if (kind == DataKind::Corpus) {
    const FitData data = input.prepared->data();
    sendCorpusShares(group, *data.corpus, data.heldout, *input.share, data.fullDocumentCount);
  }
  if (kind == DataKind::Ratings) shareRatings(group, input.ratings);
}

void receiveDataset(Communicator& group, DataKind kind, FitInput& input) {
  if (kind == DataKind::Corpus) {
    input.share.emplace();
    receiveCorpusShare(group, input.corpus, input.heldoutShare, *input.share, input.sharedFullDocumentCount);
  }
  if (kind == DataKind::Ratings) shareRatings(group, input.ratings);
}

// Process 0's plan of a distributed corpus fit's shares, made on the training documents.
void planShares(const ModelInfo& info, const nlohmann::json& options, const RunRequest& request, FitInput& input) {
  if (info.planCorpus == nullptr) throw UsageError("model " + info.name + " does not fit a corpus distributed");
  const FitData data = input.prepared->data();
  const Corpus& training = *data.corpus;
  const int processes = request.communicator->size();
  input.share = describeCorpus(training, info.planCorpus(training, options, processes, request.threads));
  // Every process scores its share of the held-out documents at the evaluations.
  if (data.heldout != nullptr && !data.heldout->empty())
    input.share->heldoutEnds = heldoutEndsOfProcesses(*data.heldout, processes);
}

// What every process of a distributed fit must agree on, as text: the model, its resolved
// options and the request's settings. Processes started with other arguments would sample other
// chains, or wait for messages that never come.
std::string requestText(const RunRequest& request, const nlohmann::json& options) {
  return nlohmann::json{{"model", request.model},
                        {"options", options},
                        {"seed", request.seed},
                        {"threads", request.threads},
                        {"heldout", request.heldout},
                        {"eval_every", request.evalEvery},
                        {"float32_bytes", request.float32MatrixBytes}}
      .dump();
}

// Why this process cannot take part in the fit (its machine's memory), "" when it can.
std::string memoryRefusal(const ModelInfo& info, const FitData& data, const nlohmann::json& options) {
  try {
    checkMemory(info, data, options);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

FitSettings settingsFor(const RunRequest& request, const nlohmann::json& options) {
  FitSettings settings;
  settings.options = options;
  settings.seed = request.seed;
  settings.threads = request.threads;
  settings.evalEvery = request.evalEvery;
  settings.communicator = request.communicator;
  settings.float32MatrixBytes = request.float32MatrixBytes;
  return settings;
}

// Collective, process 0's side of a distributed fit's start: the others given the request and the
// dataset, then their agreement. Returns what it cost, for the run's final metrics: the bytes of
// the dataset and the time until every process held it and agreed to start.
nlohmann::json startOtherProcesses(Communicator& group, DataKind kind, const RunRequest& request,
                                   const nlohmann::json& options, FitInput& input) {
  const Stopwatch starting;
  nlohmann::json metrics;
  const std::int64_t bytesBefore = group.bytesSent();
  announceStart(group, {kind, requestText(request, options)});
  sendDataset(group, kind, input);
  metrics["dataset_sent_bytes"] = group.bytesSent() - bytesBefore;
  agreeToStart(group, "");  // process 0's own memory was checked before, with the project's limits
  metrics["distributed_start_seconds"] = starting.seconds();
  return metrics;
}

// A process of a distributed fit other than 0: it fits its share of process 0's training corpus,
// or process 0's ratings split by the same seed, and writes nothing. Process 0 checked the request
// against the project, and every process was given the same command line, so the options resolve
// alike.
RunOutcome fitWithDataOfProcessZero(Communicator& group, const RunRequest& request, std::stop_token stop) {
  auto model = createModel(request.model);
  const auto& info = model->info();
  FitInput input;
  const auto start = awaitStart(group);
  receiveDataset(group, start.kind, input);
  std::string refusal;
  nlohmann::json options;
  try {
    options = resolveOptions(info, request.options);
    if (requestText(request, options) != start.request) {
      refusal = "its arguments differ from process 0's (every process takes the same command line)";
    } else {
      if (start.kind != DataKind::Corpus) prepare(input, start.kind, info, request);
      refusal = memoryRefusal(info, input.data(), options);
    }
  } catch (const UsageError& e) {
    refusal = e.what();
  }
  agreeToStart(group, refusal);
  const FitSettings settings = settingsFor(request, options);
  const FitData data = input.data();
  FitResult result;
  ObserverList none;
  tbb::task_arena arena(request.threads);
  arena.execute([&] { result = model->fit(data, settings, none, stop); });
  return {RunRecord{}, std::move(result)};
}

}  // namespace

nlohmann::json validateRunRequest(Project& project, const RunRequest& request) {
  auto model = createModel(request.model);
  const auto& info = model->info();
  const auto dataset = project.resolveDataset(request.dataset);
  if (!info.fits(dataset.kind))
    throw UsageError("model " + info.name + " fits " + kindsOf(info) + " data, but dataset '" + dataset.name +
                     "' is a " + std::string(toString(dataset.kind)));
  if (request.threads < 1 || request.threads > kMaxThreads)
    throw UsageError("--threads must be between 1 and " + std::to_string(kMaxThreads));
  if (!(request.heldout >= 0.0 && request.heldout < 1.0))
    throw UsageError("--heldout must be a fraction at least 0 and below 1");
  if (request.evalEvery < 1) throw UsageError("--eval-every must be at least 1");
  nlohmann::json options = resolveOptions(info, request.options);
  if (request.communicator != nullptr) {
    if (info.distributed == nullptr)
      throw UsageError("model " + info.name + " does not run distributed (--distributed): lda-gibbs and pmf do");
    const std::string refusal = info.distributed(options, request.communicator->size());
    if (!refusal.empty()) throw UsageError("--distributed: " + refusal);
  }
  return options;
}

RunOutcome runFit(const std::filesystem::path& projectFile, const RunRequest& request, TrainingObserver* observer,
                  std::stop_token stop, const std::function<void(const RunRecord&)>& onCreated, const WriteWait& wait) {
  // A distributed fit's other processes never open the project: process 0 sends them its data.
  Communicator* const group = request.communicator;
  const bool spread = group != nullptr && group->size() > 1;
  if (spread && group->rank() != 0) return fitWithDataOfProcessZero(*group, request, stop);

  std::optional<Project> opened;
  std::unique_ptr<Model> model;
  nlohmann::json options;
  DatasetInfo dataset;
  FitInput input;
  try {
    opened.emplace(projectFile, Project::Access::ReadWriteExisting);
    options = validateRunRequest(*opened, request);
    model = createModel(request.model);
    dataset = opened->resolveDataset(request.dataset);
    if (spread && dataset.kind != DataKind::Corpus && dataset.kind != DataKind::Ratings)
      throw UsageError("--distributed fits a corpus or ratings, not a " + std::string(toString(dataset.kind)));
    load(*opened, dataset, input);
    prepare(input, dataset.kind, model->info(), request);
    checkResources(model->info(), input.prepared->data(), options, opened->db());
    if (spread && dataset.kind == DataKind::Corpus) planShares(model->info(), options, request, input);
  } catch (const std::exception& e) {
    if (spread) announceFailure(*group, e);  // so that the others end too, rather than wait for the data
    throw;
  }
  const nlohmann::json startMetrics =
      spread ? startOtherProcesses(*group, dataset.kind, request, options, input) : nlohmann::json::object();
  input.corpus = Corpus{};  // the split holds what the fit reads
  Project& project = *opened;
  const auto& info = model->info();
  const FitData data = input.data();
  const FitSettings settings = settingsFor(request, options);

  RunRecord record;
  record.datasetId = dataset.id;
  record.datasetName = dataset.name;
  record.model = info.name;
  record.options = options;
  record.seed = request.seed;
  record.threads = request.threads;
  record.heldout = request.heldout;
  record.objectiveName = info.objectiveName;
  record.heldoutName = request.heldout > 0 ? info.heldoutName : "";
  record.appVersion = kAppVersion;
  record.sweepId = request.sweepId;
  writeWhenFree(project.db(), wait, [&] { record.id = createRun(project, record); });
  if (onCreated) onCreated(loadRun(project, record.id));

  RunRecorder recorder(project, record.id);
  ObserverList observers;
  observers.add(&recorder);
  observers.add(observer);

  FitResult result;
  try {
    tbb::task_arena arena(request.threads);
    // A fit started from a background job keeps its TBB workers in the background too.
    BackgroundWorkers background(arena, currentThreadIsBackground());
    arena.execute([&] { result = model->fit(data, settings, observers, stop); });
  } catch (const std::exception& e) {
    const auto iterations = static_cast<std::int64_t>(recorder.reports().size());
    writeWhenFree(project.db(), wait, [&] {
      recorder.writePending();
      finishRun(project, record.id, RunStatus::Failed, e.what(), 0.0, iterations, nlohmann::json::object());
    });
    recorder.clearPending();
    throw;
  }

  for (const auto& [key, value] : startMetrics.items()) result.finalMetrics[key] = value;

  // One transaction for what the recorder still holds, the final matrices (iteration -1), the
  // per-token assignments and values in full-corpus indices and the status: a reader sees a finished run
  // with all of its result or a running one. Everything in it was computed before it began.
  try {
    writeWhenFree(project.db(), wait, [&] {
      recorder.writePending();
      for (const auto& m : result.matrices) saveResultMatrix(project, record.id, -1, m);
      // A sparse matrix stored dense (where that is smaller) takes the element the fit's own float32
      // policy gives it.
      for (const auto& m : result.sparseMatrices)
        saveSparseMatrix(project, record.id, m.name, -1, m.values,
                         isFloat32Matrix(m.name, m.values.rows, m.values.cols, request.float32MatrixBytes)
                             ? MatrixElement::Float32
                             : MatrixElement::Float64);
      for (std::size_t d = 0; d < result.tokenTopics.size() && d < data.trainDocuments.size(); ++d)
        saveTokenTopics(project, record.id, data.trainDocuments[d], result.tokenTopics[d]);
      for (const auto& layer : result.tokenValues)
        for (std::size_t d = 0; d < layer.documents.size() && d < data.trainDocuments.size(); ++d)
          saveTokenValues(project, record.id, layer.name, data.trainDocuments[d], layer.documents[d]);
      for (std::size_t k = 0; k < result.topicNames.size(); ++k)
        setTopicLabel(project, record.id, static_cast<std::int64_t>(k), result.topicNames[k]);
      finishRun(project, record.id, toRunStatus(result.status), result.message, result.seconds, result.iterations,
                result.finalMetrics);
    });
  } catch (const WriteAbandoned&) {
    throw;  // the user gave up waiting for the lock: nothing more is written
  } catch (const std::exception& e) {
    // The result could not be stored (a matrix beyond SQLite's blob limit, a full disk): the
    // transaction rolled back, so the run is recorded as failed with what its snapshots hold,
    // never left running.
    recorder.clearPending();
    writeWhenFree(project.db(), wait, [&] {
      finishRun(project, record.id, RunStatus::Failed, std::string("the result could not be stored: ") + e.what(),
                result.seconds, result.iterations, result.finalMetrics);
    });
    throw;
  }
  recorder.clearPending();
  return {loadRun(project, record.id), std::move(result)};
}

}  // namespace latent::core
