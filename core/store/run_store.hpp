// SPDX-License-Identifier: GPL-3.0-or-later
// Runs in the project file: the run record, its per-iteration metrics and per-token assignments;
// its result matrices are in run_matrices.hpp, included here for the callers of both.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include "core/store/project.hpp"
#include "core/store/run_matrices.hpp"

namespace latent::core {

// Interrupted is never stored: it is how a run reads back when it is still marked running but
// the process that owned it, on this machine, no longer exists (it was killed or crashed).
enum class RunStatus { Running, Finished, Stopped, Failed, Interrupted };
// "running", "finished", ... as stored and printed. Named statusName, not toString: QTest's
// QCOMPARE calls a toString of the compared type that argument-dependent lookup finds and frees
// the string it returns (delete[]), so with a toString returning a literal a failing comparison of
// two statuses aborted the test ("munmap_chunk(): invalid pointer") instead of reporting them.
const char* statusName(RunStatus status) noexcept;
RunStatus runStatusFromString(std::string_view text);

struct RunRecord {
  std::int64_t id = 0;
  std::int64_t datasetId = 0;
  std::string datasetName;  // filled when read back
  std::string model;
  nlohmann::json options = nlohmann::json::object();
  std::uint64_t seed = 0;
  int threads = 1;
  double heldout = 0.0;
  RunStatus status = RunStatus::Running;
  std::string message;
  std::string objectiveName;
  std::string heldoutName;
  std::string appVersion;
  std::string createdAt, updatedAt, finishedAt;
  std::optional<double> seconds;
  std::optional<std::int64_t> iterations;
  nlohmann::json finalMetrics = nlohmann::json::object();
  std::optional<std::int64_t> sweepId;  // set when the run is one point of a sweep
  std::string name;                     // the user's name for the run; empty when it has none
  std::string notes;                    // the user's notes on the run (schema 14)
};

struct SweepRecord {
  std::int64_t id = 0;
  std::int64_t datasetId = 0;
  std::string model;
  std::string parameter;  // the option that varies
  std::string createdAt;
};

struct MetricRow {
  std::int64_t iteration = 0;
  double seconds = 0.0;
  std::optional<double> trainObjective;
  std::optional<double> heldout;
  nlohmann::json extras = nlohmann::json::object();
};

// Each call below is one short transaction unless the caller already holds one.
std::int64_t createRun(Project& project, const RunRecord& run);
void appendMetrics(Project& project, std::int64_t runId, std::span<const MetricRow> rows);
void saveTokenTopics(Project& project, std::int64_t runId, std::int64_t document, std::span<const std::int32_t> topics);
// A named per-token layer of one document (results/topic_results.hpp: token_class,
// token_content_probability), one float32 per kept token in document order.
void saveTokenValues(Project& project, std::int64_t runId, const std::string& name, std::int64_t document,
                     std::span<const float> values);
void finishRun(Project& project, std::int64_t runId, RunStatus status, const std::string& message, double seconds,
               std::int64_t iterations, const nlohmann::json& finalMetrics);

std::vector<RunRecord> listRuns(Project& project, std::optional<std::int64_t> datasetId = std::nullopt);
std::int64_t createSweep(Project& project, std::int64_t datasetId, const std::string& model,
                         const std::string& parameter);
std::vector<SweepRecord> listSweeps(Project& project, std::optional<std::int64_t> datasetId = std::nullopt);
std::vector<RunRecord> sweepRuns(Project& project, std::int64_t sweepId);
RunRecord loadRun(Project& project, std::int64_t runId);  // throws UsageError when missing
std::vector<MetricRow> loadMetrics(Project& project, std::int64_t runId);
std::vector<std::int32_t> loadTokenTopics(Project& project, std::int64_t runId, std::int64_t document);
// The layer `name` of document `document` (its index in the corpus); empty when the run holds none
// for it (a held-out document, another model, a run of an older build).
std::vector<float> loadTokenValues(Project& project, std::int64_t runId, const std::string& name,
                                   std::int64_t document);
// The names of the per-token layers the run stored, sorted.
std::vector<std::string> listTokenValues(Project& project, std::int64_t runId);

}  // namespace latent::core
